//! The `oddsmith` command: parse arguments, call the library, map errors to
//! exit codes (0 fine, 1 a check failed, 2 bad input or output trouble).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::dispatch(args) {
        Ok(outcome) => outcome.exit_code(),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
