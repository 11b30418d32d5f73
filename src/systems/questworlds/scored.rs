//! `questworlds.scored`: the scored sequence (rules §4.5, [5.2]). Each
//! round is a contest; the loser has degree + 1 resolution points (RP)
//! lodged against it (ties change nothing); 5 or more RP loses. Risky
//! gambits and defensive responses change how many are lodged. The final
//! degree comes from the loser's RP minus the winner's. A victor may take
//! a parting shot ([`super::parting`], §5.2.3).

use super::Exchange;
use super::augmented::Augmented;
use super::parting::{self, PartingShots, Phased, Shooter, Shot, ShotResult};
use super::sequence::{
    self, Fields, OPPONENT, PC, RoundSampler, SIDE_PARAMS, Sequence, Sequenced, round_table,
};
use super::{Matchup, RESISTANCE_PARAMS, Verdict};
use crate::dice::DiceRng;
use crate::model::{After, Rounds};
use crate::systems::{
    CHECKED, Choice, Define, Lit, ParamError, ParamKind, ParamSpec, Schema, Warning,
};

/// RP at which a side loses.
pub const RP_TO_LOSE: i64 = 5;

/// When a side uses a tactic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Never,
    Always,
    /// When the side has more RP against it than its opponent.
    WhenBehind,
}

crate::choice!(Policy {
    Never = "never",
    Always = "always",
    WhenBehind = "when-behind",
});

impl Policy {
    #[inline]
    fn applies(self, behind: bool) -> bool {
        match self {
            Policy::Never => false,
            Policy::Always => true,
            Policy::WhenBehind => behind,
        }
    }
}

/// What a side does in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic {
    Plain,
    RiskyGambit,
    DefensiveResponse,
}

/// A side's two policies. A side that would do both in a round gambles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tactics {
    pub gambit: Policy,
    pub defensive: Policy,
}

impl Tactics {
    pub const NONE: Tactics = Tactics {
        gambit: Policy::Never,
        defensive: Policy::Never,
    };

    #[inline]
    fn choose(self, behind: bool) -> Tactic {
        if self.gambit.applies(behind) {
            Tactic::RiskyGambit
        } else if self.defensive.applies(behind) {
            Tactic::DefensiveResponse
        } else {
            Tactic::Plain
        }
    }
}

/// RP lodged against the loser of a round of `degree` (§5.2.4–5.2.5):
/// degree + 1; a gambling winner +1, a gambling loser +2, both gambling +2;
/// a defending winner −1, a defending loser −2; never below 0.
#[inline]
pub fn lodged(degree: i64, winner: Tactic, loser: Tactic) -> i64 {
    use Tactic::*;
    let gambits = match (winner, loser) {
        (RiskyGambit, RiskyGambit) => 2,
        (RiskyGambit, _) => 1,
        (_, RiskyGambit) => 2,
        _ => 0,
    };
    let defence =
        i64::from(winner == DefensiveResponse) + 2 * i64::from(loser == DefensiveResponse);
    (degree + 1 + gambits - defence).max(0)
}

/// Final degree from the RP difference: 1–2 → 0, 3–4 → 1, 5–6 → 2,
/// 7–8 → 3, 9+ → 4.
#[inline]
pub fn final_degree(difference: i64) -> i64 {
    ((difference - 1) / 2).clamp(0, sequence::MAX_DEGREE)
}

/// A scored sequence between two TNs.
pub struct Scored {
    pub matchup: Matchup,
    pub pc: Tactics,
    pub opponent: Tactics,
    pub parting: PartingShots,
    table: Vec<(Exchange, f64)>,
    rounds: RoundSampler,
}

/// RP against the PC and against the opponent.
pub type State = (i64, i64);

impl Scored {
    pub fn new(matchup: Matchup, pc: Tactics, opponent: Tactics) -> Self {
        Scored {
            table: round_table(&matchup),
            rounds: RoundSampler::new(&matchup),
            matchup,
            pc,
            opponent,
            parting: PartingShots::none(),
        }
    }

    /// The same sequence with these parting-shot policies.
    pub fn with_parting_shots(self, parting: PartingShots) -> Self {
        Scored { parting, ..self }
    }

