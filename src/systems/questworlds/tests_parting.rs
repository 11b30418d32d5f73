//! Parting shots and augments in the three sequences (rules §4.5):
//! hand-worked rounds through each sequence's one `after`, the exact
//! chains against Monte Carlo, and augments against their equivalents.

use super::Rating;
use super::chained::{Chained, ChainedSequence, Trade};
use super::parting::{self, PartingShots, Phased, Shooter, Shot};
use super::scored::{Scored, ScoredSequence, Tactics};
use super::sequence::testing::values;
use super::sequence::{self, OPPONENT, PC};
use super::wagered::{Desperation, Leader, Wagered, WageredSequence, WageredState};
use super::{Exchange, Verdict};
use crate::model::{After, Rounds};
use crate::systems::testing::{Sample, assert_agrees};
use crate::systems::{Mechanic, ParamValue};
use ParamValue::{Int, Str, Table};

fn ex(verdict: Verdict, degree: i64) -> Exchange {
    Exchange {
        verdict,
        degree,
        pc_successes: 0,
        story_points: 0,
        victor_big: false,
    }
}

fn always_pc() -> PartingShots {
    PartingShots {
        pc: parting::parse(&Str("always".into())).unwrap(),
        opponent: parting::never(),
    }
}

fn ahead_by(n: i64) -> ParamValue {
    Table(vec![("when_ahead_by".into(), Int(n))])
}

#[test]
fn scored_parting_shot_worsens_or_is_reversed() {
    let s = Scored::new(
        sequence::matchup(Rating(10), Rating(10)),
        Tactics::NONE,
        Tactics::NONE,
    )
    .with_parting_shots(always_pc());
    // 3 RP against the opponent, a victory of degree 1 lodges 2: out at 5,
    // and the PC shoots; the round that removed it lodged 2.
    let start = Phased::start((0, 3));
    let shot = Phased {
        state: (0, 5),
        shot: Some(Shot {
            by: Shooter::Pc,
            removed_by: 2,
        }),
        reversed: false,
    };
    assert_eq!(
        Rounds::after(&s, 4, &start, &ex(Verdict::Victory, 1)),
        After::Roll(shot)
    );
    // The shot wins at degree 0: one more RP, 6 − 0 → final degree 2.
    assert_eq!(
        Rounds::after(&s, 4, &shot, &ex(Verdict::Victory, 0)),
        After::End([PC, 4, 2, 0, 6, parting::WORSENED].into())
    );
    // A tie changes nothing: the opponent stays out.
    assert_eq!(
        Rounds::after(&s, 4, &shot, &ex(Verdict::Tie, 0)),
        After::End([PC, 4, 2, 0, 5, parting::HELD].into())
    );
    // Lost at degree 0: the opponent takes 1 back, 4 < 5, it returns.
    let back = Phased {
        state: (0, 4),
        shot: None,
        reversed: true,
    };
    assert_eq!(
        Rounds::after(&s, 4, &shot, &ex(Verdict::Defeat, 0)),
        After::Round(back)
    );
    // Lost at degree 3: it would score 4 but takes back only the 2 that
    // removed it.
    assert_eq!(
        Rounds::after(&s, 4, &shot, &ex(Verdict::Defeat, 3)),
        After::Round(Phased {
            state: (0, 3),
            ..back
        })
    );
    // A later end remembers the reversal.
    assert_eq!(
        Rounds::after(&s, 7, &back, &ex(Verdict::Defeat, 4)),
        After::End([OPPONENT, 7, 0, 5, 4, parting::REVERSED].into())
    );
}

#[test]
fn scored_parting_shot_only_when_ahead_enough() {
    let mut shots = PartingShots::none();
    shots.pc = parting::parse(&ahead_by(4)).unwrap();
    let s = Scored::new(
        sequence::matchup(Rating(10), Rating(10)),
        Tactics::NONE,
        Tactics::NONE,
    )
    .with_parting_shots(shots);
    // 2 against the PC, 5 against the opponent: ahead by 3, no shot.
    assert_eq!(
        Rounds::after(&s, 3, &Phased::start((2, 3)), &ex(Verdict::Victory, 1)),
        After::End([PC, 3, 1, 2, 5, parting::NONE].into())
    );
    // 1 against the PC, 5 against the opponent: ahead by 4, a shot.
    assert!(matches!(
        Rounds::after(&s, 3, &Phased::start((1, 3)), &ex(Verdict::Victory, 1)),
        After::Roll(Phased { shot: Some(_), .. })
    ));
}

