//! `questworlds.wagered`: the wagered sequence (rules §4.5, [5.3]).
//! Both sides start with advantage points (AP) equal to their full TN.
//! Each round has two exchanges, one led by each side with its own wager,
//! the higher wager first; the loser of an exchange loses ⌈w/2⌉ AP on a
//! zero-degree result and w × degree otherwise, a tie costs both ⌈w/2⌉,
//! and a victor's big success transfers the lost AP to it. A side at ≤ 0
//! AP loses at once; the loser's final AP gives the degree. A victor may
//! take a parting shot ([`super::parting`], §5.3.3).

pub use self::policy::PcWager;
use super::Exchange;
use super::augmented::Augmented;
use super::parting::{self, PartingShots, Phased, Shooter, Shot, ShotResult};
use super::sequence::{
    self, DRAW, Fields, OPPONENT, PC, RoundSampler, SIDE_PARAMS, Sequence, Sequenced, round_table,
};
use super::{Matchup, RESISTANCE_PARAMS, Verdict};
use crate::dice::DiceRng;
use crate::model::{After, Rounds};
use crate::systems::{
    CHECKED, Choice, Define, Lit, ParamError, ParamKind, ParamSpec, Schema, Warning,
};

/// The wager when none is declared (§5.3.1.2).
pub const DEFAULT_WAGER: i64 = 3;

/// How the PC stakes when its wager is more than the AP it has left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Desperation {
    /// Keep the declared wager even above the AP left (a desperation stake
    /// whenever the AP run low; the rules allow up to the starting AP).
    Keep,
    /// Never stake more than the AP left, as the GM must.
    Never,
    /// When behind on AP, stake the whole starting AP.
    WhenBehind,
}

crate::choice!(Desperation {
    Keep = "keep",
    Never = "never",
    WhenBehind = "when-behind",
});

/// Who leads an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Leader {
    Pc,
    Opponent,
}

/// AP lost for a result of `degree` under wager `w` (§5.3.1.4).
#[inline]
pub fn ap_lost(degree: i64, w: i64) -> i64 {
    if degree == 0 { (w + 1) / 2 } else { w * degree }
}

/// Final degree from the loser's AP: 0..−10 → 0, −11..−20 → 1, … ≤ −41 → 4.
#[inline]
pub fn final_degree(ap: i64) -> i64 {
    ((-ap - 1).max(0) / 10).min(sequence::MAX_DEGREE)
}

/// A wagered sequence.
pub struct Wagered {
    pub matchup: Matchup,
    /// The PC's wager: one, or by the AP at the round's start.
    pub pc_wager: PcWager,
    pub opponent_wager: i64,
    pub desperation: Desperation,
    pub parting: PartingShots,
    table: Vec<(Exchange, f64)>,
    rounds: RoundSampler,
}

/// AP of the PC and of the opponent.
pub type State = (i64, i64);

impl Wagered {
    pub fn new(
        matchup: Matchup,
        pc_wager: impl Into<PcWager>,
        opponent_wager: i64,
        desperation: Desperation,
    ) -> Self {
        Wagered {
            table: round_table(&matchup),
            rounds: RoundSampler::new(&matchup),
            matchup,
            pc_wager: pc_wager.into(),
            opponent_wager,
            desperation,
            parting: PartingShots::none(),
        }
    }

    /// The same sequence with these parting-shot policies.
    pub fn with_parting_shots(self, parting: PartingShots) -> Self {
        Wagered { parting, ..self }
    }

    /// The round's two exchanges, in order, with the wagers declared at
    /// its start; equal wagers: the PC's exchange first.
    #[inline]
    fn declare(&self, ap: &State) -> [(Leader, i64); 2] {
        self.declare_as(ap, None)
    }

    /// As [`Wagered::declare`], with the PC wagering `pc_wager` when set
    /// instead of by its policy (a PC who never makes desperation stakes
    /// still declares no more than it has): the rules best play shares.
    #[inline]
    fn declare_as(&self, &(pc, opp): &State, pc_wager: Option<i64>) -> [(Leader, i64); 2] {
        let pc_w = match (pc_wager, self.desperation) {
            (Some(w), Desperation::Never) => w.min(pc),
            (Some(w), _) => w,
            (None, Desperation::Keep) => self.pc_wager.at(pc, opp),
            (None, Desperation::Never) => self.pc_wager.at(pc, opp).min(pc),
            (None, Desperation::WhenBehind) if pc < opp => self.matchup.pc.tn(),
            (None, Desperation::WhenBehind) => self.pc_wager.at(pc, opp),
        };
        let opp_w = self.opponent_wager.min(opp);
        if opp_w > pc_w {
            [(Leader::Opponent, opp_w), (Leader::Pc, pc_w)]
        } else {
            [(Leader::Pc, pc_w), (Leader::Opponent, opp_w)]
        }
    }

