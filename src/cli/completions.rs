//! `oddsmith completions SHELL`: a completion script for bash, zsh, fish,
//! PowerShell or Elvish, generated from the clap definitions so it offers
//! exactly the subcommands and options the binary accepts.

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, Outcome};

pub fn completions(shell: Shell) -> anyhow::Result<Outcome> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "oddsmith", &mut script);
    // One write, so a closed pipe ends the command here rather than
    // inside the generator.
    super::stdout::bytes(&script);
    Ok(Outcome::Fine)
}