#[test]
fn chained_parting_shot_takes_back_at_most_the_last_loss() {
    let c =
        Chained::new(Rating(15), Rating(10), 5, 3, Trade::Never).with_parting_shots(always_pc());
    // The named NPC at 1 loses 2: out at −1, and the PC shoots.
    let shot = Phased {
        state: (5, -1, 0),
        shot: Some(Shot {
            by: Shooter::Pc,
            removed_by: 2,
        }),
        reversed: false,
    };
    assert_eq!(
        Rounds::after(&c, 2, &Phased::start((5, 1, 0)), &ex(Verdict::Victory, 1)),
        After::Roll(shot)
    );
    // Won at degree 1: 2 more lost, 6 in all → degree 3.
    assert_eq!(
        Rounds::after(&c, 2, &shot, &ex(Verdict::Victory, 1)),
        After::End([PC, 2, 3, 5, -3, 0, parting::WORSENED].into())
    );
    // Lost at degree 0: 1 back, at 0 still out (3 lost → degree 1).
    assert_eq!(
        Rounds::after(&c, 2, &shot, &ex(Verdict::Defeat, 0)),
        After::End([PC, 2, 1, 5, 0, 0, parting::HELD].into())
    );
    // Lost at degree 2: 3 would come back, only the 2 that removed it do.
    assert_eq!(
        Rounds::after(&c, 2, &shot, &ex(Verdict::Defeat, 2)),
        After::Round(Phased {
            state: (5, 1, 0),
            shot: None,
            reversed: true,
        })
    );
}

#[test]
fn wagered_reversal_gives_the_loser_its_exchange() {
    let w = Wagered::new(
        sequence::matchup(Rating(10), Rating(10)),
        3,
        3,
        Desperation::Keep,
    )
    .with_parting_shots(always_pc());
    // The GM has 2 AP and stakes 2, so the PC's exchange (3) comes first:
    // a zero-degree victory costs it ⌈3/2⌉ = 2, out at 0.
    let shot = Phased {
        state: WageredState::Round((10, 0)),
        shot: Some(Shot {
            by: Shooter::Pc,
            removed_by: 2,
        }),
        reversed: false,
    };
    assert_eq!(
        Rounds::after(
            &w,
            1,
            &Phased::start(WageredState::Round((10, 2))),
            &ex(Verdict::Victory, 0)
        ),
        After::Roll(shot)
    );
    // The shot is lost at degree 1: it would cost the PC 3, the GM takes
    // back the 2 it lost, and at 2 AP leads its own exchange (stake 2),
    // in which no second parting shot can come.
    assert_eq!(
        Rounds::after(&w, 1, &shot, &ex(Verdict::Defeat, 1)),
        After::Roll(Phased {
            state: WageredState::Returned {
                ap: (10, 2),
                second: (Leader::Opponent, 2),
            },
            shot: None,
            reversed: true,
        })
    );
    // Won at degree 2: 6 more lost, at −6 (degree 0).
    assert_eq!(
        Rounds::after(&w, 1, &shot, &ex(Verdict::Victory, 2)),
        After::End([PC, 1, 0, 10, -6, parting::WORSENED].into())
    );
}

#[test]
fn never_is_the_default_and_reports_none() {
    let mechanics: [&dyn Mechanic; 3] = [&ScoredSequence, &WageredSequence, &ChainedSequence];
    for m in mechanics {
        let plain = m.prepare(&values(&[("pc.rating", Int(14))])).unwrap();
        let never = m
            .prepare(&values(&[
                ("pc.rating", Int(14)),
                ("pc.parting_shot", Str("never".into())),
                ("opponent.parting_shot", Str("never".into())),
            ]))
            .unwrap();
        let exact = plain.exact().unwrap();
        assert_eq!(exact, never.exact().unwrap(), "{}", m.name());
        let field = exact.len() - 1;
        assert_eq!(plain.schema().fields[field].name, "parting_shot");
        let none = exact.field(field)[&parting::NONE];
        assert!((none - 1.0).abs() < 1e-9, "{}: {none}", m.name());
    }
}

#[test]
fn a_sure_parting_shot_always_worsens() {
    // Against a resistance of 0 every contest is a PC victory.
    for m in [&ScoredSequence as &dyn Mechanic, &ChainedSequence] {
        let model = m
            .prepare(&values(&[
                ("pc.rating", Int(12)),
                ("resistance.rating", Int(0)),
                ("pc.parting_shot", Str("always".into())),
            ]))
            .unwrap();
        let exact = model.exact().unwrap();
        let f = exact.len() - 1;
        assert!((exact.field(f)[&parting::WORSENED] - 1.0).abs() < 1e-12);
    }
}