    /// The outcome (without `parting_shot`) of a sequence `winner` won.
    #[inline]
    fn finish(&self, round: usize, winner: i64, (pc_rp, opp_rp): State) -> Fields {
        let diff = if winner == PC {
            opp_rp - pc_rp
        } else {
            pc_rp - opp_rp
        };
        Fields::from([winner, round as i64, final_degree(diff), pc_rp, opp_rp])
    }

    /// The parting shot `shot` from `phase` when its contest gave `ex`
    /// (§5.2.3): won, degree + 1 more RP against the loser; lost, the
    /// loser takes that many off the RP of the round that removed it, and
    /// returns under 5.
    fn parting_shot(
        &self,
        round: usize,
        phase: &Phase,
        shot: Shot,
        ex: &Exchange,
    ) -> After<Phase, Fields> {
        let (winner, loser) = match shot.by {
            Shooter::Pc => (PC, 1),
            Shooter::Opponent => (OPPONENT, 0),
        };
        let mut rp = [phase.state.0, phase.state.1];
        let last = match shot.read(ex) {
            ShotResult::Won(degree) => {
                rp[loser] += degree + 1;
                parting::WORSENED
            }
            ShotResult::Tie => parting::HELD,
            ShotResult::Lost(degree) => {
                rp[loser] -= parting::taken_back(degree + 1, shot.removed_by);
                if rp[loser] < RP_TO_LOSE {
                    let mut back = phase.with((rp[0], rp[1]));
                    back.reversed = true;
                    return After::Round(back);
                }
                parting::HELD
            }
        };
        let mut out = self.finish(round, winner, (rp[0], rp[1]));
        out.push(phase.result(last));
        After::End(out)
    }

    /// The round `round` from `(pc_rp, opp_rp)` when the contest gave `ex`.
    #[inline(always)]
    pub fn after(
        &self,
        round: usize,
        &(pc_rp, opp_rp): &State,
        ex: &Exchange,
    ) -> After<State, Fields> {
        let pc_tactic = self.pc.choose(pc_rp > opp_rp);
        let opp_tactic = self.opponent.choose(opp_rp > pc_rp);
        let (pc_rp, opp_rp) = match ex.verdict {
            Verdict::Tie => return After::Round((pc_rp, opp_rp)),
            Verdict::Victory => (pc_rp, opp_rp + lodged(ex.degree, pc_tactic, opp_tactic)),
            Verdict::Defeat => (pc_rp + lodged(ex.degree, opp_tactic, pc_tactic), opp_rp),
        };
        if opp_rp >= RP_TO_LOSE {
            After::End(self.finish(round, PC, (pc_rp, opp_rp)))
        } else if pc_rp >= RP_TO_LOSE {
            After::End(self.finish(round, OPPONENT, (pc_rp, opp_rp)))
        } else {
            After::Round((pc_rp, opp_rp))
        }
    }
}

/// A scored sequence's state with its parting shots.
pub type Phase = Phased<State>;

impl Rounds for Scored {
    type State = Phase;
    type Roll = Exchange;
    type Outcome = Fields;

    fn pack(&self, phase: &Phase) -> Option<u64> {
        phase.pack([phase.state.0, phase.state.1, 0])
    }

    #[inline]
    fn start(&self) -> Phase {
        Phased::start((0, 0))
    }

