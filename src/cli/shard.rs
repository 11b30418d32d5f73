//! `oddsmith run … --shard I/N`: one shard of a run, written as a partial
//! run (`shard.json` and `scenario.toml`) for `oddsmith merge`.

use crate::cli::stdout::outln;
use std::time::Instant;

use oddsmith::run::Mode;
use oddsmith::scenario::Scenario;
use oddsmith::shard::{self, Layout, Shard};

use super::progress::Bar;
use super::{Outcome, RunArgs, interrupt};

pub fn run(args: RunArgs, which: Shard) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let opts = super::run::options(&args)?;
    let mode = opts.mode;
    let scenario = Scenario::load(&args.scenario)?;
    super::run::not_a_tune(&scenario)?;
    let (threads, pool) = super::worker_pool(args.threads)?;
    interrupt::install();
    let staging = interrupt::stage(&args.out)?;

    let layout = Layout::of(&scenario, &opts);
    let pieces = layout.pieces(which);
    let trials = match (mode, layout.chunked()) {
        (Mode::Exact, _) | (_, false) => None,
        _ => Some(
            pieces
                .iter()
                .filter_map(|p| p.chunks.as_ref())
                .map(|r| layout.trials_in(r))
                .sum(),
        ),
    };
    let bar = Bar::new(trials, pieces.len() as u64, args.quiet);
    let part = pool.install(|| shard::run(&scenario, &opts, which, &bar));
    bar.finish();
    let mut part = part?;
    part.timings.threads = threads;
    part.timings.wall_seconds = started.elapsed().as_secs_f64();

    let dest = staging.root();
    dest.write(shard::FILE, &part.to_json()?)?;
    dest.write("scenario.toml", scenario.text.as_bytes())?;
    let out = interrupt::commit(staging)?;

    if !args.quiet {
        let configs = pieces.iter().map(|p| p.config).collect::<Vec<_>>();
        let share = match (configs.first(), configs.last()) {
            (Some(a), Some(b)) if a == b => format!("config {a}"),
            (Some(a), Some(b)) => format!("configs {a} to {b}"),
            _ => "nothing (more shards than units of work)".into(),
        };
        let cut = match pieces.first().and_then(|p| p.chunks.as_ref()) {
            Some(_) => " (by chunk)",
            None => "",
        };
        outln!(
            "{}: shard {which} of {} configs: {share}{cut} in {:.2} s → {}; merge all {} with `oddsmith merge DIR… --out DIR`",
            scenario.name,
            scenario.config_count(),
            started.elapsed().as_secs_f64(),
            out.display(),
            which.count
        );
    }
    Ok(Outcome::Fine)
}