#[test]
fn parting_shots_change_the_odds_as_expected() {
    // A PC that shoots back at a character of its own rating: the
    // reversal can only help the loser, so the shooter wins less often.
    for m in [
        &ScoredSequence as &dyn Mechanic,
        &WageredSequence,
        &ChainedSequence,
    ] {
        let p = |shot: &str| {
            let model = m
                .prepare(&values(&[
                    ("pc.rating", Int(12)),
                    ("opponent.rating", Int(12)),
                    ("pc.parting_shot", Str(shot.into())),
                ]))
                .unwrap();
            sequence::testing::p_victory(model.as_ref())
        };
        let (never, always) = (p("never"), p("always"));
        assert!(always < never, "{}: {always} ≥ {never}", m.name());
    }
}

/// rules §4.5: the augment stays in effect for the whole sequence. An
/// assured +5 is a +5 modifier; a rolled one is the mixture of its bonuses.
#[test]
fn augments_last_the_whole_sequence() {
    let mechanics: [&dyn Mechanic; 3] = [&ScoredSequence, &WageredSequence, &ChainedSequence];
    for m in mechanics {
        let solve =
            |pairs: &[(&str, ParamValue)]| m.prepare(&values(pairs)).unwrap().exact().unwrap();
        let pc = ("pc.rating", Int(12));
        assert_eq!(
            solve(&[pc.clone(), ("pc.augment", Int(5))]),
            solve(&[pc.clone(), ("pc.modifier", Int(5))]),
            "{}",
            m.name()
        );
        let rolled = Table(vec![("rating".into(), Str("15".into()))]);
        let mixed = solve(&[pc.clone(), ("pc.augment", rolled)]);
        let p_mixed = mixed.field(0)[&PC];
        let by_bonus: f64 = super::Augment::Rolled(Rating(15))
            .bonuses(Rating(10))
            .into_iter()
            .map(|(b, p)| p * solve(&[pc.clone(), ("pc.modifier", Int(b))]).field(0)[&PC])
            .sum();
        assert!(
            (p_mixed - by_bonus).abs() < 1e-9,
            "{}: {p_mixed} vs {by_bonus}",
            m.name()
        );
        let plain = solve(std::slice::from_ref(&pc)).field(0)[&PC];
        assert!(p_mixed > plain, "{}", m.name());
    }
}

/// The chains with parting shots (and augments) against Monte Carlo:
/// 21 configs over the three sequence types.
#[test]
fn parting_shot_chains_agree_with_monte_carlo() {
    let shots = [
        Str("always".into()),
        ahead_by(2),
        Str("never".into()),
        ahead_by(0),
    ];
    let pairs_of = |i: usize| -> Vec<(&'static str, ParamValue)> {
        let ratings = [
            ("10", "10"),
            ("15", "12"),
            ("1M", "18"),
            ("12", "13"),
            ("17", "2M"),
            ("8", "10"),
            ("2M", "1M5"),
        ];
        let (pc, opp) = ratings[i % ratings.len()];
        let mut pairs = vec![
            ("pc.rating", Str(pc.into())),
            ("opponent.rating", Str(opp.into())),
            ("pc.parting_shot", shots[i % 4].clone()),
            ("opponent.parting_shot", shots[(i + 1) % 4].clone()),
        ];
        if i % 3 == 1 {
            pairs.push(("pc.augment", Table(vec![("rating".into(), Int(14))])));
        }
        pairs
    };
    let mut n = 0;
    for i in 0..7 {
        let pairs = pairs_of(i);
        let scored = ScoredSequence.prepare(&values(&pairs)).unwrap();
        assert_agrees(
            scored.as_ref(),
            Sample::seed(15).config(n),
            &format!("scored {pairs:?}"),
        );
        // Wagered chains count AP pairs: keep the TNs small.
        let mut w = pairs.clone();
        let small = [
            (10, 10),
            (15, 12),
            (14, 18),
            (12, 13),
            (11, 12),
            (8, 10),
            (20, 16),
        ][i];
        w[0].1 = Int(small.0);
        w[1].1 = Int(small.1);
        w.push(("pc.wager", Int([3, 5, 4][i % 3])));
        w.push(("opponent.wager", Int([3, 4, 6][i % 3])));
        let wagered = WageredSequence.prepare(&values(&w)).unwrap();
        assert_agrees(
            wagered.as_ref(),
            Sample::seed(15).config(n + 1),
            &format!("wagered {w:?}"),
        );
        let mut c = pairs.clone();
        c.push((
            "opponent.resolve",
            Str(["named", "pc", "mook"][i % 3].into()),
        ));
        c.push((
            "pc.trade",
            Str(["never", "when-it-saves", "always"][i % 3].into()),
        ));
        let chained = ChainedSequence.prepare(&values(&c)).unwrap();
        assert_agrees(
            chained.as_ref(),
            Sample::seed(15).config(n + 2),
            &format!("chained {c:?}"),
        );
        n += 3;
    }
    assert!(n >= 20);
}
