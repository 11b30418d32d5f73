//! Standard output for every command. A reader that closes the pipe
//! (`oddsmith check … --report out | head -1`) ends the command quietly,
//! as the shell's own tools end, but by unwinding: the staged outputs of
//! a run not yet committed are removed on the way out, so no half-written
//! directory is left behind (the default SIGPIPE killed the process where
//! it stood, staging directory and all). Any other failure to write (a
//! full disk under `> file`) ends the command the same way, as an error
//! that names standard output (exit 2).

use std::io::{self, Write};

/// The unwinding payload of a closed pipe.
pub struct Closed;

/// The unwinding payload of any other failure to write.
pub struct Failed(pub String);

/// The exit code of a command whose reader went away (128 + SIGPIPE), as
/// a shell reports a tool SIGPIPE ended.
pub const CLOSED_EXIT_CODE: u8 = 141;

/// Write `text` to standard output, or unwind (see the module's doc).
pub fn bytes(text: &[u8]) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(text).and_then(|()| out.flush()) {
        fail(e)
    }
}

/// `print!`'s arguments written by [`bytes`].
pub fn args(a: std::fmt::Arguments) {
    match a.as_str() {
        Some(s) => bytes(s.as_bytes()),
        None => bytes(a.to_string().as_bytes()),
    }
}

fn fail(e: io::Error) -> ! {
    // `resume_unwind` runs no panic hook: nothing is printed on the way.
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::panic::resume_unwind(Box::new(Closed))
    }
    std::panic::resume_unwind(Box::new(Failed(e.to_string())))
}

/// `println!` through [`args`].
macro_rules! outln {
    () => {
        $crate::cli::stdout::bytes(b"\n")
    };
    ($($t:tt)*) => {
        $crate::cli::stdout::args(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// `print!` through [`args`].
macro_rules! out {
    ($($t:tt)*) => {
        $crate::cli::stdout::args(format_args!($($t)*))
    };
}

pub(crate) use {out, outln};
