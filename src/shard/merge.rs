//! Merging shards: read each `shard.json`, check that the set is one
//! whole run (same scenario, seed, trials, mode and shard count; every
//! shard 1..=N exactly once), and add the shards' pieces up into the
//! [`Results`] the single run would have produced.
//!
//! Nothing read is trusted: each shard's payload must hash to the
//! digests its header records, each shard must carry the scenario file
//! the first one carries, each shard must hold exactly the pieces the
//! layout gives it, each tally must count the trials of its chunks and
//! lie within its config's support, and each config must be answered as
//! its mode demands. A file that is not so is bad input naming it.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::part::{FORMAT, Header, Part, Piece};
use super::values::{Support, exact_of, tally_of};
use super::{FILE, Layout, Shard};
use crate::model::Marginals;
use crate::report::OutputError;
use crate::results::{ConfigResult, Results};
use crate::run::{self, BATCH, Mode, RunOptions};
use crate::scenario::{Scenario, ScenarioError};
use crate::sim::Tally;
use crate::systems::Schema;

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("{path}: {message}")]
    Bad { path: String, message: String },
    /// Shards that do not make one whole run: one problem a line.
    #[error("{}", .0.join("\n"))]
    Set(Vec<String>),
}

fn file(dir: &Path) -> String {
    dir.join(FILE).display().to_string()
}

fn bad(path: impl Into<String>, message: impl Into<String>) -> ShardError {
    ShardError::Bad {
        path: path.into(),
        message: message.into(),
    }
}

/// The partial run in `dir`.
pub fn read(dir: &Path) -> Result<Part, ShardError> {
    let path = dir.join(FILE);
    let bytes = std::fs::read(&path).map_err(|e| {
        let what = if dir.join("manifest.json").is_file() {
            "this is a whole run, not a shard; merge the directories written by `oddsmith run … --shard I/N`".to_string()
        } else {
            format!(
                "cannot read: {e}; a shard's directory is written by `oddsmith run … --shard I/N`"
            )
        };
        bad(path.display().to_string(), what)
    })?;
    // `format` first, so a file of another version is named as such
    // rather than by its first unknown key.
    #[derive(serde::Deserialize)]
    struct Format {
        format: Option<String>,
    }
    let format = serde_json::from_slice::<Format>(&bytes)
        .map_err(|e| bad(file(dir), format!("not a shard file oddsmith wrote: {e}")))?
        .format;
    if format.as_deref() != Some(FORMAT) {
        return Err(bad(
            file(dir),
            format!(
                "`format` is {}; allowed: {FORMAT} (oddsmith {} reads only shards of its own format; run the shard again with it)",
                format.map_or("missing".into(), |f| format!("`{f}`")),
                env!("CARGO_PKG_VERSION")
            ),
        ));
    }
    let part: Part = serde_json::from_slice(&bytes)
        .map_err(|e| bad(file(dir), format!("not a shard file oddsmith wrote: {e}")))?;
    Shard::new(part.shard, part.run.shards).map_err(|e| {
        bad(
            file(dir),
            format!("`shard` {}/{}: {e}", part.shard, part.run.shards),
        )
    })?;
    if let Err(m) = part.verify() {
        let what = match m.field {
            "run" => "`shard` and `run`",
            _ => "`pieces`",
        };
        return Err(bad(
            file(dir),
            format!(
                "shard {}: {what} do not match `sha256.{}` in its header (recorded {}, the file now gives {}); the file was changed or damaged after the shard ran; run shard {} again",
                part.which(),
                m.field,
                m.recorded,
                m.computed,
                part.which()
            ),
        ));
    }
    Ok(part)
}

/// The partial runs in `dirs`, every unreadable one named at once.
pub fn read_all(dirs: &[PathBuf]) -> Result<Vec<(PathBuf, Part)>, ShardError> {
    let mut parts = Vec::with_capacity(dirs.len());
    let mut problems = Vec::new();
    for dir in dirs {
        match read(dir) {
            Ok(p) => parts.push((dir.clone(), p)),
            Err(e) => problems.push(e.to_string()),
        }
    }
    if problems.is_empty() {
        Ok(parts)
    } else {
        Err(ShardError::Set(problems))
    }
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Auto => "auto",
        Mode::Exact => "exact",
        Mode::MonteCarlo => "mc",
        Mode::Both => "both",
    }
}

