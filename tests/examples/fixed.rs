//! The fixed-dice harness every system's examples share: "this pool shows
//! 3, 2, 6, 5" → what the mechanic makes of it.
//!
//! Each function hands the faces a text shows to the library's own rule
//! (the function its sampler rolls through, or its solver counts), so an
//! example checks the real rule code, never a copy of it. Faces that do
//! not fit the pool are a mistake in the test: it panics saying so.

// A helper may serve one system's examples only (`gateway` the scene
// examples), so some go unused while a module is absent.
#![allow(dead_code)]

use oddsmith::systems::cgg::DieCode;
use oddsmith::systems::cgg::action::venture::{Draw, ExecDice, Rolled as CggRolled, class_of};
use oddsmith::systems::cgg::action::{Action, FailureRule, Outcome};
use oddsmith::systems::cgg::risk;
use oddsmith::systems::cortex::roll::Rolled;
use oddsmith::systems::gateway::{Contest, Pool};
use oddsmith::systems::questworlds::{Exchange, Matchup, Rating, Roll};
use oddsmith::systems::statements;

/// Gateway: the result of `pool` when its d8s show `faces` (highest face
/// plus bonuses).
pub fn gateway_result(pool: &Pool, faces: &[u32]) -> i64 {
    pool.result(faces)
        .unwrap_or_else(|| panic!("{faces:?} are not one d8 face per die of {pool:?}"))
}

/// Gateway: a challenge whose actor shows `actor` and whose opposition
/// shows `opposition`, as `[success, margin, raises banked]`.
pub fn gateway(contest: &Contest, actor: &[u32], opposition: &[u32]) -> [i64; 3] {
    let margin =
        gateway_result(&contest.actor, actor) - gateway_result(&contest.opposition, opposition);
    contest.outcome(margin)
}

/// Cortex: the roll of the step dice `dice` (sizes) showing `faces`.
pub fn cortex(dice: &[u32], faces: &[u32]) -> Rolled {
    Rolled::shown(dice, faces)
        .unwrap_or_else(|| panic!("{faces:?} are not one face per die of {dice:?}"))
}

/// CGG: a risk roll of `code` showing `faces`, as `(venture, total)`.
pub fn cgg_risk(code: DieCode, faces: &[u32]) -> (u32, i64) {
    risk::shown(code, faces)
        .unwrap_or_else(|| panic!("{faces:?} are not one d6 face per die of {code}"))
}

/// CGG: the Exec's difficulty d10s showing `faces`, sorted as the rule
/// sorts them under `failure`.
pub fn cgg_exec(faces: &[u32], failure: FailureRule) -> ExecDice {
    let mut dice = ExecDice::default();
    for &f in faces {
        assert!((1..=10).contains(&f), "{f} is not a d10 face");
        dice.0[class_of(f, failure.highest_failing())] += 1;
    }
    dice
}

/// CGG: a whole action settled on the Exec's d10s showing `exec` and the
/// risk roll showing `risk` (empty when the action rolls no risk). The
/// examples this plays roll no venture, so nothing more is rolled.
pub fn cgg_action(action: &Action, exec: &[u32], risk: &[u32]) -> Outcome {
    assert_eq!(
        exec.len() as u32,
        action.difficulty_dice(),
        "one face per difficulty die"
    );
    let (venture, total) = match action.risk_code {
        Some(code) => cgg_risk(code, risk),
        None => {
            assert!(risk.is_empty(), "this action rolls no risk");
            (0, 0)
        }
    };
    let rolled = CggRolled {
        dice: cgg_exec(exec, action.rules.failure),
        venture,
        total,
    };
    action.settle(&rolled, &mut NoMoreDice)
}

/// The venture uses that roll dice of their own: none in the examples.
struct NoMoreDice;

impl Draw for NoMoreDice {
    fn refails(&mut self, _: u32, _: u32) -> u32 {
        panic!("the example rolls no more difficulty dice")
    }
    fn set_aside(&mut self, _: &ExecDice) -> usize {
        panic!("the example sets no die aside")
    }
    fn d6(&mut self) -> u32 {
        panic!("the example rolls no more risk dice")
    }
    fn still_fails(&mut self, _: u32, _: u32) -> bool {
        panic!("the example re-rolls no failure")
    }
}

/// QuestWorlds: one side's d20 showing `face` against `rating`.
pub fn questworlds_roll(rating: Rating, face: i64) -> Roll {
    assert!((1..=20).contains(&face), "{face} is not a d20 face");
    Roll::of(rating, face)
}

/// QuestWorlds: a contest where the PC's d20 shows `pc` and the
/// opposition's shows `opposition`.
pub fn questworlds(matchup: &Matchup, pc: i64, opposition: i64) -> Exchange {
    matchup.judge(
        questworlds_roll(matchup.pc, pc),
        questworlds_roll(matchup.opponent, opposition),
    )
}

/// Statements: the successes of a statement whose rolls show `faces`.
pub fn statements(roll: &statements::Roll, rolls: statements::Rolls, faces: &[u64]) -> u32 {
    roll.successes_shown(faces, rolls)
        .unwrap_or_else(|| panic!("{faces:?} are not the rolls of a d{}", roll.sides))
}
