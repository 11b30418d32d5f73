//! Runs bigger than one machine: a run cut into shards that run anywhere
//! (a CI matrix, a Slurm array) and merge into the run one machine would
//! have made, byte for byte.
//!
//! A run's work is a list of units in order: every config's Monte Carlo
//! chunks (`(config, chunk)`, config-major), or whole configs when chunks
//! cannot be cut in advance (`--mode exact`, which has none, and precision
//! mode, where a config's chunk count depends on its own earlier chunks).
//! Shard I of N takes the I-th of N contiguous, nearly equal slices of
//! that list. A chunk draws from `DiceRng::for_chunk(seed, config, chunk)`
//! wherever it runs and tallies are integer counts, so the shards' tallies
//! of a config add up to the single run's exactly; a config's exact answer
//! comes from the shard holding its chunk 0.

mod merge;
mod part;
mod run;
mod values;

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

pub use merge::{ShardError, check_set, merge, read, read_all, scenario_of, scenario_of_all};
pub use part::{
    Digests, FILE, Header, Mismatch, Part, Piece as StoredPiece, ScenarioRef, StoredTally, Timings,
    hex,
};
pub use run::run;

use crate::run::{Mode, RunOptions};
use crate::scenario::Scenario;
use crate::sim::CHUNK;

/// The most shards a run may be cut into.
pub const MAX_SHARDS: usize = 100_000;

/// Shard `index` of `count`, counted from 1 as schedulers number array
/// tasks (`--shard 2/3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Shard `index` of `count`, if `1 ≤ index ≤ count ≤ MAX_SHARDS`.
    pub fn new(index: usize, count: usize) -> Result<Shard, String> {
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "{count} shards is out of range; allowed: 1 to {MAX_SHARDS}"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "shard {index} of {count} does not exist; allowed: 1 to {count} (shards count from 1)"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let form =
            || format!("`{s}` is not I/N; allowed: shard I of N as I/N with 1 ≤ I ≤ N, e.g. 2/3");
        let (i, n) = s.split_once('/').ok_or_else(form)?;
        let i: usize = i.trim().parse().map_err(|_| form())?;
        let n: usize = n.trim().parse().map_err(|_| form())?;
        Shard::new(i, n)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One shard's share of one config: the run driver's unit of work.
pub use crate::run::Piece;

/// How a run's work is cut into units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    configs: usize,
    /// Units per config: its chunks, or 1 when configs are not cut.
    per_config: u64,
    chunked: bool,
    /// Trials per config (fixed-trial runs).
    trials: u64,
}

impl Layout {
    /// The layout of a run of `configs` configs in `mode` with `trials`
    /// trials per config (the first round's with a `precision` target).
    pub fn new(configs: usize, mode: Mode, trials: u64, precision: Option<f64>) -> Layout {
        let chunked = precision.is_none() && mode != Mode::Exact;
        Layout {
            configs,
            per_config: if chunked {
                trials.div_ceil(CHUNK).max(1)
            } else {
                1
            },
            chunked,
            trials,
        }
    }

    /// The layout of `scenario` run under `opts`.
    pub fn of(scenario: &Scenario, opts: &RunOptions) -> Layout {
        Layout::new(
            scenario.config_count(),
            opts.mode,
            crate::run::trials(scenario, opts),
            opts.precision,
        )
    }

    /// Whether configs are cut into chunk ranges.
    pub fn chunked(&self) -> bool {
        self.chunked
    }

    /// Units `start..end` (of the whole run's list) that `shard` takes.
    fn units(&self, shard: Shard) -> Range<u128> {
        let total = self.configs as u128 * self.per_config as u128;
        let n = shard.count as u128;
        let i = shard.index as u128;
        total * (i - 1) / n..total * i / n
    }