/// `(key, ours, theirs)` for every key where two headers differ.
fn differences(a: &Header, b: &Header) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let mut cmp = |key, x: String, y: String| {
        if x != y {
            out.push((key, x, y));
        }
    };
    let scenario = |h: &Header| format!("`{}` (SHA-256 {})", h.scenario.path, h.scenario.sha256);
    if a.scenario.sha256 != b.scenario.sha256 {
        cmp("scenario", scenario(a), scenario(b));
    }
    cmp(
        "oddsmith_version",
        a.oddsmith_version.clone(),
        b.oddsmith_version.clone(),
    );
    cmp("mechanic", a.mechanic.clone(), b.mechanic.clone());
    cmp("configs", a.configs.to_string(), b.configs.to_string());
    cmp("mode", mode_name(a.mode).into(), mode_name(b.mode).into());
    cmp("seed", a.seed.to_string(), b.seed.to_string());
    cmp("trials", a.trials.to_string(), b.trials.to_string());
    let opt = |v: Option<String>| v.unwrap_or_else(|| "none".into());
    cmp(
        "precision",
        opt(a.precision.map(|p| p.0.to_string())),
        opt(b.precision.map(|p| p.0.to_string())),
    );
    cmp(
        "max_trials",
        opt(a.max_trials.map(|t| t.to_string())),
        opt(b.max_trials.map(|t| t.to_string())),
    );
    cmp("shards", a.shards.to_string(), b.shards.to_string());
    out
}

/// Check that `parts` are the shards of one run, each exactly once; every
/// problem is named, one a line.
pub fn check_set(parts: &[(PathBuf, Part)]) -> Result<(), ShardError> {
    let Some((first_dir, first)) = parts.first() else {
        return Err(ShardError::Set(vec!["no shards to merge".into()]));
    };
    let mut problems = Vec::new();
    for (dir, part) in &parts[1..] {
        for (key, theirs, ours) in differences(&part.run, &first.run) {
            problems.push(format!(
                "{}: `{key}` is {theirs}, but {} has {ours}; only shards of one run merge (one scenario file, seed, trials, mode, precision and shard count)",
                file(dir),
                file(first_dir)
            ));
        }
    }
    if !problems.is_empty() {
        return Err(ShardError::Set(problems));
    }
    let n = first.run.shards;
    let mut holders: Vec<Vec<&Path>> = vec![Vec::new(); n];
    for (dir, part) in parts {
        holders[part.shard - 1].push(dir);
    }
    for (i, dirs) in holders.iter().enumerate() {
        if dirs.len() > 1 {
            let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            problems.push(format!(
                "shard {}/{n} is given {} times: {}; give each shard once",
                i + 1,
                dirs.len(),
                names.join(", ")
            ));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|i| holders[i - 1].is_empty())
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "shard{} {} of `{}` {} missing; a merge needs every shard from 1/{n} to {n}/{n} exactly once",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            first.run.scenario.path,
            if missing.len() > 1 { "are" } else { "is" },
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ShardError::Set(problems))
    }
}

/// The bytes of the shard in `dir`'s `scenario.toml`, which must be the
/// file the shard ran (by the SHA-256 its `shard.json` records).
fn scenario_bytes(dir: &Path, part: &Part) -> Result<Vec<u8>, ShardError> {
    let path = dir.join("scenario.toml");
    let bytes = std::fs::read(&path).map_err(|e| {
        bad(
            path.display().to_string(),
            format!(
                "cannot read: {e}; every shard carries the scenario file it ran (shard {})",
                part.which()
            ),
        )
    })?;
    let sha = super::part::hex(&Sha256::digest(&bytes));
    if sha != part.run.scenario.sha256 {
        return Err(bad(
            path.display().to_string(),
            format!(
                "was changed after the shard ran (its SHA-256 is {sha}, {} says {})",
                file(dir),
                part.run.scenario.sha256
            ),
        ));
    }
    Ok(bytes)
}

