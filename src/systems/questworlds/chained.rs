//! `questworlds.chained`: the chained sequence (rules §4.5, [5.4]).
//! Each side has resolve (PC 5, named NPC 3, mook 1, impersonal 1..5); the
//! loser of a round loses degree + 1 resolve, and at ≤ 0 it is out. A PC
//! may instead take a consequence of −5 per point for a loss of 1..4, which
//! lowers its TN for the rest of the sequence. The degree comes from the
//! resolve the loser lost (traded points are not counted). A victor may
//! take a parting shot ([`super::parting`], §5.4.8).

use super::Exchange;
use super::augmented::Augmented;
use super::parting::{self, PartingShots, Phased, Shooter, Shot, ShotResult};
use super::sequence::{
    self, Fields, OPPONENT, PC, RoundSampler, SIDE_PARAMS, Sequence, Sequenced, round_table,
};
use super::{Matchup, RESISTANCE_PARAMS, Rating, Verdict};
use crate::dice::DiceRng;
use crate::model::{After, Rounds};
use crate::systems::{
    CHECKED, Choice, Define, Lit, ParamError, ParamKind, ParamSpec, Schema, Warning,
};

/// Named resolve levels (§5.4.3, 5.4.5).
pub const RESOLVE_NAMES: &[(&str, i64)] = &[("pc", 5), ("named", 3), ("mook", 1)];

/// TN penalty per point of resolve traded for a consequence.
pub const PENALTY_PER_POINT: i64 = 5;
/// The largest loss a consequence can buy off.
pub const MAX_TRADE: i64 = 4;

/// When the PC trades a resolve loss for a consequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trade {
    Never,
    /// Only when the loss would take the PC out.
    WhenItSaves,
    /// Every loss that can be traded.
    Always,
}

crate::choice!(Trade {
    Never = "never",
    WhenItSaves = "when-it-saves",
    Always = "always",
});

/// Final degree from the resolve the loser lost: 1 → 0, 2–3 → 1, 4–5 → 2,
/// 6–7 → 3, 8+ → 4.
#[inline]
pub fn final_degree(lost: i64) -> i64 {
    (lost / 2).clamp(0, sequence::MAX_DEGREE)
}

/// A chained sequence.
pub struct Chained {
    pub pc: Rating,
    pub opponent: Rating,
    pub pc_resolve: i64,
    pub opponent_resolve: i64,
    pub trade: Trade,
    pub parting: PartingShots,
    /// The round contest with 0, 1, 2 … points traded so far.
    matchups: Vec<RoundSampler>,
    tables: Vec<Vec<(Exchange, f64)>>,
}

/// Resolve of the PC, of the opponent, and points traded by the PC.
pub type State = (i64, i64, i64);

impl Chained {
    pub fn new(
        pc: Rating,
        opponent: Rating,
        pc_resolve: i64,
        opponent_resolve: i64,
        trade: Trade,
    ) -> Self {
        // A trade is only taken while the PC's TN stays ≥ 1, so at most
        // this many points are ever traded.
        let most = ((pc.tn() - 1) / PENALTY_PER_POINT).max(0);
        let matchups: Vec<Matchup> = (0..=most)
            .map(|k| sequence::matchup(pc.plus(-PENALTY_PER_POINT * k), opponent))
            .collect();
        Chained {
            tables: matchups.iter().map(round_table).collect(),
            matchups: matchups.iter().map(RoundSampler::new).collect(),
            pc,
            opponent,
            pc_resolve,
            opponent_resolve,
            trade,
            parting: PartingShots::none(),
        }
    }

    /// The same sequence with these parting-shot policies.
    pub fn with_parting_shots(self, parting: PartingShots) -> Self {
        Chained { parting, ..self }
    }

