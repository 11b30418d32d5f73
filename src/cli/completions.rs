//! `oddsmith completions SHELL`: a completion script for bash, zsh, fish,
//! PowerShell or Elvish, generated from the clap definitions so it offers
//! exactly the subcommands and options the binary accepts.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, Outcome};

pub fn completions(shell: Shell) -> anyhow::Result<Outcome> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "oddsmith", &mut script);
    // One write, so a closed pipe is an error here rather than a panic
    // inside the generator.
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Outcome::Fine)
}
