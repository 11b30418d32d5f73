//! QuestWorlds SRD: the worked examples of contests (§2), group contests
//! (§4) and sequences (§5).

use crate::fixed;
use oddsmith::model::After;
use oddsmith::systems::questworlds::chained::{Chained, PENALTY_PER_POINT, Trade};
use oddsmith::systems::questworlds::contest::{Contest, Opposition};
use oddsmith::systems::questworlds::scored::{Tactic, lodged};
use oddsmith::systems::questworlds::sequence::{OPPONENT, PC};
use oddsmith::systems::questworlds::wagered::WageredSequence;
use oddsmith::systems::questworlds::{Augment, Exchange, Matchup, Rating, Verdict};
use oddsmith::systems::{Define, ParamMap, ParamValue};

fn r(s: &str) -> Rating {
    s.parse().unwrap()
}

fn s(v: &str) -> ParamValue {
    ParamValue::Str(v.into())
}

/// QuestWorlds SRD §2.1.1.1 Breakouts: "Detective 15, Deduction +5 … for
/// contests involving Deduction it would be 20." A breakout is the
/// keyword's rating plus its bonus: `pc.rating` 15 with `pc.modifier` +5.
#[test]
fn questworlds_2_1_1_1_breakout_detective_15_deduction_20() {
    let deduction = Contest
        .trial(&ParamMap::from_pairs(&[
            ("pc.rating", ParamValue::Int(15)),
            ("pc.modifier", ParamValue::Int(5)),
        ]))
        .unwrap();
    assert_eq!(deduction.pc, Rating(20));
    // A 20 on the die: a big success for Deduction, a failure for plain
    // Detective.
    assert_eq!(fixed::questworlds_roll(deduction.pc, 20).successes, 2);
    assert_eq!(fixed::questworlds_roll(Rating(15), 20).successes, 0);
}

/// QuestWorlds SRD §2.1.3 Ratings and Masteries: "7M represents a TN of 7
/// and one mastery … 4M2 represents a TN of 4 and two masteries."
#[test]
fn questworlds_2_1_3_ratings_7m_and_4m2() {
    let seven_m = r("7M");
    assert_eq!((seven_m.target(), seven_m.masteries()), (Some(7), 1));
    assert_eq!(seven_m, Rating(27));
    let four_m2 = r("4M2");
    assert_eq!((four_m2.target(), four_m2.masteries()), (Some(4), 2));
    assert_eq!(four_m2, Rating(44));
    assert_eq!(
        (seven_m.to_string(), four_m2.to_string()),
        ("7M".into(), "4M2".into())
    );
}

/// QuestWorlds SRD §2.3.3.1 Resistances Table, from the base resistance
/// of 10: straightforward 5, challenging 15, hard 20, punishing 5M,
/// exceptional 10M; simple, easy and routine come to 0 or less, an
/// assured contest.
#[test]
fn questworlds_2_3_3_1_resistance_table() {
    let resistance = |level: &str| {
        let c = Contest
            .trial(&ParamMap::from_pairs(&[("resistance.level", s(level))]))
            .unwrap();
        match c.opposition {
            Opposition::Resistance(r) => r,
            other => panic!("{other:?}"),
        }
    };
    for (level, tn) in [
        ("straightforward", "5"),
        ("base", "10"),
        ("challenging", "15"),
        ("hard", "20"),
        ("punishing", "5M"),
        ("exceptional", "10M"),
    ] {
        assert_eq!(resistance(level).to_string(), tn, "{level}");
    }
    for level in ["simple", "easy", "routine"] {
        let res = resistance(level);
        assert!(res.tn() <= 0, "{level}");
        assert!(
            Matchup::against_resistance(Rating(10), res).assured,
            "{level}"
        );
    }
}

/// QuestWorlds SRD §2.3.6 Additional Successes: "If a PC with a mastery
/// rolls a big success they receive an additional success for the mastery
/// and two successes for the big success, making a total of three."
#[test]
fn questworlds_2_3_6_mastery_and_big_success_make_three() {
    let roll = fixed::questworlds_roll(r("10M"), 10);
    assert!(roll.big);
    assert_eq!(roll.successes, 3);
}

/// QuestWorlds SRD §2.3.7.1 Degrees of Victory: two successes against zero
/// is "two degrees of victory"; zero against one, "one degree of defeat";
/// one against one, "zero degrees and victory belongs to the high roll".
#[test]
fn questworlds_2_3_7_1_degrees_of_victory() {
    let m = Matchup::against_resistance(Rating(10), Rating(10));
    // 10 on a TN of 10 is a big success (2); 15 fails (0).
    let ex = fixed::questworlds(&m, 10, 15);
    assert_eq!((ex.verdict, ex.degree), (Verdict::Victory, 2));
    // 15 fails (0); 5 succeeds (1).
    let ex = fixed::questworlds(&m, 15, 5);
    assert_eq!((ex.verdict, ex.degree), (Verdict::Defeat, 1));
    // 8 and 4 both succeed: the higher roll, the PC's 8, wins.
    let ex = fixed::questworlds(&m, 8, 4);
    assert_eq!((ex.verdict, ex.degree), (Verdict::Victory, 0));
    let ex = fixed::questworlds(&m, 4, 8);
    assert_eq!((ex.verdict, ex.degree), (Verdict::Defeat, 0));
}

