//! `oddsmith diff OLD NEW`: what moved between two runs.

use oddsmith::report::{self, diff::DIFF_Z};

use super::{DiffArgs, Outcome};

pub fn diff(args: DiffArgs) -> anyhow::Result<Outcome> {
    let (_, old) = report::load(&args.old)?;
    let (_, new) = report::load(&args.new)?;
    let d = report::diff::diff(&old, &new);
    for k in &d.only_old {
        println!("only in {}: {k}", args.old.display());
    }
    for k in &d.only_new {
        println!("only in {}: {k}", args.new.display());
    }
    if d.changes.is_empty() {
        println!(
            "no metric moved beyond its uncertainty ({} values compared; exact: 1e-9, Monte Carlo: {DIFF_Z} standard errors)",
            d.compared
        );
        return Ok(Outcome::Fine);
    }
    println!(
        "{} of {} values moved beyond their uncertainty:",
        d.changes.len(),
        d.compared
    );
    for c in &d.changes {
        println!(
            "  {}: {} {:.6} → {:.6} (change {:+.6}, allowed ±{:.2e})",
            c.config,
            c.metric,
            c.old,
            c.new,
            c.new - c.old,
            c.allowed
        );
    }
    Ok(Outcome::CheckFailed)
}
