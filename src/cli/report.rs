//! `oddsmith report DIR`: rebuild the charts and reports of a finished run,
//! tune or best-play scenario.

use crate::cli::stdout::outln;
use std::collections::BTreeMap;

use oddsmith::report::{self, DATA_FILES, FileEntry};

use super::{Outcome, ReportArgs, interrupt};

pub fn report(args: ReportArgs) -> anyhow::Result<Outcome> {
    if oddsmith::tune::load::is_tune(&args.dir) {
        return tune(args);
    }
    if super::best::is_best(&args.dir) {
        return best(args);
    }
    // Read back and checked against the manifest's digests first: charts
    // are never drawn from data that is not the run's.
    let (loaded, files) = report::redraw(&args.dir)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    // The run is rebuilt beside itself and swapped in whole, like a run:
    // the data files are linked over unchanged, the rest drawn anew. The
    // manifest keeps the data files' entries and takes the new charts'
    // and documents'; one that records no digests (an old run) stays as
    // it was.
    let old = loaded.manifest.files.clone();
    let doc = loaded.manifest;
    rebuild(&args, &DATA_FILES, &files, old, |entries| {
        let mut doc = doc;
        doc.files = Some(entries);
        Ok(doc.to_json()?)
    })
}

/// A tune's directory: read back and checked (its manifest's digests),
/// its chart and reports drawn anew from `tune.parquet`, and the
/// manifest's entries for them renewed.
fn tune(args: ReportArgs) -> anyhow::Result<Outcome> {
    use oddsmith::tune::{self, report as tune_report};
    let loaded = tune::load::load(&args.dir)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let gates = loaded
        .scenario
        .tune
        .as_ref()
        .map(|t| tune::gates(&loaded.tuned, &t.gates))
        .unwrap_or_default();
    let files = tune_report::report_files(&loaded.scenario, &loaded.tuned, &gates)?;
    let old = loaded.manifest.files.clone();
    let doc = loaded.manifest;
    rebuild(&args, &tune_report::DATA_FILES, &files, old, |entries| {
        let mut doc = doc;
        doc.files = Some(entries);
        Ok(doc.to_json()?)
    })
}

/// A best-play directory: read back and checked (its manifest's
/// digests), its reports and chart drawn anew from the tables and its
/// gates judged again, and the manifest's entries for them renewed.
fn best(args: ReportArgs) -> anyhow::Result<Outcome> {
    use oddsmith::best::{report as best_report, sweep};
    let loaded = best_report::load::load(&args.dir)?;
    let spec = loaded
        .scenario
        .best
        .as_ref()
        .expect("the loader checks for [best]");
    let verdicts = sweep::gates(&loaded.scenario, &loaded.run, &spec.gates)?;
    let files = best_report::report_files(&loaded.scenario, &loaded.run, &verdicts)?;
    let old = loaded.manifest.files.clone();
    let doc = loaded.manifest;
    rebuild(
        &args,
        &best_report::DATA_FILES,
        &files,
        Some(old),
        |entries| {
            let mut doc = doc;
            doc.files = entries;
            let mut json = serde_json::to_vec_pretty(&doc)?;
            json.push(b'\n');
            Ok(json)
        },
    )
}

/// Rebuild `args.dir` beside itself and swap it in whole: `data_files`
/// linked over unchanged, `files` written anew, and the manifest's
/// entries for them renewed by `manifest` (given the data files' old
/// entries and the new files' digests). A manifest that records no
/// digests (`old` is `None`: an old run or tune) is linked over as it was.
fn rebuild(
    args: &ReportArgs,
    data_files: &[&str],
    files: &[(String, Vec<u8>)],
    old: Option<BTreeMap<String, FileEntry>>,
    manifest: impl FnOnce(BTreeMap<String, FileEntry>) -> anyhow::Result<Vec<u8>>,
) -> anyhow::Result<Outcome> {
    interrupt::install();
    let staging = interrupt::stage(&args.dir)?;
    let dest = staging.root();
    for name in data_files {
        let from = args.dir.join(name);
        if from.is_file() {
            dest.link(name, &from)?;
        }
    }
    dest.write_all(files)?;
    match old {
        Some(old) => {
            let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
            let mut entries: BTreeMap<String, FileEntry> = old
                .into_iter()
                .filter(|(n, _)| data_files.contains(&n.as_str()))
                .collect();
            for (name, sha256) in report::digests(&dest, &names)? {
                entries.insert(name, FileEntry { sha256 });
            }
            dest.write(report::Manifest::FILE, &manifest(entries)?)?;
        }
        None => dest.link(
            report::Manifest::FILE,
            &args.dir.join(report::Manifest::FILE),
        )?,
    }
    interrupt::commit(staging)?;
    outln!("rebuilt {} files in {}", files.len(), args.dir.display());
    Ok(Outcome::Fine)
}