    /// The outcome (without `parting_shot`) of a sequence `winner` won.
    #[inline]
    fn finish(&self, round: usize, winner: i64, (pc, opp, traded): State) -> Fields {
        let lost = if winner == PC {
            self.opponent_resolve - opp
        } else {
            self.pc_resolve - pc
        };
        Fields::from([
            winner,
            round as i64,
            final_degree(lost),
            pc,
            opp,
            -PENALTY_PER_POINT * traded,
        ])
    }

    /// The parting shot `shot` from `phase` when its contest gave `ex`
    /// (§5.4.8): won, the loser loses degree + 1 more resolve; lost, it
    /// takes that many back from the loss that removed it, and returns at
    /// positive resolve. No consequence is traded in a parting shot.
    fn parting_shot(
        &self,
        round: usize,
        phase: &Phase,
        shot: Shot,
        ex: &Exchange,
    ) -> After<Phase, Fields> {
        let (pc, opp, traded) = phase.state;
        let (winner, loser) = match shot.by {
            Shooter::Pc => (PC, 1),
            Shooter::Opponent => (OPPONENT, 0),
        };
        let mut resolve = [pc, opp];
        let last = match shot.read(ex) {
            ShotResult::Won(degree) => {
                resolve[loser] -= degree + 1;
                parting::WORSENED
            }
            ShotResult::Tie => parting::HELD,
            ShotResult::Lost(degree) => {
                resolve[loser] += parting::taken_back(degree + 1, shot.removed_by);
                if resolve[loser] > 0 {
                    let mut back = phase.with((resolve[0], resolve[1], traded));
                    back.reversed = true;
                    return After::Round(back);
                }
                parting::HELD
            }
        };
        let mut out = self.finish(round, winner, (resolve[0], resolve[1], traded));
        out.push(phase.result(last));
        After::End(out)
    }

    #[inline]
    fn can_trade(&self, traded: i64, loss: i64) -> bool {
        loss <= MAX_TRADE && self.pc.tn() - PENALTY_PER_POINT * (traded + loss) >= 1
    }

    /// Round `round` from `state` when the contest gave `ex`.
    #[inline]
    pub fn after(
        &self,
        round: usize,
        &(pc, opp, traded): &State,
        ex: &Exchange,
    ) -> After<State, Fields> {
        let loss = ex.degree + 1;
        let stop = |winner, pc, opp| After::End(self.finish(round, winner, (pc, opp, traded)));
        match ex.verdict {
            Verdict::Tie => After::Round((pc, opp, traded)),
            Verdict::Victory if opp - loss <= 0 => stop(PC, pc, opp - loss),
            Verdict::Victory => After::Round((pc, opp - loss, traded)),
            Verdict::Defeat => {
                let trade = match self.trade {
                    Trade::Never => false,
                    Trade::WhenItSaves => pc - loss <= 0,
                    Trade::Always => true,
                };
                if trade && self.can_trade(traded, loss) {
                    After::Round((pc, opp, traded + loss))
                } else if pc - loss <= 0 {
                    stop(OPPONENT, pc - loss, opp)
                } else {
                    After::Round((pc - loss, opp, traded))
                }
            }
        }
    }
}

/// A chained sequence's state with its parting shots.
pub type Phase = Phased<State>;

impl Rounds for Chained {
    type State = Phase;
    type Roll = Exchange;
    type Outcome = Fields;

    fn pack(&self, phase: &Phase) -> Option<u64> {
        let (a, b, c) = phase.state;
        phase.pack([a, b, c])
    }

    #[inline]
    fn start(&self) -> Phase {
        Phased::start((self.pc_resolve, self.opponent_resolve, 0))
    }

    fn law(&self, _: usize, phase: &Phase, out: &mut Vec<(Exchange, f64)>) {
        out.extend_from_slice(&self.tables[phase.state.2 as usize]);
    }

