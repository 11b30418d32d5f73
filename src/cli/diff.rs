//! `oddsmith diff OLD NEW`: what moved between two runs.

use crate::cli::stdout::outln;
use std::io::Write;

use anyhow::Context;
use oddsmith::report::{self, diff::DIFF_Z};

use super::{DiffArgs, Outcome};

/// Moves printed; all of them go to `--csv`.
const SHOWN: usize = 200;

pub fn diff(args: DiffArgs) -> anyhow::Result<Outcome> {
    let (old, new) = (report::load(&args.old)?, report::load(&args.new)?);
    for w in old.warnings.iter().chain(&new.warnings) {
        eprintln!("warning: {w}");
    }
    let (old, new) = (old.results, new.results);
    let d = report::diff::diff(&old, &new).with_context(|| {
        format!(
            "cannot compare {} with {}",
            args.old.display(),
            args.new.display()
        )
    })?;
    if let Some(path) = &args.csv {
        write_csv(path, &d.csv()?)?;
    }
    for k in &d.only_old {
        outln!("only in {}: {k}", args.old.display());
    }
    for k in &d.only_new {
        outln!("only in {}: {k}", args.new.display());
    }
    if d.changes.is_empty() {
        outln!(
            "no metric moved beyond its uncertainty ({} values compared; exact: 1e-9, Monte Carlo: {DIFF_Z} standard errors)",
            d.compared
        );
    } else {
        outln!(
            "{} of {} values moved beyond their uncertainty, biggest first:",
            d.changes.len(),
            d.compared
        );
        for c in d.changes.iter().take(SHOWN) {
            outln!(
                "  {}: {} {:.6} → {:.6} (change {:+.6}, allowed ±{:.2e})",
                c.config,
                c.metric,
                c.old,
                c.new,
                c.new - c.old,
                c.allowed
            );
        }
        if d.changes.len() > SHOWN {
            outln!(
                "  … and {} more{}",
                d.changes.len() - SHOWN,
                if args.csv.is_some() {
                    " (all are in the CSV)"
                } else {
                    " (--csv FILE writes them all)"
                }
            );
        }
    }
    Ok(if d.differs() {
        Outcome::CheckFailed
    } else {
        Outcome::Fine
    })
}

/// Write `bytes` to `path` whole or not at all: a new temporary file with
/// a random name (`O_EXCL`) beside it, renamed over `path` when complete.
fn write_csv(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let fail = |e: &dyn std::fmt::Display| anyhow::anyhow!("{}: cannot write: {e}", path.display());
    let mut builder = tempfile::Builder::new();
    builder.prefix(".oddsmith-diff.");
    // rw-rw-rw- before the umask, as any new file: the temporary file
    // becomes FILE, so it must not stay owner-only.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| fail(&e))?;
    tmp.write_all(bytes).map_err(|e| fail(&e))?;
    tmp.as_file().sync_all().map_err(|e| fail(&e))?;
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
}
