//! `oddsmith report DIR`: rebuild the charts and reports of a finished run
//! or tune.

use oddsmith::report::{self, DATA_FILES, FileEntry};

use super::{Outcome, ReportArgs, interrupt};

pub fn report(args: ReportArgs) -> anyhow::Result<Outcome> {
    if oddsmith::tune::load::is_tune(&args.dir) {
        return tune(args);
    }
    // Read back and checked against the manifest's digests first: charts
    // are never drawn from data that is not the run's.
    let loaded = report::load(&args.dir)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let verdicts = report::balance::evaluate(&loaded.results, &loaded.scenario.expectations);
    let files = report::report_files(&loaded.scenario, &loaded.results, &verdicts)?;
    // The run is rebuilt beside itself and swapped in whole, like a run:
    // the data files are linked over unchanged, the rest drawn anew.
    interrupt::install();
    let staging = interrupt::stage(&args.dir)?;
    let dest = staging.root();
    for name in DATA_FILES {
        let from = args.dir.join(name);
        if from.is_file() {
            dest.link(name, &from)?;
        }
    }
    dest.write_all(&files)?;
    // The manifest keeps the data files' entries and takes the new
    // charts' and documents'; one that records no digests (an old run)
    // stays as it was.
    let manifest = args.dir.join(report::Manifest::FILE);
    match &loaded.manifest.files {
        Some(old) => {
            let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
            let mut entries: std::collections::BTreeMap<String, FileEntry> = old
                .iter()
                .filter(|(n, _)| DATA_FILES.contains(&n.as_str()))
                .map(|(n, e)| (n.clone(), e.clone()))
                .collect();
            for (name, sha256) in report::digests(&dest, &names)? {
                entries.insert(name, FileEntry { sha256 });
            }
            let mut doc = loaded.manifest.clone();
            doc.files = Some(entries);
            dest.write(report::Manifest::FILE, &doc.to_json()?)?;
        }
        None => dest.link(report::Manifest::FILE, &manifest)?,
    }
    interrupt::commit(staging)?;
    println!("rebuilt {} files in {}", files.len(), args.dir.display());
    Ok(Outcome::Fine)
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
    interrupt::install();
    let staging = interrupt::stage(&args.dir)?;
    let dest = staging.root();
    for name in tune_report::DATA_FILES {
        let from = args.dir.join(name);
        if from.is_file() {
            dest.link(name, &from)?;
        }
    }
    dest.write_all(&files)?;
    let manifest = args.dir.join(report::Manifest::FILE);
    match &loaded.manifest.files {
        Some(old) => {
            let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
            let mut entries: std::collections::BTreeMap<String, FileEntry> = old
                .iter()
                .filter(|(n, _)| tune_report::DATA_FILES.contains(&n.as_str()))
                .map(|(n, e)| (n.clone(), e.clone()))
                .collect();
            for (name, sha256) in report::digests(&dest, &names)? {
                entries.insert(name, FileEntry { sha256 });
            }
            let mut doc = loaded.manifest.clone();
            doc.files = Some(entries);
            dest.write(report::Manifest::FILE, &doc.to_json()?)?;
        }
        None => dest.link(report::Manifest::FILE, &manifest)?,
    }
    interrupt::commit(staging)?;
    println!("rebuilt {} files in {}", files.len(), args.dir.display());
    Ok(Outcome::Fine)
}
