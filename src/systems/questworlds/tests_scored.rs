//! `questworlds.scored`'s tests: lodged points and final degrees, the
//! tactics, Monte Carlo against exact, the chain against enumeration.

use super::super::Rating;
use super::super::sequence::testing::{assert_capped_is_enumeration, p_victory, values};
use super::*;
use crate::systems::testing::{Sample, assert_agrees, assert_chain_is_enumeration};
use crate::systems::{Mechanic, Model, ParamValue};
use Tactic::*;

fn model(sequence: Scored, max_rounds: usize) -> Box<dyn Model> {
    ScoredSequence.model(Sequenced::new(sequence, max_rounds))
}

#[test]
fn resolution_points_lodged() {
    assert_eq!(lodged(0, Plain, Plain), 1);
    assert_eq!(lodged(2, Plain, Plain), 3);
    assert_eq!(lodged(0, RiskyGambit, Plain), 2);
    assert_eq!(lodged(0, Plain, RiskyGambit), 3);
    assert_eq!(lodged(1, RiskyGambit, RiskyGambit), 4);
    assert_eq!(lodged(1, DefensiveResponse, Plain), 1);
    assert_eq!(lodged(1, Plain, DefensiveResponse), 0);
    assert_eq!(lodged(0, Plain, DefensiveResponse), 0);
    assert_eq!(lodged(3, RiskyGambit, DefensiveResponse), 3);
}

#[test]
fn final_degrees() {
    let got: Vec<i64> = (1..=11).map(final_degree).collect();
    assert_eq!(got, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4]);
}

#[test]
fn equal_ratings_without_tactics_are_symmetric() {
    let m = model(
        Scored::new(
            sequence::matchup(Rating(10), Rating(10)),
            Tactics::NONE,
            Tactics::NONE,
        ),
        100,
    );
    let exact = m.exact().unwrap();
    let winner = exact.field(0);
    assert!(
        (winner[&PC] - winner[&OPPONENT]).abs() < 1e-12,
        "{winner:?}"
    );
    assert!((winner[&PC] + winner[&OPPONENT] - 1.0).abs() < 1e-10);
}

#[test]
fn a_sure_win_takes_one_to_five_rounds() {
    // Against a resistance ≤ 0 every round is a victory of degree = PC
    // successes. TN 20: 1 success (19/20) or 2 (1/20): RP 2 or 3 a
    // round, so 2 or 3 rounds.
    let m = model(
        Scored::new(
            sequence::matchup(Rating(20), Rating(0)),
            Tactics::NONE,
            Tactics::NONE,
        ),
        100,
    );
    let exact = m.exact().unwrap();
    assert!((exact.field(0)[&PC] - 1.0).abs() < 1e-12);
    let rounds = exact.field(1);
    // 3 rounds: the first two give 2 each (4 < 5).
    assert!((rounds[&3] - 0.95f64.powi(2)).abs() < 1e-12);
    assert!((rounds[&2] - (1.0 - 0.95f64.powi(2))).abs() < 1e-12);
}

