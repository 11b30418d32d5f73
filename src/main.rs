//! The `oddsmith` command: parse arguments, call the library, map errors to
//! exit codes (0 fine, 1 a check failed, 2 bad input or output trouble,
//! 130 interrupted by Ctrl-C).

mod cli;
mod serve;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc's `mi_option_purge_delay` (the 16th of its options, 10 ms by
/// default), from the `mimalloc.h` that `libmimalloc-sys` 0.1 builds.
const MI_OPTION_PURGE_DELAY: libc::c_int = 15;

unsafe extern "C" {
    /// In the mimalloc library the global allocator links (see `lib.rs`).
    fn mi_option_set(option: libc::c_int, value: libc::c_long);
}

/// Give memory freed by one thread back at once rather than 10 ms later:
/// a sweep's configs are made on the workers and freed on the main
/// thread, and with the default delay the freed pages of a big sweep
/// piled up (a 600,000-config run peaked at 274 MB, 218 MB with this; a
/// 100,000-config one at 108 MB, 65 MB), at no measurable cost in speed.
fn purge_freed_memory_at_once() {
    // SAFETY: sets one integer option of the allocator, which mimalloc
    // allows at any time.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`| head`) is an
    // error that `println!` turns into a panic. A command-line tool should
    // end quietly there, as the shell's own tools do.
    #[cfg(unix)]
    // SAFETY: called first thing, before any thread exists; resets one
    // signal's disposition to the default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    purge_freed_memory_at_once();
    let args = cli::Cli::parse();
    match cli::dispatch(args, serve::serve) {
        Ok(outcome) => outcome.exit_code(),
        // Whatever failed after Ctrl-C failed because of it.
        Err(_) if cli::interrupted() => {
            eprintln!(
                "interrupted: stopped before the outputs were committed; nothing was written"
            );
            ExitCode::from(cli::INTERRUPTED)
        }
        Err(e) => {
            // Several problems (a scenario with many mistakes) print one
            // per line, each as an error; an indented line belongs to the
            // one above (an expression with its caret) and stays aligned.
            for line in format!("{e:#}").lines() {
                if line.starts_with(' ') {
                    eprintln!("       {line}");
                } else {
                    eprintln!("error: {line}");
                }
            }
            ExitCode::from(2)
        }
    }
}