    /// The wager actually staked when the exchange comes: the GM, and a
    /// PC who never makes desperation stakes, lower it to the AP left.
    #[inline]
    fn staked(&self, (leader, declared): (Leader, i64), &(pc, opp): &State) -> i64 {
        match leader {
            Leader::Opponent => declared.min(opp),
            Leader::Pc if self.desperation == Desperation::Never => declared.min(pc),
            Leader::Pc => declared,
        }
    }

    /// One exchange with stake `w`.
    #[inline]
    pub fn exchange(&self, (pc, opp): State, w: i64, ex: &Exchange) -> State {
        let lost = ap_lost(ex.degree, w);
        let gained = if ex.victor_big { lost } else { 0 };
        match ex.verdict {
            Verdict::Tie => (pc - lost, opp - lost),
            Verdict::Victory => (pc + gained, opp - lost),
            Verdict::Defeat => (pc - lost, opp + gained),
        }
    }

    /// The outcome when a side is at ≤ 0 AP.
    #[inline]
    fn end(&self, round: usize, (pc, opp): State) -> Option<Fields> {
        let (winner, degree) = match (pc <= 0, opp <= 0) {
            (true, true) => (DRAW, 0),
            (true, false) => (OPPONENT, final_degree(pc)),
            (false, true) => (PC, final_degree(opp)),
            (false, false) => return None,
        };
        Some(Fields::from([winner, round as i64, degree, pc, opp]))
    }

    #[inline]
    fn settle(&self, round: usize, s: State) -> After<WageredState, Fields> {
        match self.end(round, s) {
            Some(outcome) => After::End(outcome),
            None => After::Round(WageredState::Round(s)),
        }
    }
}

/// Where a wagered sequence stands: a round about to start, or its second
/// exchange about to be resolved (led by the side and wager declared at the
/// round's start). Between rounds only `Round` occurs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WageredState {
    Round(State),
    Second {
        ap: State,
        second: (Leader, i64),
    },
    /// The exchange of a side a parting shot brought back (§5.3.3): as
    /// `Second`, but a defeat in it brings no parting shot (one a round,
    /// which also keeps a round finite).
    Returned {
        ap: State,
        second: (Leader, i64),
    },
}

impl Wagered {
    /// One exchange from `state` when the contest gave `ex`: the round's
    /// rules, without parting shots.
    #[inline]
    pub fn step(
        &self,
        round: usize,
        state: &WageredState,
        ex: &Exchange,
    ) -> After<WageredState, Fields> {
        self.step_as(round, state, ex, None)
    }

    /// As [`Wagered::step`], with the PC's wager for a round that starts
    /// here set to `pc_wager` when it is given.
    #[inline]
    pub fn step_as(
        &self,
        round: usize,
        state: &WageredState,
        ex: &Exchange,
        pc_wager: Option<i64>,
    ) -> After<WageredState, Fields> {
        match *state {
            WageredState::Round(ap) => {
                let [first, second] = self.declare_as(&ap, pc_wager);
                let s1 = self.exchange(ap, self.staked(first, &ap), ex);
                match self.end(round, s1) {
                    Some(outcome) => After::End(outcome),
                    None => After::Roll(WageredState::Second { ap: s1, second }),
                }
            }
            WageredState::Second { ap, second } | WageredState::Returned { ap, second } => {
                let s2 = self.exchange(ap, self.staked(second, &ap), ex);
                self.settle(round, s2)
            }
        }
    }

    /// The wager `leader` declares in `ap`, as at a round's start.
    #[inline]
    fn declared(&self, leader: Leader, ap: &State) -> (Leader, i64) {
        let [first, second] = self.declare(ap);
        if first.0 == leader { first } else { second }
    }

