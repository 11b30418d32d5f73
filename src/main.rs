//! The `oddsmith` command: parse arguments, call the library, map errors to
//! exit codes (0 fine, 1 a check failed, 2 bad input or output trouble,
//! 130 interrupted by Ctrl-C).

mod cli;
mod serve;

use std::process::ExitCode;

use clap::Parser;

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