/// The scenario the shards `parts` (checked by [`check_set`]) ran: every
/// shard's `scenario.toml` must be there, be the file that shard ran and
/// be the first shard's, byte for byte. Every shard that fails is named.
pub fn scenario_of_all(parts: &[(PathBuf, Part)]) -> Result<Scenario, ShardError> {
    let Some((first_dir, first)) = parts.first() else {
        return Err(ShardError::Set(vec!["no shards to merge".into()]));
    };
    let mut problems = Vec::new();
    let mut first_bytes = None;
    for (k, (dir, part)) in parts.iter().enumerate() {
        match scenario_bytes(dir, part) {
            Ok(bytes) if k == 0 => first_bytes = Some(bytes),
            Ok(bytes) => {
                if first_bytes.as_ref().is_some_and(|f| *f != bytes) {
                    problems.push(format!(
                        "{}: differs from {}; only shards of one scenario file merge",
                        dir.join("scenario.toml").display(),
                        first_dir.join("scenario.toml").display()
                    ));
                }
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    if !problems.is_empty() {
        return Err(ShardError::Set(problems));
    }
    scenario_of(first_dir, first)
}

/// The scenario the shard in `dir` ran, from its `scenario.toml`, which
/// must be the file the shard ran; it is named, as in a single run, by
/// the path it was run from. (A merge checks every shard's copy with
/// [`scenario_of_all`].)
pub fn scenario_of(dir: &Path, part: &Part) -> Result<Scenario, ShardError> {
    let path = dir.join("scenario.toml");
    let bytes = scenario_bytes(dir, part)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| bad(path.display().to_string(), "the file is not UTF-8 text"))?;
    // Parsed under its original path: an unnamed scenario takes its name
    // from the file's stem, as it did in the shard.
    let scenario = Scenario::parse(Path::new(&part.run.scenario.path), &text)?;
    if scenario.mechanic.name() != part.run.mechanic || scenario.config_count() != part.run.configs
    {
        return Err(bad(
            file(dir),
            format!(
                "says {} configs of {}, but its scenario.toml has {} of {}",
                part.run.configs,
                part.run.mechanic,
                scenario.config_count(),
                scenario.mechanic.name()
            ),
        ));
    }
    Ok(scenario)
}

/// The run the shards `parts` (checked by [`check_set`]) add up to. Its
/// timings are the shards' summed.
pub fn merge(scenario: &Scenario, parts: &[(PathBuf, Part)]) -> Result<Results, ShardError> {
    let run = &parts[0].1.run;
    let layout = Layout::new(
        run.configs,
        run.mode,
        run.trials,
        run.precision.map(|p| p.0),
    );
    let mut sorted: Vec<&(PathBuf, Part)> = parts.iter().collect();
    sorted.sort_by_key(|(_, p)| p.shard);
    let mut by_config: Vec<Vec<(&Path, Shard, &Piece)>> = vec![Vec::new(); run.configs];
    for (dir, part) in sorted {
        let expected = layout.pieces(part.which());
        let held: Vec<(usize, Option<[u64; 2]>)> =
            part.pieces.iter().map(|p| (p.config, p.chunks)).collect();
        let due: Vec<(usize, Option<[u64; 2]>)> = expected
            .iter()
            .map(|p| (p.config, p.chunks.as_ref().map(|r| [r.start, r.end])))
            .collect();
        if held != due {
            return Err(bad(
                file(dir),
                format!(
                    "holds {}, but shard {} of this run holds {}; the file was changed after the shard ran",
                    describe(&held),
                    part.which(),
                    describe(&due)
                ),
            ));
        }
        for piece in &part.pieces {
            by_config[piece.config].push((dir, part.which(), piece));
        }
    }

    let mut configs = Vec::with_capacity(run.configs);
    for from in (0..run.configs).step_by(BATCH) {
        let batch = (from..run.configs.min(from + BATCH))
            .into_par_iter()
            .map(|c| -> Result<ConfigResult, ShardError> {
                let config = scenario.config(c);
                let model = scenario.prepare(&config)?;
                let schema = model.schema();
                let (exact, tally) = config_answer(&layout, run, c, &by_config[c], schema)?;
                Ok(ConfigResult::of(
                    c,
                    config.swept,
                    schema,
                    exact.as_ref(),
                    tally.as_ref(),
                ))
            })
            .collect::<Result<Vec<_>, _>>()?;
        configs.extend(batch);
    }
    let opts = RunOptions {
        mode: run.mode,
        trials: Some(run.trials),
        seed: Some(run.seed),
        precision: run.precision.map(|p| p.0),
        max_trials: run.max_trials.unwrap_or(RunOptions::default().max_trials),
    };
    let timings = run::Timings {
        exact_seconds: parts.iter().map(|(_, p)| p.timings.exact_seconds).sum(),
        mc_seconds: parts
            .iter()
            .map(|(_, p)| p.timings.monte_carlo_seconds)
            .sum(),
    };
    Ok(run::results_of(scenario, &opts, configs, timings))
}

/// `configs 0 to 3 (chunks 2..5 of config 0)` for messages.
fn describe(pieces: &[(usize, Option<[u64; 2]>)]) -> String {
    match (pieces.first(), pieces.last()) {
        (Some(first), Some(last)) => {
            let chunks = |p: &(usize, Option<[u64; 2]>)| match p.1 {
                Some([a, b]) => format!(" chunks {a}..{b}"),
                None => String::new(),
            };
            if pieces.len() == 1 {
                format!("config {}{}", first.0, chunks(first))
            } else {
                format!(
                    "{} pieces, config {}{} to config {}{}",
                    pieces.len(),
                    first.0,
                    chunks(first),
                    last.0,
                    chunks(last)
                )
            }
        }
        _ => "nothing".into(),
    }
}

/// Config `c`'s exact answer and summed tally from its pieces (in chunk
/// order), checked against the run's mode.
fn config_answer(
    layout: &Layout,
    run: &Header,
    c: usize,
    pieces: &[(&Path, Shard, &Piece)],
    schema: &Schema,
) -> Result<(Option<Marginals>, Option<Tally>), ShardError> {
    let mut exact = None;
    let mut tally: Option<Tally> = None;
    let mut tallied = 0;
    let mut support = Support::declared(schema);
    for (k, (dir, shard, piece)) in pieces.iter().enumerate() {
        let at = match piece.chunks {
            Some([a, b]) => format!("config {c} chunks {a}..{b}"),
            None => format!("config {c}"),
        };
        let wrong = |message: String| bad(file(dir), format!("{at}: {message}"));
        let outside = |(f, v, allowed): (usize, i64, String)| {
            wrong(format!(
                "shard {shard} gives `{}` = {v}, outside config {c}'s support; allowed: {allowed}",
                schema.fields[f].name
            ))
        };
        if let Some(e) = &piece.exact {
            if k > 0 {
                return Err(wrong(
                    "has an exact answer, but only the piece holding a config's chunk 0 may".into(),
                ));
            }
            let m = exact_of(e, piece.exact_joint.as_deref(), schema).map_err(wrong)?;
            support.check_table(&m).map_err(outside)?;
            let cap = run.max_trials.unwrap_or(run.trials);
            support.narrow_to_exact(&m, cap);
            exact = Some(m);
        }
        if let Some(t) = &piece.tally {
            let due = piece.chunks.map(|[a, b]| layout.trials_in(&(a..b)));
            let t = tally_of(t, schema, due, run.max_trials).map_err(wrong)?;
            support.check_table(&t).map_err(outside)?;
            match &mut tally {
                Some(sum) => *sum += &t,
                None => tally = Some(t),
            }
            tallied += 1;
        }
    }
    let all = tallied == pieces.len();
    let none = tallied == 0;
    let (ok, need) = match run.mode {
        Mode::Exact => (exact.is_some() && none, "an exact answer and no tally"),
        Mode::MonteCarlo => (
            exact.is_none() && all,
            "a tally for every piece and no exact answer",
        ),
        Mode::Both => (
            exact.is_some() && all,
            "an exact answer and a tally for every piece",
        ),
        Mode::Auto => (
            (exact.is_some() && none) || (exact.is_none() && all),
            "an exact answer, or else a tally for every piece",
        ),
    };
    if !ok {
        return Err(bad(
            file(pieces[0].0),
            format!(
                "config {c} has {} and tallies for {tallied} of its {} pieces; a run in --mode {} needs {need}",
                if exact.is_some() {
                    "an exact answer"
                } else {
                    "no exact answer"
                },
                pieces.len(),
                mode_name(run.mode)
            ),
        ));
    }
    Ok((exact, tally))
}