    /// The contest's own table ([`Sequence::contest`]), the draw the
    /// sequence memo reads (one word a round). With the memo it pays:
    /// 1.43× the rate of `sim::Chain::simulate` of the capped sequence on
    /// `questworlds.scored`'s example, one thread (`benches/chain.rs`,
    /// 2026-11-28: 0.716 ms against 1.03 ms for 16,384 sequences; wagered
    /// 1.80×, chained 1.26×). The chain is its oracle
    /// (`assert_capped_is_enumeration`).
    #[inline]
    fn roll(&self, _: usize, phase: &Phase, rng: &mut DiceRng) -> Exchange {
        self.contest(phase).sample(rng)
    }

    /// A round by [`Chained::after`]; a defeat may bring a parting shot.
    #[inline]
    fn after(&self, round: usize, phase: &Phase, ex: &Exchange) -> After<Phase, Fields> {
        if let Some(shot) = phase.shot {
            return self.parting_shot(round, phase, shot, ex);
        }
        match Chained::after(self, round, &phase.state, ex) {
            After::Roll(s) => After::Roll(phase.with(s)),
            After::Round(s) => After::Round(phase.with(s)),
            After::End(mut out) => {
                let (before, (pc, opp)) = (phase.state, (out[3], out[4]));
                let (by, lead, removed_by) = if out[0] == PC {
                    (Shooter::Pc, pc - opp, before.1 - opp)
                } else {
                    (Shooter::Opponent, opp - pc, before.0 - pc)
                };
                if self.parting.shoots(by, lead) {
                    return After::Roll(Phased {
                        state: (pc, opp, before.2),
                        shot: Some(Shot { by, removed_by }),
                        reversed: phase.reversed,
                    });
                }
                out.push(phase.result(parting::NONE));
                After::End(out)
            }
        }
    }
}

impl Sequence for Chained {
    fn tallies(&self, phase: &Phase) -> Vec<i64> {
        let (pc, opp, traded) = phase.state;
        vec![
            pc,
            opp,
            -PENALTY_PER_POINT * traded,
            phase.result(parting::NONE),
        ]
    }

    fn contest(&self, phase: &Phase) -> &RoundSampler {
        &self.matchups[phase.state.2 as usize]
    }
}

static PARAMS: [ParamSpec; 14] = [
    SIDE_PARAMS[0],
    SIDE_PARAMS[1],
    SIDE_PARAMS[2],
    SIDE_PARAMS[3],
    SIDE_PARAMS[4],
    RESISTANCE_PARAMS[0],
    RESISTANCE_PARAMS[1],
    RESISTANCE_PARAMS[2],
    ParamSpec {
        path: "pc.resolve",
        kind: ParamKind::Int { min: 1, max: 10 },
        default: Lit::Int(5),
        doc: "The PC's starting resolve (5 in the rules).",
    },
    ParamSpec {
        path: "opponent.resolve",
        kind: ParamKind::IntOrName {
            min: 1,
            max: 10,
            names: RESOLVE_NAMES,
        },
        default: Lit::Str("named"),
        doc: "The opposition's resolve: \"pc\" 5, \"named\" 3, \"mook\" 1, or 1..=10 (impersonal opposition 1..5).",
    },
    ParamSpec {
        path: "pc.trade",
        kind: ParamKind::Choice(Trade::NAMES),
        default: Lit::Str("never"),
        doc: "When the PC trades a resolve loss of 1..4 for a consequence of −5 TN per point for the rest of the sequence: \"never\", \"when-it-saves\" (the loss would take it out), \"always\"; never when the TN would fall below 1.",
    },
    sequence::AUGMENT_PARAM,
    parting::PARAMS[0],
    parting::PARAMS[1],
];

sequence::sequence_params! {
    /// The parameters of `questworlds.chained`, one field per path of
    /// [`PARAMS`].
    pub struct ChainedParams {
        #[serde(rename = "pc.resolve")]
        pub pc_resolve: i64,
        #[serde(rename = "opponent.resolve")]
        pub opponent_resolve: i64,
        #[serde(rename = "pc.trade")]
        pub pc_trade: Trade,
    }
}

/// The mechanic `questworlds.chained`.
pub struct ChainedSequence;

