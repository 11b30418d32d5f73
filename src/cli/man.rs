//! `oddsmith man [SUBCOMMAND]`: the manual page in roff, generated from the
//! clap definitions: oddsmith(1), or oddsmith-run(1) and the like with all
//! of one subcommand's options.

use anyhow::bail;
use clap::CommandFactory;

use super::{Cli, Outcome};

pub fn man(subcommand: Option<&str>) -> anyhow::Result<Outcome> {
    let mut cmd = Cli::command();
    // Building fills in each subcommand's display name (oddsmith-run) and
    // binary name (oddsmith run), which head and synopsise its page.
    cmd.build();
    let page = match subcommand {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cmd
                    .get_subcommands()
                    .filter(|s| !s.is_hide_set())
                    .map(|s| s.get_name())
                    .filter(|n| *n != "help")
                    .collect();
                bail!(
                    "`{name}` is not a subcommand; allowed: {}",
                    names.join(", ")
                );
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    let roff = ascii_roff(&String::from_utf8(roff)?);
    super::stdout::bytes(roff.as_bytes());
    Ok(Outcome::Fine)
}

/// `roff` with every character outside ASCII written as groff's `\[uXXXX]`
/// escape: troff reads bytes, and without a preprocessor (`man` runs
/// preconv, a bare `groff -man` does not) the help's `…` would come out as
/// garbage with a warning.
fn ascii_roff(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    for c in roff.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ascii_roff;

    #[test]
    fn characters_outside_ascii_become_groff_escapes() {
        assert_eq!(ascii_roff("a \u{2026} b \u{d7}"), r"a \[u2026] b \[u00D7]");
        assert_eq!(ascii_roff(".TH x 1"), ".TH x 1");
    }
}