    /// The parting shot `shot` from `phase` when its contest gave `ex`
    /// (§5.3.3): one exchange led by the victor with its wager. Won, the
    /// loser loses AP as in any exchange (a big success transfers them);
    /// lost, the loser takes back the AP it would have cost the victor, no
    /// more than the exchange that removed it cost it, and back above 0 it
    /// gets its own exchange in this round, then rounds go on as before.
    fn parting_shot(
        &self,
        round: usize,
        phase: &Phase,
        shot: Shot,
        ex: &Exchange,
    ) -> After<Phase, Fields> {
        let ap = tallies(&phase.state);
        let (leader, other) = match shot.by {
            Shooter::Pc => (Leader::Pc, Leader::Opponent),
            Shooter::Opponent => (Leader::Opponent, Leader::Pc),
        };
        let w = self.staked(self.declared(leader, &ap), &ap);
        let (ap, last) = match shot.read(ex) {
            ShotResult::Won(_) => (self.exchange(ap, w, ex), parting::WORSENED),
            ShotResult::Tie => (ap, parting::HELD),
            ShotResult::Lost(degree) => {
                let back = parting::taken_back(ap_lost(degree, w), shot.removed_by);
                let ap = match leader {
                    Leader::Pc => (ap.0, ap.1 + back),
                    Leader::Opponent => (ap.0 + back, ap.1),
                };
                if ap.0 > 0 && ap.1 > 0 {
                    let second = self.declared(other, &ap);
                    let mut back = phase.with(WageredState::Returned { ap, second });
                    back.reversed = true;
                    return After::Roll(back);
                }
                (ap, parting::HELD)
            }
        };
        match self.end(round, ap) {
            Some(mut out) => {
                out.push(phase.result(last));
                After::End(out)
            }
            // Not reached: a won shot only lowers the loser's AP.
            None => After::Round(phase.with(WageredState::Round(ap))),
        }
    }
}

/// Both sides' AP in either kind of state.
fn tallies(state: &WageredState) -> State {
    let (WageredState::Round(ap)
    | WageredState::Second { ap, .. }
    | WageredState::Returned { ap, .. }) = *state;
    ap
}

/// A wagered sequence's state with its parting shots.
pub type Phase = Phased<WageredState>;

impl Rounds for Wagered {
    type State = Phase;
    type Roll = Exchange;
    type Outcome = Fields;

    /// Both AP totals, then the kind of exchange with its second wager in
    /// one value (8 × wager + 4 × leader + kind: one to one, as leader and
    /// kind take less than 8).
    fn pack(&self, phase: &Phase) -> Option<u64> {
        let (kind, ap, (leader, wager)) = match phase.state {
            WageredState::Round(ap) => (0, ap, (Leader::Pc, 0)),
            WageredState::Second { ap, second } => (1, ap, second),
            WageredState::Returned { ap, second } => (2, ap, second),
        };
        let second = wager.checked_mul(8)? + 4 * (leader == Leader::Opponent) as i64 + kind;
        phase.pack([ap.0, ap.1, second])
    }

    #[inline]
    fn start(&self) -> Phase {
        Phased::start(WageredState::Round((
            self.matchup.pc.tn(),
            self.matchup.opponent.tn(),
        )))
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

    /// An exchange by [`Wagered::step`]; a defeat may bring a parting shot.
    #[inline]
    fn after(&self, round: usize, phase: &Phase, ex: &Exchange) -> After<Phase, Fields> {
        self.after_as(round, phase, ex, None)
    }
}

impl Wagered {
    /// As [`Rounds::after`], with the PC's wager for a round that starts
    /// here set to `pc_wager` when it is given (best play's choice).
    #[inline]
    pub fn after_as(
        &self,
        round: usize,
        phase: &Phase,
        ex: &Exchange,
        pc_wager: Option<i64>,
    ) -> After<Phase, Fields> {
        if let Some(shot) = phase.shot {
            return self.parting_shot(round, phase, shot, ex);
        }
        match self.step_as(round, &phase.state, ex, pc_wager) {
            After::Roll(s) => After::Roll(phase.with(s)),
            After::Round(s) => After::Round(phase.with(s)),
            After::End(mut out) => {
                let (before, (pc, opp)) = (tallies(&phase.state), (out[3], out[4]));
                let returned = matches!(phase.state, WageredState::Returned { .. });
                let shooter = match out[0] {
                    _ if returned => None,
                    PC => Some((Shooter::Pc, pc - opp, before.1 - opp)),
                    OPPONENT => Some((Shooter::Opponent, opp - pc, before.0 - pc)),
                    _ => None,
                };
                match shooter {
                    Some((by, lead, removed_by)) if self.parting.shoots(by, lead) => {
                        return After::Roll(Phased {
                            state: WageredState::Round((pc, opp)),
                            shot: Some(Shot { by, removed_by }),
                            reversed: phase.reversed,
                        });
                    }
                    _ => {}
                }
                out.push(phase.result(parting::NONE));
                After::End(out)
            }
        }
    }
}

impl Sequence for Wagered {
    fn tallies(&self, phase: &Phase) -> Vec<i64> {
        let (pc, opp) = tallies(&phase.state);
        vec![pc, opp, phase.result(parting::NONE)]
    }