impl Define for ChainedSequence {
    type Params = ChainedParams;
    type Trial = Sequenced<Chained, 7>;
    const NAME: &'static str = "questworlds.chained";
    const SUMMARY: &'static str =
        "Chained sequence: contests wearing down resolve until one side is out.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        sequence::schema(&[
            ("pc_resolve", "The PC's resolve at the end (≤ 0 when out)."),
            (
                "opponent_resolve",
                "The opposition's resolve at the end (≤ 0 when out).",
            ),
            (
                "pc_consequence",
                "The PC's total consequence penalty from traded resolve (−5 per point).",
            ),
        ])
    }

    /// The opponent is a character or a resistance, not both.
    fn check(&self, p: &ChainedParams) -> Result<Vec<Warning>, ParamError> {
        p.shared().sides()?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &ChainedParams) -> Vec<&'static str> {
        p.shared().idle()
    }

    fn build(&self, p: ChainedParams) -> Sequenced<Chained, 7> {
        let shared = p.shared();
        // Who the PC faces is worked out again: the check kept nothing.
        let (pc, opp) = shared.sides().expect(CHECKED);
        let (pc_resolve, opp_resolve, trade) = (p.pc_resolve, p.opponent_resolve, p.pc_trade);
        let parting = shared.parting;
        let chained = Augmented::new(shared.augment, shared.resistance.base, |bonus| {
            Chained::new(pc.plus(bonus), opp, pc_resolve, opp_resolve, trade)
                .with_parting_shots(parting.clone())
        });
        Sequenced::augmented(chained, shared.max_rounds)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sequence::testing::{assert_capped_is_enumeration, p_victory, values};
    use super::*;
    use crate::systems::testing::{Sample, assert_agrees, assert_chain_is_enumeration};
    use crate::systems::{Mechanic, ParamValue};

    fn ex(verdict: Verdict, degree: i64) -> Exchange {
        Exchange {
            verdict,
            degree,
            pc_successes: 0,
            story_points: 0,
            victor_big: false,
        }
    }

    #[test]
    fn final_degrees() {
        let got: Vec<i64> = (1..=9).map(final_degree).collect();
        assert_eq!(got, [0, 1, 1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn losses_and_trades() {
        let c = Chained::new(Rating(15), Rating(10), 5, 3, Trade::WhenItSaves);
        // A victory of degree 1 costs the opponent 2.
        assert_eq!(
            c.after(1, &(5, 3, 0), &ex(Verdict::Victory, 1)),
            After::Round((5, 1, 0))
        );
        // … and of degree 2 takes it out, having lost 3: degree 1.
        assert_eq!(
            c.after(4, &(5, 3, 0), &ex(Verdict::Victory, 2)),
            After::End([PC, 4, 1, 5, 0, 0].into())
        );
        // A loss that does not take the PC out is not traded.
        assert_eq!(
            c.after(1, &(5, 3, 0), &ex(Verdict::Defeat, 1)),
            After::Round((3, 3, 0))
        );
        // One that would is: 2 points, −10 TN.
        assert_eq!(
            c.after(1, &(2, 3, 0), &ex(Verdict::Defeat, 1)),
            After::Round((2, 3, 2))
        );
        // Not when the TN would fall below 1 (15 − 5×(2+1) = 0).
        assert_eq!(
            c.after(2, &(2, 3, 2), &ex(Verdict::Defeat, 0)),
            After::Round((1, 3, 2))
        );
        // A loss of 5 cannot be traded.
        assert_eq!(
            c.after(3, &(5, 3, 0), &ex(Verdict::Defeat, 4)),
            After::End([OPPONENT, 3, 2, 0, 3, 0].into())
        );
    }

    #[test]
    fn a_mook_falls_to_the_first_victory() {
        use ParamValue::*;
        let m = ChainedSequence
            .prepare(&values(&[
                ("pc.rating", Int(10)),
                ("opponent.rating", Int(10)),
                ("opponent.resolve", Str("mook".into())),
            ]))
            .unwrap();
        // With 1 resolve each, the first decisive round decides: at equal
        // ratings, 1/2 exactly (ties just repeat).
        let even = ChainedSequence
            .prepare(&values(&[
                ("pc.rating", Int(10)),
                ("opponent.rating", Int(10)),
                ("opponent.resolve", Str("mook".into())),
                ("pc.resolve", Int(1)),
            ]))
            .unwrap();
        assert!((p_victory(even.as_ref()) - 0.5).abs() < 1e-12);
        // With 5 resolve, the PC loses only if it loses every decisive
        // round until its 5 are gone.
        let p = p_victory(m.as_ref());
        assert!(p > 0.85, "{p}");
        let trading = ChainedSequence
            .prepare(&values(&[
                ("pc.rating", Int(10)),
                ("opponent.rating", Int(10)),
                ("opponent.resolve", Str("mook".into())),
                ("pc.trade", Str("when-it-saves".into())),
            ]))
            .unwrap();
        assert!(p_victory(trading.as_ref()) > p);
    }

    #[test]
    fn monte_carlo_agrees_with_exact_on_20_configs() {
        let ratings = [
            ("10", "10"),
            ("15", "10"),
            ("1M", "15"),
            ("5", "20"),
            ("2M", "1M"),
            ("4M2", "3M"),
            ("12", "13"),
        ];
        let resolve = ["mook", "named", "pc", "4"];
        let trades = ["never", "when-it-saves", "always"];
        let mut n = 0;
        for (i, (pc, opp)) in ratings.iter().enumerate() {
            for j in 0..3 {
                let pairs = [
                    ("pc.rating", ParamValue::Str(pc.to_string())),
                    ("opponent.rating", ParamValue::Str(opp.to_string())),
                    (
                        "opponent.resolve",
                        match resolve[(i + j) % 4] {
                            "4" => ParamValue::Int(4),
                            name => ParamValue::Str(name.into()),
                        },
                    ),
                    ("pc.resolve", ParamValue::Int([5, 3, 7][j])),
                    ("pc.trade", ParamValue::Str(trades[(i + 2 * j) % 3].into())),
                ];
                let m = ChainedSequence.prepare(&values(&pairs)).unwrap();
                assert_agrees(
                    m.as_ref(),
                    Sample::seed(11).config(400 + n),
                    &format!("{pairs:?}"),
                );
                n += 1;
            }
        }
        assert!(n >= 20);
    }

    /// The chain is the walk of every path of rolls. Uncapped: a sure win
    /// against resolve 3 (every round a victory taking 1 or 2) ends in two
    /// or three rounds; 15 against 10 at resolve 3 and 2, trading a loss
    /// that would take the PC out, is over within 10 rounds but for
    /// 2·10^-8. Capped at 4 rounds: 15 against 10 at named resolve, with the
    /// same trades and parting shots both ways. Each round branches over
    /// the contest's outcomes, so the walks take some 30 ms.
    #[test]
    fn the_chain_is_the_enumeration() {
        let sure = Chained::new(Rating(20), Rating(0), 5, 3, Trade::Never);
        let (_, lost) = assert_chain_is_enumeration(&sure, 7, 6, "sure win");
        assert_eq!(lost, 0.0, "a sure win is over in three rounds");
        let short = Chained::new(Rating(15), Rating(10), 3, 2, Trade::WhenItSaves);
        assert_chain_is_enumeration(&short, 7, 10, "resolve 3 against 2");
        use ParamValue::*;
        let capped = ChainedSequence
            .trial(&values(&[
                ("pc.rating", Int(15)),
                ("opponent.rating", Int(10)),
                ("pc.trade", Str("when-it-saves".into())),
                ("pc.parting_shot", Str("always".into())),
                ("opponent.parting_shot", Str("always".into())),
                ("max_rounds", Int(4)),
            ]))
            .unwrap();
        let lost = assert_capped_is_enumeration(&capped, 12, "capped at 4");
        assert_eq!(lost, 0.0, "three rounds and their shots");
    }
}