    /// The pieces `shard` runs, in config order.
    pub fn pieces(&self, shard: Shard) -> Vec<Piece> {
        let units = self.units(shard);
        if units.is_empty() {
            return Vec::new();
        }
        let k = self.per_config as u128;
        let first = (units.start / k) as usize;
        let last = ((units.end - 1) / k) as usize;
        (first..=last)
            .map(|c| {
                let base = c as u128 * k;
                let from = units.start.max(base) - base;
                let to = units.end.min(base + k) - base;
                Piece {
                    config: c,
                    chunks: self.chunked.then_some(from as u64..to as u64),
                }
            })
            .collect()
    }

    /// Monte Carlo trials in chunks `chunks` of one config.
    pub fn trials_in(&self, chunks: &Range<u64>) -> u64 {
        let end = chunks.end.saturating_mul(CHUNK).min(self.trials);
        end - chunks.start.saturating_mul(CHUNK).min(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_reads_i_of_n_and_refuses_the_rest() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::new(2, 3).unwrap().to_string(), "2/3");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/3", "1/100001"] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("allowed"), "{bad}: {e}");
        }
    }

    /// Every unit of the run belongs to exactly one shard, in order.
    fn assert_tiles(layout: Layout, count: usize) {
        let mut next = (0usize, 0u64);
        for i in 1..=count {
            for p in layout.pieces(Shard::new(i, count).unwrap()) {
                let r = p.chunks.clone().unwrap_or(0..1);
                assert_eq!(
                    next,
                    (p.config, r.start),
                    "{layout:?} shard {i}/{count}: {p:?}"
                );
                assert!(r.start < r.end);
                next = if r.end == layout.per_config {
                    (p.config + 1, 0)
                } else {
                    (p.config, r.end)
                };
            }
        }
        assert_eq!(next, (layout.configs, 0), "{layout:?} over {count}");
    }

    #[test]
    fn shards_tile_the_run_for_every_layout() {
        for configs in [1, 2, 3, 7, 50] {
            for trials in [1, CHUNK, CHUNK + 1, 5 * CHUNK, 7 * CHUNK - 3] {
                for (mode, precision) in [
                    (Mode::MonteCarlo, None),
                    (Mode::Exact, None),
                    (Mode::Both, Some(0.01)),
                ] {
                    for count in [1, 2, 3, 4, 11, 400] {
                        assert_tiles(Layout::new(configs, mode, trials, precision), count);
                    }
                }
            }
        }
    }

    #[test]
    fn one_config_spreads_over_shards_by_chunk() {
        let layout = Layout::new(1, Mode::MonteCarlo, 5 * CHUNK, None);
        let chunks: Vec<Vec<Piece>> = (1..=3)
            .map(|i| layout.pieces(Shard::new(i, 3).unwrap()))
            .collect();
        let piece = |chunks| Piece {
            config: 0,
            chunks: Some(chunks),
        };
        assert_eq!(
            chunks,
            vec![vec![piece(0..1)], vec![piece(1..3)], vec![piece(3..5)]]
        );
        assert!(layout.pieces(Shard::new(1, 7).unwrap()).is_empty());
    }

    #[test]
    fn precision_and_exact_runs_give_whole_configs() {
        for (mode, precision) in [(Mode::Auto, Some(0.001)), (Mode::Exact, None)] {
            let layout = Layout::new(5, mode, 10 * CHUNK, precision);
            let configs: Vec<Vec<usize>> = (1..=2)
                .map(|i| {
                    let pieces = layout.pieces(Shard::new(i, 2).unwrap());
                    assert!(pieces.iter().all(|p| p.chunks.is_none() && p.first()));
                    pieces.iter().map(|p| p.config).collect()
                })
                .collect();
            assert_eq!(configs, vec![vec![0, 1], vec![2, 3, 4]]);
        }
    }

    #[test]
    fn trials_in_counts_a_short_last_chunk() {
        let layout = Layout::new(1, Mode::MonteCarlo, 2 * CHUNK + 5, None);
        assert_eq!(layout.trials_in(&(0..1)), CHUNK);
        assert_eq!(layout.trials_in(&(1..3)), CHUNK + 5);
        assert_eq!(layout.trials_in(&(0..3)), 2 * CHUNK + 5);
    }
}