    fn contest(&self, _: &Phase) -> &RoundSampler {
        &self.rounds
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
        path: "pc.wager",
        kind: ParamKind::Custom {
            expects: policy::EXPECTS,
        },
        default: Lit::Int(DEFAULT_WAGER),
        doc: "AP the PC stakes on the exchanges it leads; at most its starting AP (its TN). Or a wager by situation: rules `{ wager = n, when = { … } }` on both sides' AP at the round's start, tried in order, the last without `when` (the form best play writes).",
    },
    ParamSpec {
        path: "opponent.wager",
        kind: ParamKind::Int { min: 1, max: 400 },
        default: Lit::Int(DEFAULT_WAGER),
        doc: "AP the GM stakes on the exchanges it leads, never more than it has left.",
    },
    ParamSpec {
        path: "pc.desperation_stake",
        kind: ParamKind::Choice(Desperation::NAMES),
        default: Lit::Str("keep"),
        doc: "\"keep\": the PC keeps its wager even above the AP it has left (a desperation stake); \"never\": it stakes at most what it has; \"when-behind\": with fewer AP than the GM it stakes its whole starting AP.",
    },
    sequence::AUGMENT_PARAM,
    parting::PARAMS[0],
    parting::PARAMS[1],
];

sequence::sequence_params! {
    /// The parameters of `questworlds.wagered`, one field per path of
    /// [`PARAMS`].
    pub struct WageredParams {
        #[serde(rename = "pc.wager", deserialize_with = "policy::pc_wager")]
        pub pc_wager: PcWager,
        #[serde(rename = "opponent.wager")]
        pub opponent_wager: i64,
        #[serde(rename = "pc.desperation_stake")]
        pub pc_desperation_stake: Desperation,
    }
}

/// The mechanic `questworlds.wagered`.
pub struct WageredSequence;

impl Define for WageredSequence {
    type Params = WageredParams;
    type Trial = Sequenced<Wagered, 6>;
    const NAME: &'static str = "questworlds.wagered";
    const SUMMARY: &'static str =
        "Wagered sequence: pairs of exchanges staking advantage points until one side has none.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        sequence::schema(&[
            ("pc_ap", "The PC's advantage points at the end."),
            (
                "opponent_ap",
                "The opposition's advantage points at the end.",
            ),
        ])
    }

    /// The opponent is a character or a resistance, every starting AP
    /// (a TN) is at least 1, and the PC wagers no more than it has.
    fn check(&self, p: &WageredParams) -> Result<Vec<Warning>, ParamError> {
        let shared = p.shared();
        let (pc, opp) = shared.sides()?;
        for (key, r) in [("pc.rating", pc), (shared.opposition_key(), opp)] {
            if r.tn() < 1 {
                return Err(ParamError::new(
                    key,
                    format!(
                        "with its modifier the TN is {}; starting AP are the TN and must be ≥ 1",
                        r.tn()
                    ),
                ));
            }
        }
        let most = p.pc_wager.most();
        if most > pc.tn() {
            return Err(ParamError::new(
                "pc.wager",
                format!("{most} is more than the PC's starting AP ({})", pc.tn()),
            ));
        }
        Ok(Vec::new())
    }

    fn idle(&self, p: &WageredParams) -> Vec<&'static str> {
        p.shared().idle()
    }

    fn build(&self, p: WageredParams) -> Sequenced<Wagered, 6> {
        let shared = p.shared();
        // Who the PC faces is worked out again: the check kept nothing.
        let (pc, opp) = shared.sides().expect(CHECKED);
        let pc_wager = &p.pc_wager;
        let (opp_wager, desperation) = (p.opponent_wager, p.pc_desperation_stake);
        let parting = shared.parting;
        let wagered = Augmented::new(shared.augment, shared.resistance.base, |bonus| {
            Wagered::new(
                sequence::matchup(pc.plus(bonus), opp),
                pc_wager.clone(),
                opp_wager,
                desperation,
            )
            .with_parting_shots(parting.clone())
        });
        Sequenced::augmented(wagered, shared.max_rounds)
    }
}

pub mod best;
pub mod policy;
#[cfg(test)]
mod tests;