    fn law(&self, _: usize, _: &Phase, out: &mut Vec<(Exchange, f64)>) {
        out.extend_from_slice(&self.table);
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

    /// A round by [`Scored::after`]; a defeat may bring a parting shot.
    #[inline]
    fn after(&self, round: usize, phase: &Phase, ex: &Exchange) -> After<Phase, Fields> {
        if let Some(shot) = phase.shot {
            return self.parting_shot(round, phase, shot, ex);
        }
        match Scored::after(self, round, &phase.state, ex) {
            After::Roll(s) => After::Roll(phase.with(s)),
            After::Round(s) => After::Round(phase.with(s)),
            After::End(mut out) => {
                let (before, (pc_rp, opp_rp)) = (phase.state, (out[3], out[4]));
                let (by, lead, removed_by) = if out[0] == PC {
                    (Shooter::Pc, opp_rp - pc_rp, opp_rp - before.1)
                } else {
                    (Shooter::Opponent, pc_rp - opp_rp, pc_rp - before.0)
                };
                if self.parting.shoots(by, lead) {
                    return After::Roll(Phased {
                        state: (pc_rp, opp_rp),
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

impl Sequence for Scored {
    fn tallies(&self, phase: &Phase) -> Vec<i64> {
        vec![phase.state.0, phase.state.1, phase.result(parting::NONE)]
    }

    fn contest(&self, _: &Phase) -> &RoundSampler {
        &self.rounds
    }
}

static PARAMS: [ParamSpec; 15] = [
    SIDE_PARAMS[0],
    SIDE_PARAMS[4],
    SIDE_PARAMS[1],
    SIDE_PARAMS[2],
    SIDE_PARAMS[3],
    RESISTANCE_PARAMS[0],
    RESISTANCE_PARAMS[1],
    RESISTANCE_PARAMS[2],
    ParamSpec {
        path: "pc.risky_gambit",
        kind: ParamKind::Choice(Policy::NAMES),
        default: Lit::Str("never"),
        doc: "When the PC makes a risky gambit: win, lodge 1 more RP; lose, 2 more are lodged against it (\"when-behind\": when it has more RP against it).",
    },
    ParamSpec {
        path: "pc.defensive_response",
        kind: ParamKind::Choice(Policy::NAMES),
        default: Lit::Str("never"),
        doc: "When the PC makes a defensive response: win, lodge 1 fewer RP; lose, 2 fewer against it. A gamble takes precedence in the same round.",
    },
    ParamSpec {
        path: "opponent.risky_gambit",
        kind: ParamKind::Choice(Policy::NAMES),
        default: Lit::Str("never"),
        doc: "When the opposition makes a risky gambit (as `pc.risky_gambit`).",
    },
    ParamSpec {
        path: "opponent.defensive_response",
        kind: ParamKind::Choice(Policy::NAMES),
        default: Lit::Str("never"),
        doc: "When the opposition makes a defensive response (as `pc.defensive_response`).",
    },
    sequence::AUGMENT_PARAM,
    parting::PARAMS[0],
    parting::PARAMS[1],
];

sequence::sequence_params! {
    /// The parameters of `questworlds.scored`, one field per path of
    /// [`PARAMS`].
    pub struct ScoredParams {
        #[serde(rename = "pc.risky_gambit")]
        pub pc_risky_gambit: Policy,
        #[serde(rename = "pc.defensive_response")]
        pub pc_defensive_response: Policy,
        #[serde(rename = "opponent.risky_gambit")]
        pub opponent_risky_gambit: Policy,
        #[serde(rename = "opponent.defensive_response")]
        pub opponent_defensive_response: Policy,
    }
}

/// The mechanic `questworlds.scored`.
pub struct ScoredSequence;

impl Define for ScoredSequence {
    type Params = ScoredParams;
    type Trial = Sequenced<Scored, 6>;
    const NAME: &'static str = "questworlds.scored";
    const SUMMARY: &'static str =
        "Scored sequence: contests until one side has 5 resolution points lodged against it.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        sequence::schema(&[
            (
                "pc_rp",
                "Resolution points lodged against the PC at the end.",
            ),
            (
                "opponent_rp",
                "Resolution points lodged against the opposition at the end.",
            ),
        ])
    }

    /// The opponent is a character or a resistance, not both.
    fn check(&self, p: &ScoredParams) -> Result<Vec<Warning>, ParamError> {
        p.shared().sides()?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &ScoredParams) -> Vec<&'static str> {
        p.shared().idle()
    }

    fn build(&self, p: ScoredParams) -> Sequenced<Scored, 6> {
        let shared = p.shared();
        // Who the PC faces is worked out again: the check kept nothing.
        let (pc, opp) = shared.sides().expect(CHECKED);
        let pc_tactics = Tactics {
            gambit: p.pc_risky_gambit,
            defensive: p.pc_defensive_response,
        };
        let opp_tactics = Tactics {
            gambit: p.opponent_risky_gambit,
            defensive: p.opponent_defensive_response,
        };
        let parting = shared.parting;
        let scored = Augmented::new(shared.augment, shared.resistance.base, |bonus| {
            Scored::new(
                sequence::matchup(pc.plus(bonus), opp),
                pc_tactics,
                opp_tactics,
            )
            .with_parting_shots(parting.clone())
        });
        Sequenced::augmented(scored, shared.max_rounds)
    }
}

#[cfg(test)]
#[path = "tests_scored.rs"]
mod tests;
