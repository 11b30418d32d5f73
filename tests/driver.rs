//! One driver for every run: a whole run and a shard are both lists of
//! pieces through `run::execute_scenario`, told apart only by the pieces.
//! A test double sink records what the driver hands it, so the test sees
//! the one function at work for both, and that a run's shards add up to
//! the whole run tally for tally.

use std::collections::BTreeMap;
use std::path::Path;

use oddsmith::model::{Marginals, Tally};
use oddsmith::run::{self, Answered, Mode, Piece, RunError, RunOptions, Sink};
use oddsmith::scenario::Scenario;
use oddsmith::shard::{self, Layout, Shard};

/// Records every piece the driver answers: its config, its chunks, and
/// its answers.
#[derive(Default)]
struct Recorder {
    pieces: Vec<Piece>,
    exact: BTreeMap<usize, Marginals>,
    tallies: BTreeMap<usize, Tally>,
    simulating: usize,
}

impl Sink for Recorder {
    type Error = RunError;

    fn simulating(&mut self, configs: usize, _: Option<Option<&str>>) {
        self.simulating += configs;
    }

    fn answer(&mut self, a: Answered<'_>) -> Result<(), RunError> {
        self.pieces.push(a.piece.clone());
        if let Ok(m) = a.exact {
            self.exact.insert(a.piece.config, m);
        }
        if let Some(t) = a.tally {
            *self
                .tallies
                .entry(a.piece.config)
                .or_insert_with(|| Tally::for_schema(a.model.schema())) += &t;
        }
        Ok(())
    }
}

fn scenario() -> Scenario {
    let text = r#"
name = "driver"
mechanic = "gateway.challenge"
trials = 200000
seed = 7
[sweep]
"actor.trait" = [1, 2, 3]
"#;
    Scenario::parse(Path::new("driver.toml"), text).expect("a scenario")
}

fn options(mode: Mode) -> RunOptions {
    RunOptions {
        mode,
        ..RunOptions::default()
    }
}

#[test]
fn a_whole_run_and_its_shards_go_through_the_one_driver() {
    let s = scenario();
    let opts = options(Mode::Both);
    let mut whole = Recorder::default();
    run::execute_scenario(&s, &opts, (0..3).map(Piece::whole), &(), &mut whole).unwrap();
    assert_eq!(whole.pieces, (0..3).map(Piece::whole).collect::<Vec<_>>());
    assert_eq!(whole.exact.len(), 3);
    assert_eq!(whole.simulating, 3);

    // Five shards: 200,000 trials are 4 chunks a config, 12 in all, cut
    // into slices of 2 or 3, so a config's chunks are split between
    // shards; every shard's pieces are chunk ranges, through the same
    // function.
    let layout = Layout::of(&s, &opts);
    let mut shards = Recorder::default();
    for i in 1..=5 {
        let pieces = layout.pieces(Shard::new(i, 5).unwrap());
        assert!(pieces.iter().all(|p| p.chunks.is_some()));
        run::execute_scenario(&s, &opts, pieces, &(), &mut shards).unwrap();
    }
    assert!(
        shards.pieces.len() > 5,
        "some config is split: {:?}",
        shards.pieces
    );
    // Exact answers come from the piece holding chunk 0, once a config.
    assert_eq!(shards.exact, whole.exact);
    // The shards' tallies add up to the whole run's, count for count.
    assert_eq!(shards.tallies, whole.tallies);

    // The shard writer is that driver with its own sink: its pieces are
    // the ones the driver was handed.
    for i in 1..=5 {
        let part = shard::run(&s, &opts, Shard::new(i, 5).unwrap(), &()).unwrap();
        let held: Vec<(usize, Option<[u64; 2]>)> =
            part.pieces.iter().map(|p| (p.config, p.chunks)).collect();
        let due: Vec<(usize, Option<[u64; 2]>)> = layout
            .pieces(Shard::new(i, 5).unwrap())
            .into_iter()
            .map(|p| (p.config, p.chunks.map(|r| [r.start, r.end])))
            .collect();
        assert_eq!(held, due, "shard {i}");
    }
}

#[test]
fn the_methods_follow_the_mode() {
    let s = scenario();
    let mut exact = Recorder::default();
    run::execute_scenario(
        &s,
        &options(Mode::Exact),
        (0..3).map(Piece::whole),
        &(),
        &mut exact,
    )
    .unwrap();
    assert_eq!((exact.exact.len(), exact.tallies.len()), (3, 0));
    let mut mc = Recorder::default();
    run::execute_scenario(
        &s,
        &options(Mode::MonteCarlo),
        (0..3).map(Piece::whole),
        &(),
        &mut mc,
    )
    .unwrap();
    assert_eq!((mc.exact.len(), mc.tallies.len()), (0, 3));
    assert_eq!(mc.simulating, 3);
    // Auto: exact where a solver exists, so nothing is simulated here.
    let mut auto = Recorder::default();
    run::execute_scenario(
        &s,
        &options(Mode::Auto),
        (0..3).map(Piece::whole),
        &(),
        &mut auto,
    )
    .unwrap();
    assert_eq!(
        (auto.exact.len(), auto.tallies.len(), auto.simulating),
        (3, 0, 0)
    );
}
