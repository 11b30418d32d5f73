//! Tests of `questworlds.group_sequence`: one PC against one opponent is
//! the plain sequence (Monte Carlo against the plain exact solvers), and
//! hand-worked rounds with scripted dice for assists, AP transfers,
//! secondary followers and second chances.

use std::collections::VecDeque;

use super::fight::{Dice, Fight, Group, OPPONENTS, PCS, Rolled};
use super::*;
use crate::model::Marginals;
use crate::systems::ParamValue::{self, Bool, Int, List, Str};
use crate::systems::questworlds::chained::ChainedSequence;
use crate::systems::questworlds::scored::ScoredSequence;
use crate::systems::questworlds::sequence::{self, testing::ex};
use crate::systems::questworlds::wagered::WageredSequence;
use crate::systems::questworlds::{Exchange, Matchup, Verdict};
use crate::systems::testing::{Sample, assert_agrees_with};
use crate::systems::{Mechanic, ParamMap};

fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
    ParamMap::from_pairs(pairs)
}

use crate::systems::testing::table as t;

fn group(pairs: &[(&str, ParamValue)]) -> Group {
    GroupSequence.trial(&values(pairs)).unwrap().0
}

/// Dice that give scripted results and remember every matchup rolled.
struct Script {
    results: VecDeque<Exchange>,
    seen: Vec<Matchup>,
}

impl Script {
    fn new(results: &[Exchange]) -> Script {
        Script {
            results: results.iter().copied().collect(),
            seen: Vec::new(),
        }
    }

    /// The (PC side, other side) TNs of the contests rolled so far.
    fn tns(&self) -> Vec<(i64, i64)> {
        self.seen
            .iter()
            .map(|m| (m.pc.tn(), m.opponent.tn()))
            .collect()
    }
}

impl Dice for Script {
    fn contest(&mut self, m: Matchup) -> Exchange {
        self.seen.push(m);
        self.results
            .pop_front()
            .expect("a contest the script did not plan")
    }
}

const WIN: Verdict = Verdict::Victory;
const LOSE: Verdict = Verdict::Defeat;
const TIE: Verdict = Verdict::Tie;

/// A plain sequence's exact law, read as a group sequence's outcome of
/// one PC against one opponent: the same winner and rounds; the PC out
/// when its tally (field 3) is past the limit, the opponent likewise
/// (field 4); no follower, no assist.
fn as_group(plain: &Marginals, out: impl Fn(i64) -> bool) -> Marginals {
    let mut g = Marginals::new(6);
    for (&v, &p) in plain.field(0) {
        g.add(0, v, p);
    }
    for (&v, &p) in plain.field(1) {
        g.add(1, v, p);
    }
    for (f, from) in [(2, 3), (3, 4)] {
        for (&v, &p) in plain.field(from) {
            g.add(f, i64::from(out(v)), p);
        }
    }
    g.add(4, 0, 1.0);
    g.add(5, 0, 1.0);
    g
}

/// Whether a final tally (field 3 or 4 of a plain sequence) is out.
type OutAt = fn(i64) -> bool;

/// rules §4.6: a group of one PC against one opponent is the plain
/// sequence. The plain winner labels (pc, opponent, draw) are the group's
/// (pcs, opponents, draw) in the same order.
#[test]
fn one_pc_against_one_opponent_is_the_plain_sequence() {
    assert_eq!((PCS, OPPONENTS), (sequence::PC, sequence::OPPONENT));
    let cases: [(&str, &dyn Mechanic, OutAt); 3] = [
        ("scored", &ScoredSequence, |rp| rp >= RP_TO_LOSE),
        ("wagered", &WageredSequence, |ap| ap <= 0),
        ("chained", &ChainedSequence, |resolve| resolve <= 0),
    ];
    for (i, (kind, plain, out)) in cases.into_iter().enumerate() {
        for (j, (pc, opp)) in [("15", "10"), ("5M", "1M")].into_iter().enumerate() {
            let exact = plain
                .prepare(&values(&[
                    ("pc.rating", Str(pc.into())),
                    ("opponent.rating", Str(opp.into())),
                ]))
                .unwrap()
                .exact()
                .unwrap();
            let model = GroupSequence
                .prepare(&values(&[
                    ("type", Str(kind.into())),
                    ("pcs", Str(pc.into())),
                    ("opponents", Str(opp.into())),
                ]))
                .unwrap();
            let what = format!("{kind}: {pc} against {opp}");
            let z = assert_agrees_with(
                model.as_ref(),
                &as_group(&exact, out),
                Sample::seed(15).config(2 * i + j),
                &what,
            );
            eprintln!("{what}: worst |z| {z:.2}");
        }
    }
}