/// QuestWorlds SRD §2.3.7.2 Narrating Outcomes, the chase of Ath'Zul: "PC
/// one success vs. Ath'Zul one success, the PC has the higher roll … zero
/// degrees of victory"; one against zero, "one degree of victory"; two
/// against zero, "two degrees of victory".
#[test]
fn questworlds_2_3_7_2_athzul_chase_outcomes() {
    let chase = Matchup::against_character(Rating(15), Rating(12));
    let outcome = |pc, athzul| {
        let ex: Exchange = fixed::questworlds(&chase, pc, athzul);
        (ex.verdict, ex.degree)
    };
    assert_eq!(outcome(11, 6), (Verdict::Victory, 0));
    assert_eq!(outcome(11, 18), (Verdict::Victory, 1));
    assert_eq!(outcome(15, 18), (Verdict::Victory, 2));
}

/// QuestWorlds SRD §2.6.1 Augment Procedure: "zero degrees of victory
/// yields +5 bonus. On a defeat still award a +5 bonus". The augment is a
/// contest against the base resistance.
#[test]
fn questworlds_2_6_1_augment_zero_degrees_gives_5() {
    let augment = Matchup::against_resistance(Rating(15), Rating(10));
    // Both succeed, the augment's 12 beats the resistance's 3: zero degrees.
    let zero = fixed::questworlds(&augment, 12, 3);
    assert_eq!((zero.verdict, zero.degree), (Verdict::Victory, 0));
    assert_eq!(Augment::bonus_for(&zero), 5);
    // A defeat (18 fails, 3 succeeds) still gives +5.
    let lost = fixed::questworlds(&augment, 18, 3);
    assert_eq!(lost.verdict, Verdict::Defeat);
    assert_eq!(Augment::bonus_for(&lost), 5);
    // One degree of victory gives +10 (the progression the text applies).
    let one = fixed::questworlds(&augment, 12, 18);
    assert_eq!(Augment::bonus_for(&one), 10);
}

/// QuestWorlds SRD §5.2.1 Resolution Points: "a zero degree outcome
/// produces one resolution point, a one degree outcome produces two", and
/// Table 5.2.1.1 on to degree 4, five points.
#[test]
fn questworlds_5_2_1_resolution_points_are_degree_plus_one() {
    let plain = |degree| lodged(degree, Tactic::Plain, Tactic::Plain);
    assert_eq!([0, 1, 2, 3, 4].map(plain), [1, 2, 3, 4, 5]);
}

/// QuestWorlds SRD §5.3.1.1 Starting AP Totals: "a TN of 15 is 15APs …
/// a TN of 5M is 25APs". A PC may stake up to its starting AP.
#[test]
fn questworlds_5_3_1_1_starting_ap_are_the_tn() {
    let wagered = |rating: &str, wager: i64| {
        WageredSequence.trial(&ParamMap::from_pairs(&[
            ("pc.rating", s(rating)),
            ("pc.wager", ParamValue::Int(wager)),
        ]))
    };
    for (rating, ap) in [("15", 15), ("5M", 25)] {
        assert!(wagered(rating, ap).is_ok(), "{rating}: {ap} AP to stake");
        let err = wagered(rating, ap + 1).err().expect("one AP too many");
        assert_eq!(err.key, "pc.wager");
        assert!(
            err.message.contains(&format!("starting AP ({ap})")),
            "{}",
            err.message
        );
    }
}

/// QuestWorlds SRD §5.4.3.1 Exchange Resolve for Consequences: "Instead of
/// marking 1 point of resolve, the GM offers a penalty −5 … 4 points …
/// −20. You can't buy off 5 points of resolve, instead your resolve is
/// immediately reduced to zero and you yield."
#[test]
fn questworlds_5_4_3_1_resolve_traded_for_consequences() {
    // A PC (resolve 5) at 5M, who always trades, against a mook (resolve 1).
    let chained = Chained::new(r("5M"), Rating(10), 5, 1, Trade::Always);
    let ex = |verdict, degree| Exchange {
        verdict,
        degree,
        pc_successes: 0,
        story_points: 0,
        victor_big: false,
    };
    // Lose a round of degree d (d + 1 resolve), trade it, then win: the
    // consequence the sequence ends with.
    let consequence = |degree: i64| {
        let after = match chained.after(1, &(5, 1, 0), &ex(Verdict::Defeat, degree)) {
            After::Round(state) => state,
            other => panic!("degree {degree}: {other:?}"),
        };
        assert_eq!(after.0, 5, "no resolve marked");
        match chained.after(2, &after, &ex(Verdict::Victory, 0)) {
            After::End(fields) => {
                assert_eq!(fields[0], PC);
                fields[5]
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!([0, 1, 2, 3].map(consequence), [-5, -10, -15, -20]);
    assert_eq!(PENALTY_PER_POINT, 5);
    // Five points cannot be bought off: resolve 0, the PC yields.
    match chained.after(1, &(5, 1, 0), &ex(Verdict::Defeat, 4)) {
        After::End(fields) => {
            assert_eq!(fields[0], OPPONENT);
            assert_eq!(fields[3], 0, "the PC's resolve");
        }
        other => panic!("{other:?}"),
    }
}
