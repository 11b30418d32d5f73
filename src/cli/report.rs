//! `oddsmith report DIR`: rebuild the charts and reports of a finished run.

use oddsmith::report;

use super::{Outcome, ReportArgs, interrupt};

/// The files of a run that `report` keeps as they are; everything else
/// (charts, report.md, report.html) is drawn again.
const KEPT: &[&str] = &[
    "summary.csv",
    "results.csv",
    "results.parquet",
    "summary.parquet",
    "agreement.csv",
    "manifest.json",
    "scenario.toml",
];

pub fn report(args: ReportArgs) -> anyhow::Result<Outcome> {
    let (scenario, results) = report::load(&args.dir)?;
    let verdicts = report::balance::evaluate(&results, &scenario.expectations);
    let files = report::report_files(&scenario, &results, &verdicts)?;
    // The run is rebuilt beside itself and swapped in whole, like a run:
    // the data files are linked over unchanged, the rest drawn anew.
    interrupt::install();
    let staging = interrupt::stage(&args.dir)?;
    let dest = staging.root();
    for name in KEPT {
        let from = args.dir.join(name);
        if from.is_file() {
            dest.link(name, &from)?;
        }
    }
    dest.write_all(&files)?;
    interrupt::commit(staging)?;
    println!("rebuilt {} files in {}", files.len(), args.dir.display());
    Ok(Outcome::Fine)
}