/// Two PCs (15) against one opponent (10), scored: B finds no free
/// opponent and assists A.
fn two_against_one(kind: &str, assist: ParamValue) -> Group {
    group(&[
        ("type", Str(kind.into())),
        ("pcs", Str("15 15".into())),
        ("opponents", Str("10".into())),
        ("assist", assist),
    ])
}

#[test]
fn an_assist_removes_rp_and_the_next_faces_5_more() {
    let g = two_against_one("scored", Str("always".into()));
    let mut d = Script::new(&[
        ex(WIN, 1, false),  // B's assist: victory of degree 1 removes 2 RP
        ex(TIE, 0, false),  // A against the opponent: nothing changes
        ex(LOSE, 0, false), // B's second assist fails: 1 RP more
        ex(WIN, 0, false),  // A lodges 1 RP
    ]);
    let mut f = g.start(&mut d);
    f.tally[0] = 3;
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(f.pairs, [(0, 2)], "A pairs with the opponent, B assists");
    assert_eq!((f.tally[0], f.assists), (1, 1));
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!((f.tally[0], f.tally[2], f.assists), (2, 1, 2));
    // The first assist faced the base resistance, the second 5 more.
    assert_eq!(d.tns(), [(15, 10), (15, 10), (15, 15), (15, 10)]);
    // An assist never takes RP below 0.
    let mut d = Script::new(&[ex(WIN, 3, false), ex(TIE, 0, false)]);
    let mut f = g.start(&mut d);
    f.tally[0] = 2;
    g.round(&mut f, &mut d);
    assert_eq!(f.tally[0], 0);
}

#[test]
fn a_wagered_assist_transfers_ap_and_a_big_success_takes_them() {
    let rules = List(vec![t(&[("assist", Bool(true)), ("ap", Int(5))])]);
    let g = two_against_one("wagered", rules);
    let mut d = Script::new(&[
        ex(WIN, 0, false),  // B's assist against resistance 5: A gains 5
        ex(WIN, 0, false),  // A's exchange (wager 3): zero degree, the opponent loses 2
        ex(WIN, 1, true), // the opponent's exchange: A wins by 1 with a big success, 3 AP move to A
        ex(LOSE, 0, false), // the next assist fails: B's 5 AP are gone all the same
        ex(TIE, 0, false), // both lose 2
        ex(TIE, 0, false), // both lose 2
    ]);
    let mut f = g.start(&mut d);
    assert_eq!(f.tally, [15, 15, 10]);
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(f.tally, [15 + 5 + 3, 15 - 5, 10 - 2 - 3]);
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(f.tally, [23 - 4, 10 - 5, 5 - 4]);
    assert_eq!(d.tns()[0], (15, 5), "the assist faces the AP it transfers");
    // B has 5 AP: it cannot spare 5 more, so it joins the opponent.
    g.pair_off(&mut f);
    assert_eq!(f.pairs, [(0, 2), (1, 2)]);
}

#[test]
fn a_chained_secondary_follower_augments_then_absorbs_a_defeat() {
    let pc = t(&[
        ("rating", Int(15)),
        ("resolve", Int(3)),
        (
            "followers",
            List(vec![t(&[
                ("rating", Int(15)),
                ("role", Str("secondary".into())),
            ])]),
        ),
    ]);
    let g = group(&[
        ("type", Str("chained".into())),
        ("pcs", List(vec![pc])),
        ("opponents", Str("20".into())),
    ]);
    let mut d = Script::new(&[
        ex(WIN, 1, false),  // the follower's augment: victory of degree 1, +10
        ex(LOSE, 0, false), // loses 1 resolve: 3 → 2, not absorbed (it does not save)
        ex(LOSE, 1, false), // would lose 2 → 0: the follower absorbs it and leaves
        ex(WIN, 0, false),  // without the augment: the opponent loses 1
    ]);
    let mut f = g.start(&mut d);
    assert_eq!(f.bonus[1], 10);
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!((f.tally[0], f.out[1]), (2, false));
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!((f.tally[0], f.out[1], f.lost), (2, true, 1));
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(f.tally[2], 2);
    assert_eq!(d.tns(), [(15, 10), (25, 20), (25, 20), (15, 20)]);
}