#[test]
fn tactics_shift_the_odds() {
    use ParamValue::*;
    let base = p_victory(
        ScoredSequence
            .prepare(&values(&[("pc.rating", Int(12))]))
            .unwrap()
            .as_ref(),
    );
    let defensive = ScoredSequence
        .prepare(&values(&[
            ("pc.rating", Int(12)),
            ("pc.defensive_response", Str("always".into())),
        ]))
        .unwrap();
    assert!(p_victory(defensive.as_ref()) != base);
    let exact = defensive.exact().unwrap();
    let mean =
        |m: &crate::model::Marginals| m.field(1).iter().map(|(k, p)| *k as f64 * p).sum::<f64>();
    let plain = ScoredSequence
        .prepare(&values(&[("pc.rating", Int(12))]))
        .unwrap()
        .exact()
        .unwrap();
    assert!(
        mean(&exact) > mean(&plain),
        "defence makes sequences longer"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn more_rating_never_lowers_p_victory(pc in 1i64..=70, opp in 1i64..=70, more in 1i64..=20) {
        let p = |tn| p_victory(model(Scored::new(
            sequence::matchup(Rating(tn), Rating(opp)),
            Tactics::NONE,
            Tactics::NONE,
        ), 100).as_ref());
        let (lo, hi) = (p(pc), p(pc + more));
        proptest::prop_assert!(hi >= lo - 1e-9, "{} → {}: {} < {}", pc, pc + more, hi, lo);
    }
}

#[test]
fn two_defensive_responses_stall_into_a_stalemate() {
    // 10 vs 10 never gives more than 2 degrees, and two defensive
    // responses take 3 off degree + 1: nothing is ever lodged.
    use ParamValue::*;
    let m = ScoredSequence
        .prepare(&values(&[
            ("pc.rating", Int(10)),
            ("pc.defensive_response", Str("always".into())),
            ("opponent.defensive_response", Str("always".into())),
            ("max_rounds", Int(7)),
        ]))
        .unwrap();
    let exact = m.exact().unwrap();
    assert_eq!(exact.field(0)[&sequence::DRAW], 1.0);
    assert_eq!(exact.field(1)[&7], 1.0);
    assert_agrees(m.as_ref(), Sample::seed(11).config(99), "stalemate");
}

#[test]
fn monte_carlo_agrees_with_exact_on_20_configs() {
    let policies = ["never", "always", "when-behind"];
    let ratings = [
        ("10", "10"),
        ("15", "10"),
        ("5M", "10"),
        ("1", "20"),
        ("4M2", "10M"),
        ("17", "2M"),
        ("20M", "1M"),
    ];
    let mut n = 0;
    for (i, (pc, opp)) in ratings.iter().enumerate() {
        for j in 0..3 {
            let (g, d) = (policies[(i + j) % 3], policies[(i + 2 * j) % 3]);
            let og = policies[(j + 1) % 3];
            // Two defensive responses can stall a sequence until the
            // stalemate (tested above): keep these configs moving.
            let od = if d == "always" {
                "never"
            } else {
                policies[j % 3]
            };
            let pairs = [
                ("pc.rating", ParamValue::Str(pc.to_string())),
                ("opponent.rating", ParamValue::Str(opp.to_string())),
                ("pc.risky_gambit", ParamValue::Str(g.into())),
                ("pc.defensive_response", ParamValue::Str(d.into())),
                ("opponent.risky_gambit", ParamValue::Str(og.into())),
                ("opponent.defensive_response", ParamValue::Str(od.into())),
            ];
            let m = ScoredSequence.prepare(&values(&pairs)).unwrap();
            assert_agrees(
                m.as_ref(),
                Sample::seed(11).config(n),
                &format!("{pairs:?}"),
            );
            n += 1;
        }
    }
    assert!(n >= 20);
}

/// The chain is the walk of every path of rolls. Uncapped: a sure win
/// (every round a victory of degree 0 or 1) ends in two or three
/// rounds; 20 against 4 is over within 9 rounds but for 2·10^-9.
/// Capped at 5 rounds (12 rolls with the shots): 15 against 10 with a
/// gamble when behind, a defence always and parting shots both ways.
/// Each round branches over the contest's outcomes, so the walks are
/// kept under a third of a second.
#[test]
fn the_chain_is_the_enumeration() {
    let sure = Scored::new(
        sequence::matchup(Rating(20), Rating(0)),
        Tactics::NONE,
        Tactics::NONE,
    );
    let (_, lost) = assert_chain_is_enumeration(&sure, 6, 6, "sure win");
    assert_eq!(lost, 0.0, "a sure win is over in three rounds");
    let lopsided = Scored::new(
        sequence::matchup(Rating(20), Rating(4)),
        Tactics::NONE,
        Tactics::NONE,
    );
    assert_chain_is_enumeration(&lopsided, 6, 9, "20 against 4");
    use ParamValue::*;
    let capped = ScoredSequence
        .trial(&values(&[
            ("pc.rating", Int(15)),
            ("opponent.rating", Int(10)),
            ("pc.risky_gambit", Str("when-behind".into())),
            ("opponent.defensive_response", Str("always".into())),
            ("pc.parting_shot", Str("always".into())),
            ("opponent.parting_shot", Str("always".into())),
            ("max_rounds", Int(5)),
        ]))
        .unwrap();
    let lost = assert_capped_is_enumeration(&capped, 12, "capped at 5");
    assert_eq!(lost, 0.0, "three rounds and their shots");
}
