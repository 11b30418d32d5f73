//! Tests of the wagered sequence: hand-worked rounds, policies, Monte Carlo against exact.

use super::super::Rating;
use super::super::sequence::testing::{assert_capped_is_enumeration, ex, values};
use super::*;
use crate::systems::testing::{Sample, assert_agrees, assert_chain_is_enumeration};
use crate::systems::{Mechanic, Model, ParamValue};

fn model(sequence: Wagered, max_rounds: usize) -> Box<dyn Model> {
    WageredSequence.model(Sequenced::new(sequence, max_rounds))
}

#[test]
fn exchange_table() {
    assert_eq!(ap_lost(0, 3), 2);
    assert_eq!(ap_lost(0, 4), 2);
    assert_eq!(ap_lost(1, 3), 3);
    assert_eq!(ap_lost(3, 5), 15);
    let w = Wagered::new(
        sequence::matchup(Rating(15), Rating(10)),
        3,
        3,
        Desperation::Keep,
    );
    assert_eq!(
        w.exchange((15, 10), 3, &ex(Verdict::Victory, 2, false)),
        (15, 4)
    );
    assert_eq!(
        w.exchange((15, 10), 3, &ex(Verdict::Victory, 2, true)),
        (21, 4)
    );
    assert_eq!(
        w.exchange((15, 10), 5, &ex(Verdict::Tie, 0, false)),
        (12, 7)
    );
    assert_eq!(
        w.exchange((15, 10), 5, &ex(Verdict::Defeat, 0, true)),
        (12, 13)
    );
}

#[test]
fn final_degrees() {
    let got: Vec<i64> = [0, -10, -11, -20, -21, -30, -31, -40, -41, -90]
        .into_iter()
        .map(final_degree)
        .collect();
    assert_eq!(got, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
}

#[test]
fn the_higher_wager_goes_first_and_the_gm_never_overstakes() {
    let w = Wagered::new(
        sequence::matchup(Rating(25), Rating(10)),
        3,
        8,
        Desperation::Keep,
    );
    assert_eq!(
        w.declare(&(25, 10)),
        [(Leader::Opponent, 8), (Leader::Pc, 3)]
    );
    // With 2 AP left the GM stakes 2, below the PC's 3.
    assert_eq!(
        w.declare(&(25, 2)),
        [(Leader::Pc, 3), (Leader::Opponent, 2)]
    );
    // The PC keeps a 3 with 1 AP left; "never" lowers it.
    assert_eq!(w.staked((Leader::Pc, 3), &(1, 9)), 3);
    let never = Wagered::new(
        sequence::matchup(Rating(25), Rating(10)),
        3,
        3,
        Desperation::Never,
    );
    assert_eq!(never.staked((Leader::Pc, 3), &(1, 9)), 1);
    let behind = Wagered::new(
        sequence::matchup(Rating(25), Rating(10)),
        3,
        3,
        Desperation::WhenBehind,
    );
    assert_eq!(behind.declare(&(4, 9))[0], (Leader::Pc, 25));
}

#[test]
fn wagers_are_checked_against_starting_ap() {
    use ParamValue::*;
    let err = WageredSequence
        .trial(&values(&[("pc.rating", Int(5)), ("pc.wager", Int(6))]))
        .err()
        .unwrap();
    assert_eq!(err.key, "pc.wager");
    let err = WageredSequence
        .trial(&values(&[("pc.rating", Int(5)), ("pc.modifier", Int(-5))]))
        .err()
        .unwrap();
    assert_eq!(err.key, "pc.rating");
    // A resistance below 1 is named by the key that set it.
    let err = WageredSequence
        .trial(&values(&[("resistance.level", Str("simple".into()))]))
        .err()
        .unwrap();
    assert_eq!(err.key, "resistance.level");
}

#[test]
fn equal_sides_are_nearly_symmetric() {
    // The PC's exchange goes first on equal wagers, the only asymmetry.
    let m = model(
        Wagered::new(
            sequence::matchup(Rating(10), Rating(10)),
            3,
            3,
            Desperation::Never,
        ),
        100,
    );
    let w = m.exact().unwrap();
    let (p, o) = (w.field(0)[&PC], w.field(0)[&OPPONENT]);
    assert!((p - o).abs() < 0.05, "{p} {o}");
}

#[test]
fn too_many_states_leave_it_to_monte_carlo() {
    // 20M10 (220 AP) a side, staking 1 AP: the two AP totals spread
    // past the 20,000-state limit, so there is no exact answer.
    let m = model(
        Wagered::new(
            sequence::matchup(Rating(220), Rating(220)),
            1,
            1,
            Desperation::Keep,
        ),
        1000,
    );
    assert!(m.exact().is_none());
}

#[test]
fn monte_carlo_agrees_with_exact_on_20_configs() {
    let ratings = [
        ("10", "10"),
        ("15", "10"),
        ("1M", "15"),
        ("5M", "20"),
        ("2M", "1M"),
    ];
    let wagers = [(3, 3), (5, 2), (1, 6), (8, 8)];
    let desperation = ["keep", "never", "when-behind"];
    let mut n = 0;
    for (i, (pc, opp)) in ratings.iter().enumerate() {
        for (j, (pw, ow)) in wagers.iter().enumerate() {
            let pairs = [
                ("pc.rating", ParamValue::Str(pc.to_string())),
                ("opponent.rating", ParamValue::Str(opp.to_string())),
                ("pc.wager", ParamValue::Int(*pw)),
                ("opponent.wager", ParamValue::Int(*ow)),
                (
                    "pc.desperation_stake",
                    ParamValue::Str(desperation[(i + j) % 3].into()),
                ),
            ];
            let m = WageredSequence.prepare(&values(&pairs)).unwrap();
            assert_agrees(
                m.as_ref(),
                Sample::seed(11).config(200 + n),
                &format!("{pairs:?}"),
            );
            n += 1;
        }
    }
    assert!(n >= 20);
}

/// The chain is the walk of every path of rolls. Uncapped: a sure win
/// against a side with no AP ends on the first exchange; 20 against 4
/// with wagers 5 and 3 is over within 9 exchanges but for 10^-4
/// (8·10^-5). Capped
/// at 2 rounds (4 exchanges): 15 against 10 with wagers 4 and 2, the PC
/// staking everything when behind and taking parting shots. Each
/// exchange branches over the contest's outcomes, so the walks are kept
/// under a third of a second (a third round takes four seconds).
#[test]
fn the_chain_is_the_enumeration() {
    let sure = Wagered::new(
        sequence::matchup(Rating(20), Rating(0)),
        3,
        3,
        Desperation::Keep,
    );
    let (_, lost) = assert_chain_is_enumeration(&sure, 6, 4, "sure win");
    assert_eq!(lost, 0.0, "a sure win is over at once");
    let lopsided = Wagered::new(
        sequence::matchup(Rating(20), Rating(4)),
        5,
        3,
        Desperation::Keep,
    );
    assert_chain_is_enumeration(&lopsided, 6, 9, "20 against 4");
    use ParamValue::*;
    let capped = WageredSequence
        .trial(&values(&[
            ("pc.rating", Int(15)),
            ("opponent.rating", Int(10)),
            ("pc.wager", Int(4)),
            ("opponent.wager", Int(2)),
            ("pc.desperation_stake", Str("when-behind".into())),
            ("pc.parting_shot", Str("always".into())),
            ("max_rounds", Int(2)),
        ]))
        .unwrap();
    let lost = assert_capped_is_enumeration(&capped, 12, "capped at 2");
    assert_eq!(lost, 0.0, "two rounds and their shots");
}