#[test]
fn a_scored_secondary_follower_takes_rp_to_keep_its_pc_in() {
    let pc = t(&[
        ("rating", Int(15)),
        (
            "followers",
            List(vec![t(&[
                ("rating", Int(12)),
                ("role", Str("secondary".into())),
            ])]),
        ),
    ]);
    let g = group(&[("pcs", List(vec![pc])), ("opponents", Str("10".into()))]);
    let mut d = Script::new(&[ex(LOSE, 2, false), ex(LOSE, 2, false)]);
    let mut f = g.start(&mut d);
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(f.tally[..2], [3, 0], "3 RP: the PC stays in on its own");
    // 3 more would make 6: two move to the follower, the PC stays at 4.
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!((f.tally[0], f.tally[1], f.out[1]), (4, 2, false));
}

#[test]
fn a_second_chance_brings_a_pc_back_at_a_quarter_of_its_ap() {
    let g = group(&[
        ("type", Str("wagered".into())),
        ("pcs", Str("15 15".into())),
        ("opponents", Str("20 10".into())),
    ]);
    let mut d = Script::new(&[
        ex(LOSE, 1, false), // A (2 AP) leads with 3: loses 3, at −1: out
        ex(TIE, 0, false),  // B against the second opponent: both lose 2
        ex(TIE, 0, false),  // and 2 more
        ex(WIN, 0, false),  // A's second chance against resistance 1
    ]);
    let mut f = g.start(&mut d);
    f.tally[0] = 2;
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(d.tns()[3], (15, 1), "the resistance is how far below 0");
    assert!(!f.out[0]);
    assert_eq!(f.tally[..2], [4, 11], "⌈15 / 4⌉ = 4");
    assert_eq!(g.tn(&f, 0).tn(), 9, "−6 for the rest of the sequence");
    assert!(f.chance_used[0]);
    // Back, A pairs with the opponent now free.
    g.pair_off(&mut f);
    assert_eq!(f.pairs, [(1, 3), (0, 2)]);
    // Out again, there is no second second chance.
    let mut d = Script::new(&[ex(LOSE, 2, false), ex(TIE, 0, false), ex(TIE, 0, false)]);
    let mut again: Fight = f.clone();
    again.pairs.clear();
    assert_eq!(g.round(&mut again, &mut d), None);
    assert!(again.out[0] && d.results.is_empty());
}

#[test]
fn no_second_chance_when_the_last_pc_falls_or_when_it_is_off() {
    let g = group(&[
        ("type", Str("wagered".into())),
        ("pcs", Str("15 15".into())),
        ("opponents", Str("20 10".into())),
        ("second_chance", Bool(false)),
    ]);
    let mut d = Script::new(&[ex(LOSE, 1, false), ex(TIE, 0, false), ex(TIE, 0, false)]);
    let mut f = g.start(&mut d);
    f.tally[0] = 2;
    assert_eq!(g.round(&mut f, &mut d), None);
    assert!(f.out[0] && d.results.is_empty());
}

#[test]
fn mooks_beyond_the_party_join_in_roster_order() {
    let g = group(&[
        ("pcs", Str("15 15".into())),
        (
            "opponents",
            List(vec![
                t(&[("rating", Int(18)), ("kind", Str("named".into()))]),
                t(&[
                    ("rating", Int(12)),
                    ("kind", Str("mook".into())),
                    ("count", Int(3)),
                ]),
            ]),
        ),
    ]);
    let mut d = Script::new(&[]);
    let mut f = g.start(&mut d);
    g.pair_off(&mut f);
    // PC 0 takes the named NPC, PC 1 the first mook; the other mooks
    // join the PC with the fewest pairings.
    assert_eq!(f.pairs, [(0, 2), (1, 3), (0, 4), (1, 5)]);
}

#[test]
fn a_party_with_followers_and_assists_runs_and_reports() {
    let pc = |role: &str| {
        t(&[
            ("rating", Str("5M".into())),
            (
                "followers",
                List(vec![t(&[("rating", Int(15)), ("role", Str(role.into()))])]),
            ),
        ])
    };
    for kind in ["scored", "wagered", "chained"] {
        let model = GroupSequence
            .prepare(&values(&[
                ("type", Str(kind.into())),
                (
                    "pcs",
                    List(vec![pc("contestant"), pc("secondary"), pc("supporter")]),
                ),
                (
                    "opponents",
                    List(vec![t(&[
                        ("rating", Int(15)),
                        ("kind", Str("mook".into())),
                        ("count", Int(6)),
                    ])]),
                ),
                ("assist", Str("always".into())),
            ]))
            .unwrap();
        let tally = crate::sim::simulate(
            &[(0, model.as_ref())],
            &crate::sim::Plan {
                seed: 3,
                trials: 2000,
                precision: None,
            },
            &(),
        )
        .remove(0);
        let seen = |f: usize| -> Vec<i64> { tally.field(f).iter().map(|(v, _)| v).collect() };
        assert!(seen(5).iter().any(|&a| a > 0), "{kind}: assists are made");
        assert!(seen(3).iter().all(|&o| (0..=6).contains(&o)), "{kind}");
        assert!(seen(2).iter().all(|&o| (0..=3).contains(&o)), "{kind}");
    }
}

