//! `oddsmith report DIR`: rebuild the charts and reports of a finished run.

use oddsmith::report::{self, OutDir};

use super::{Outcome, ReportArgs};

pub fn report(args: ReportArgs) -> anyhow::Result<Outcome> {
    let (scenario, results) = report::load(&args.dir)?;
    let verdicts = report::balance::evaluate(&results, &scenario.expectations);
    let files = report::report_files(&scenario, &results, &verdicts)?;
    let out = OutDir::prepare(&args.dir)?;
    let written = out.write(&files)?;
    println!("rebuilt {} files in {}", written.len(), args.dir.display());
    Ok(Outcome::Fine)
}