#[test]
fn a_chained_assist_restores_resolve_up_to_the_start() {
    let g = two_against_one("chained", Str("always".into()));
    let mut d = Script::new(&[
        ex(WIN, 2, false), // degree 2: two resolve back
        ex(TIE, 0, false),
        ex(WIN, 3, false), // never above the starting 5
        ex(TIE, 0, false),
    ]);
    let mut f = g.start(&mut d);
    f.tally[0] = 2;
    g.round(&mut f, &mut d);
    assert_eq!(f.tally[0], 4);
    g.round(&mut f, &mut d);
    assert_eq!((f.tally[0], f.assists), (5, 2));
    assert_eq!(d.tns()[0], (15, 10), "against the base resistance");
}

#[test]
fn a_scored_contestant_follower_is_out_at_3_rp_and_lost() {
    let pc = t(&[
        ("rating", Int(15)),
        (
            "followers",
            List(vec![t(&[
                ("rating", Int(12)),
                ("role", Str("contestant".into())),
            ])]),
        ),
    ]);
    let g = group(&[("pcs", List(vec![pc])), ("opponents", Str("10 10".into()))]);
    let mut d = Script::new(&[ex(TIE, 0, false), ex(LOSE, 2, false)]);
    let mut f = g.start(&mut d);
    assert_eq!(g.round(&mut f, &mut d), None);
    assert_eq!(f.pairs, [(0, 2)], "the follower is out, its pairing gone");
    assert_eq!((f.tally[1], f.out[1], f.lost), (3, true, 1));
    // The second opponent, free again, joins the PC next round.
    g.pair_off(&mut f);
    assert_eq!(f.pairs, [(0, 2), (0, 3)]);
}

/// Once step 1 has paired everyone, a round only asks the supporters
/// again (`Group::support`), and counts pairings once a step 1: a party
/// with supporters, contestant and secondary followers against a gang,
/// played round by round with rolled dice, is the same fight, round by
/// round, as one that works the whole of step 1 out every round.
#[test]
fn settled_rounds_ask_only_the_supporters_as_the_whole_step_would() {
    let pc = |rating: &str, role: &str| {
        t(&[
            ("rating", Str(rating.into())),
            (
                "followers",
                List(vec![t(&[("rating", Int(13)), ("role", Str(role.into()))])]),
            ),
        ])
    };
    let mut rounds = 0;
    for kind in ["scored", "wagered", "chained"] {
        for (mooks, assist) in [(1, "always"), (3, "always"), (4, "never")] {
            let g = group(&[
                ("type", Str(kind.into())),
                (
                    "pcs",
                    List(vec![
                        pc("5M", "supporter"),
                        pc("18", "secondary"),
                        pc("15", "contestant"),
                    ]),
                ),
                (
                    "opponents",
                    List(vec![
                        t(&[("rating", Str("5M".into())), ("kind", Str("named".into()))]),
                        t(&[
                            ("rating", Int(15)),
                            ("kind", Str("mook".into())),
                            ("count", Int(mooks)),
                        ]),
                    ]),
                ),
                ("assist", Str(assist.into())),
            ]);
            let (mut short, mut whole) = (
                crate::dice::DiceRng::from_u64(7),
                crate::dice::DiceRng::from_u64(7),
            );
            let (mut t_short, mut t_whole) = (Rolled::tables(), Rolled::tables());
            for _ in 0..300 {
                let mut a = Rolled {
                    rng: &mut short,
                    tables: &mut t_short,
                };
                let mut b = Rolled {
                    rng: &mut whole,
                    tables: &mut t_whole,
                };
                let (mut fa, mut fb) = (g.start(&mut a), g.start(&mut b));
                loop {
                    fb.unsettle();
                    let (end_a, end_b) = (g.round(&mut fa, &mut a), g.round(&mut fb, &mut b));
                    rounds += 1;
                    assert_eq!(end_a, end_b, "{kind}, {mooks} mooks, {assist}");
                    assert_eq!(fa.tally, fb.tally);
                    assert_eq!(fa.out, fb.out);
                    assert_eq!(fa.pairs, fb.pairs);
                    assert_eq!(fa.assists, fb.assists);
                    if end_a.is_some() {
                        break;
                    }
                }
            }
        }
    }
    assert!(rounds > 5000, "{rounds} rounds compared");
}
