//! `gateway.scene`: a drama scene between two sides on one tension line
//! (RULES.md §1.2).
//!
//! Each round both sides act, the initiative holder first: a side whose
//! edge advantage has reached the climax ladder attempts a Climax, a side
//! behind when the ladder is at 0 attempts an Anticlimax (escape), any
//! other takes an Edge action. Every action is a §1.1 challenge against the
//! other side. Only the holder of the edge adds its edge score, when it acts
//! and when it is targeted (RULES.md §1.2, corrected 2026-11-22), so an
//! action's margin moves by the roller's signed advantage, once. The exact solver is an absorbing Markov chain over (edge,
//! initiative) states, the ladder being a function of the round; it and
//! the simulation share the round logic below, so they differ only in
//! branching versus sampling.

use super::challenge::{Contest, Pool, RAISE_STEP, Relevance, TRAIT_NAMES, character};
use crate::dice::DiceRng;
use crate::dist::{After, Limits, Marginals, Rounds, play, solve};
use crate::sim::Tally;
use crate::systems::{
    Args, Choice, Define, FieldKind, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec,
    Pred, Schema, Trial,
};

/// Side A's character keys, as `gateway.challenge`'s `actor.*`.
const A: [ParamSpec; 6] = character_params!("a", "side A");
/// Side B's character keys, as `gateway.challenge`'s `actor.*`.
const B: [ParamSpec; 6] = character_params!("b", "side B");

/// One side's policy keys.
macro_rules! policy_params {
    ($side:literal) => {
        [
            ParamSpec {
                path: concat!($side, ".edge_raises"),
                kind: ParamKind::Int { min: 0, max: 5 },
                default: Lit::Int(0),
                doc: "Raises taken on Edge actions: +2 to the target each, and the edge moves 1 + raises steps on success.",
            },
            ParamSpec {
                path: concat!($side, ".climax"),
                kind: ParamKind::Bool,
                default: Lit::Bool(true),
                doc: "Attempt a Climax whenever the edge advantage is at least the ladder (false: keep taking Edge actions).",
            },
            ParamSpec {
                path: concat!($side, ".anticlimax"),
                kind: ParamKind::Bool,
                default: Lit::Bool(true),
                doc: "Attempt an Anticlimax (escape) when behind on the edge and the ladder is at 0 (false: keep taking Edge actions).",
            },
        ]
    };
}

const A_POLICY: [ParamSpec; 3] = policy_params!("a");
const B_POLICY: [ParamSpec; 3] = policy_params!("b");

crate::choice! {
    /// Who holds the initiative in round 1.
    pub enum Initiative {
        A = "a",
        B = "b",
        /// A fair coin.
        Random = "random",
    }
}

static PARAMS: [ParamSpec; 22] = [
    A[0],
    A[1],
    A[2],
    A[3],
    A[4],
    A[5],
    A_POLICY[0],
    A_POLICY[1],
    A_POLICY[2],
    B[0],
    B[1],
    B[2],
    B[3],
    B[4],
    B[5],
    B_POLICY[0],
    B_POLICY[1],
    B_POLICY[2],
    ParamSpec {
        path: "ladder",
        kind: ParamKind::Int { min: 0, max: 50 },
        default: Lit::Int(10),
        doc: "Starting score on the climax ladder; it drops by 1 at the end of every round, to 0.",
    },
    ParamSpec {
        path: "start_edge",
        kind: ParamKind::Int { min: -50, max: 50 },
        default: Lit::Int(0),
        doc: "Starting edge, from A's side: positive means A has the edge.",
    },
    ParamSpec {
        path: "round_cap",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: Lit::Int(100),
        doc: "Rounds after which the scene ends as a stalemate.",
    },
    ParamSpec {
        path: "initiative",
        kind: ParamKind::Choice(Initiative::NAMES),
        default: Lit::Str("a"),
        doc: "Who acts first in round 1: \"a\", \"b\", or \"random\" (a fair coin).",
    },
];

/// Values of the `winner` field.
pub const A_CLIMAX: i64 = 0;
pub const B_CLIMAX: i64 = 1;
pub const A_ESCAPE: i64 = 2;
pub const B_ESCAPE: i64 = 3;
pub const STALEMATE: i64 = 4;
const WINNERS: [&str; 5] = ["a_climax", "b_climax", "a_escape", "b_escape", "stalemate"];

/// What a side does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Climax,
    Anticlimax,
    Edge,
}

/// One side: its challenges against the other, and its policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// Its Climax and Anticlimax challenge (no chosen raises), edge not
    /// included.
    pub plain: Contest,
    /// Its Edge challenge, with `edge_raises` raises, edge not included.
    pub edge: Contest,
    pub edge_raises: u32,
    pub climax: bool,
    pub anticlimax: bool,
}

impl Side {
    /// The action this side takes with edge advantage `adv` at ladder `ladder`.
    pub fn action(&self, adv: i64, ladder: i64) -> Action {
        if self.climax && adv >= ladder {
            Action::Climax
        } else if self.anticlimax && adv < 0 && ladder == 0 {
            Action::Anticlimax
        } else {
            Action::Edge
        }
    }

    fn contest(&self, action: Action) -> &Contest {
        match action {
            Action::Edge => &self.edge,
            _ => &self.plain,
        }
    }

    /// Exact P(success) of `action` with edge advantage `adv`.
    pub fn p_success(&self, action: Action, adv: i64) -> f64 {
        let m = self.contest(action).margin_counts();
        let wins: u128 = m
            .iter()
            .filter(|&(v, _)| edged(v, adv) >= 0)
            .map(|(_, w)| w)
            .sum();
        wins as f64 / m.total() as f64
    }

    /// One roll of `action` with edge advantage `adv`.
    #[inline]
    pub fn succeeds(&self, action: Action, adv: i64, rng: &mut DiceRng) -> bool {
        edged(self.contest(action).sample_margin(rng), adv) >= 0
    }
}

/// An action's margin once the edge is counted, `adv` being the roller's
/// signed edge. Only the holder has an edge score: it adds |e| to its result
/// when it acts (adv = +|e|) and to its DT when it is targeted (adv = −|e|);
/// the other side adds nothing, so the margin moves by `adv`, not `2·adv`
/// ("On any action you perform, you gain a bonus … equal to your edge score.
/// Similarly, when you are targeted … you add your edge score to the DT").
#[inline]
pub fn edged(margin: i64, adv: i64) -> i64 {
    margin + adv
}

/// `P(edged(margin, adv) ≥ 0)` of one challenge for every edge advantage, read
/// from tail sums of its exact margin law computed once: the chain asks for
/// it in every state of every round.
struct Tail {
    min: i64,
    /// `at_least[k]` = P(margin ≥ min + k).
    at_least: Vec<f64>,
}

impl Tail {
    fn new(contest: &Contest) -> Self {
        let m = contest.margin_counts();
        let total = m.total() as f64;
        let max = m.iter().last().map_or(m.min(), |(v, _)| v);
        let mut at_least = vec![0.0; (max - m.min() + 1) as usize];
        let mut tail = 0u128;
        for v in (m.min()..=max).rev() {
            tail += m.weight(v);
            at_least[(v - m.min()) as usize] = tail as f64 / total;
        }
        Tail {
            min: m.min(),
            at_least,
        }
    }

    fn p(&self, adv: i64) -> f64 {
        // edged(v, adv) ≥ 0 ⇔ v ≥ −adv.
        let k = -adv - self.min;
        if k <= 0 {
            1.0
        } else {
            self.at_least.get(k as usize).copied().unwrap_or(0.0)
        }
    }
}

/// A fully checked scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duel {
    /// Side A (index 0) and side B (index 1).
    pub sides: [Side; 2],
    pub ladder: i64,
    pub start_edge: i64,
    pub round_cap: u32,
    /// Who acts first in round 1.
    pub initiative: Initiative,
}

/// What one action leaves behind.
enum Effect {
    /// The scene is over; the winner code.
    Ends(i64),
    /// The edge is now this.
    Edge(i64),
}

impl Duel {
    /// The ladder during round `round` (from 1).
    pub fn ladder_in(&self, round: u32) -> i64 {
        (self.ladder - (round as i64 - 1)).max(0)
    }

    /// Side `who`'s action at edge `e` in a round with ladder `ladder`.
    fn action(&self, who: usize, e: i64, ladder: i64) -> (Action, i64) {
        let adv = if who == 0 { e } else { -e };
        (self.sides[who].action(adv, ladder), adv)
    }

    /// The effect of side `who`'s `action` succeeding or not, at edge `e`.
    fn effect(&self, who: usize, action: Action, success: bool, e: i64) -> Effect {
        if !success {
            return Effect::Edge(e);
        }
        let sign = if who == 0 { 1 } else { -1 };
        match action {
            Action::Climax => Effect::Ends(if who == 0 { A_CLIMAX } else { B_CLIMAX }),
            Action::Anticlimax => Effect::Ends(if who == 0 { A_ESCAPE } else { B_ESCAPE }),
            Action::Edge => Effect::Edge(e + sign * (1 + self.sides[who].edge_raises as i64)),
        }
    }

    /// Initiative after a round led by `first`, given the successes in
    /// acting order: whoever alone succeeded, else the holder keeps it.
    fn next_initiative(first: usize, ok: [bool; 2]) -> usize {
        match (ok[0], ok[1]) {
            (true, false) => first,
            (false, true) => 1 - first,
            _ => first,
        }
    }

    /// The outcome `[winner, rounds, final_edge, escaped]`.
    fn outcome(winner: i64, round: u32, e: i64) -> Outcome {
        let escaped = winner == A_ESCAPE || winner == B_ESCAPE;
        [winner, round as i64, e, escaped as i64]
    }

    /// Exact marginals: an absorbing chain over (edge, initiative) between
    /// rounds.
    pub fn exact(&self) -> Option<Marginals> {
        DuelRounds::new(*self).exact()
    }
}

/// A scene's outcome `[winner, rounds, final_edge, escaped]`.
type Outcome = [i64; 4];

/// Where a scene stands. Between rounds only `First` occurs, so the
/// solver's states are (edge, initiative holder).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SceneState {
    /// Round 1 with a random first mover: the coin is yet to fall.
    Coin { e: i64 },
    /// Side `first` (the initiative holder) is about to act.
    First { e: i64, first: u8 },
    /// The other side is about to act; `ok1`: the first action succeeded.
    Second { e: i64, first: u8, ok1: bool },
}

/// A duel with the success law of each side's challenges precomputed: what
/// the solver and the sampler both run on.
pub struct DuelRounds {
    pub duel: Duel,
    /// Per side: its Climax/Anticlimax and its Edge challenge.
    tails: [[Tail; 2]; 2],
}

impl DuelRounds {
    pub fn new(duel: Duel) -> DuelRounds {
        DuelRounds {
            tails: duel
                .sides
                .map(|s| [Tail::new(&s.plain), Tail::new(&s.edge)]),
            duel,
        }
    }

    /// Who acts now, what, and with which advantage.
    fn actor(&self, round: usize, state: &SceneState) -> (usize, Action, i64) {
        let ladder = self.duel.ladder_in(round as u32);
        let (who, e) = match *state {
            SceneState::Coin { .. } => unreachable!("the coin is not an action"),
            SceneState::First { e, first } => (first as usize, e),
            SceneState::Second { e, first, .. } => (1 - first as usize, e),
        };
        let (action, adv) = self.duel.action(who, e, ladder);
        (who, action, adv)
    }

    pub fn exact(&self) -> Option<Marginals> {
        let limits = Limits {
            max_rounds: self.duel.round_cap as usize + 1,
            ..Limits::default()
        };
        solve(self, 4, limits).map(|solved| solved.marginals)
    }
}

impl Rounds for DuelRounds {
    type State = SceneState;
    /// The coin's first mover, or 1 for a successful action, 0 for a
    /// failed one.
    type Roll = u8;
    type Outcome = Outcome;

    fn start(&self) -> SceneState {
        let e = self.duel.start_edge;
        match self.duel.initiative {
            Initiative::A => SceneState::First { e, first: 0 },
            Initiative::B => SceneState::First { e, first: 1 },
            Initiative::Random => SceneState::Coin { e },
        }
    }

    fn law(&self, round: usize, state: &SceneState, out: &mut Vec<(u8, f64)>) {
        if let SceneState::Coin { .. } = state {
            out.extend([(0, 0.5), (1, 0.5)]);
            return;
        }
        let (who, action, adv) = self.actor(round, state);
        let p = self.tails[who][usize::from(action == Action::Edge)].p(adv);
        out.extend([(1, p), (0, 1.0 - p)]);
    }

    #[inline]
    fn roll(&self, round: usize, state: &SceneState, rng: &mut DiceRng) -> u8 {
        if let SceneState::Coin { .. } = state {
            return rng.bits(1) as u8;
        }
        let (who, action, adv) = self.actor(round, state);
        self.duel.sides[who].succeeds(action, adv, rng) as u8
    }

    #[inline]
    fn after(&self, round: usize, state: &SceneState, &roll: &u8) -> After<SceneState, Outcome> {
        let round32 = round as u32;
        match *state {
            SceneState::Coin { e } => After::Roll(SceneState::First { e, first: roll }),
            SceneState::First { e, first } => {
                let (who, action, _) = self.actor(round, state);
                match self.duel.effect(who, action, roll == 1, e) {
                    Effect::Ends(w) => After::End(Duel::outcome(w, round32, e)),
                    Effect::Edge(e1) => After::Roll(SceneState::Second {
                        e: e1,
                        first,
                        ok1: roll == 1,
                    }),
                }
            }
            SceneState::Second { e, first, ok1 } => {
                let (who, action, _) = self.actor(round, state);
                match self.duel.effect(who, action, roll == 1, e) {
                    Effect::Ends(w) => After::End(Duel::outcome(w, round32, e)),
                    Effect::Edge(e2) if round32 >= self.duel.round_cap => {
                        After::End(Duel::outcome(STALEMATE, round32, e2))
                    }
                    Effect::Edge(e2) => {
                        let holder = Duel::next_initiative(first as usize, [ok1, roll == 1]);
                        After::Round(SceneState::First {
                            e: e2,
                            first: holder as u8,
                        })
                    }
                }
            }
        }
    }
}

/// One side's challenge pool and forced raises, with its policy.
fn side_from(args: &Args, me: &str, other: &str) -> Result<Side, ParamError> {
    let (pool, forced) = character(args, me)?;
    let (target, target_forced) = character(args, other)?;
    // As in `gateway.challenge` against a character: a target with a
    // partially relevant background pays its 2 points, and the roller's own
    // forced raise adds 2 to the target.
    let target = Pool {
        dice: target.dice,
        bonus: target.bonus - RAISE_STEP * target_forced as i64,
    };
    let contest = |raises: u32| {
        let mut c = Contest::new(pool, target, raises, 0);
        c.opposition.bonus += RAISE_STEP * forced as i64;
        c
    };
    let edge_raises = args.int(&format!("{me}.edge_raises"))? as u32;
    Ok(Side {
        plain: contest(0),
        edge: contest(edge_raises),
        edge_raises,
        climax: args.bool(&format!("{me}.climax"))?,
        anticlimax: args.bool(&format!("{me}.anticlimax"))?,
    })
}

impl Trial for DuelRounds {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        tally.record_trials(rng, trials, |rng| play(self, rng));
    }

    fn exact(&self) -> Option<Marginals> {
        DuelRounds::exact(self)
    }
}

/// The mechanic `gateway.scene` (RULES.md §1.2).
pub struct Scene;

impl Define for Scene {
    type Trial = DuelRounds;
    const NAME: &'static str = "gateway.scene";
    const SUMMARY: &'static str = "A drama scene: sides A and B trade Edge, Climax and Anticlimax challenges on one tension line as the climax ladder falls.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::new(
                    "winner",
                    FieldKind::Category(WINNERS.to_vec()),
                    "How the scene ended: a side's Climax, a side's escape (Anticlimax), or a stalemate at the round cap.",
                ),
                FieldSpec::int("rounds", "Rounds played."),
                FieldSpec::int("final_edge", "Edge at the end, from A's side."),
                FieldSpec::bool("escaped", "Either side escaped."),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_a_wins",
                    0,
                    Pred::Eq(A_CLIMAX),
                    "Probability A brings the scene to its climax.",
                ),
                MetricSpec::prob(
                    "p_b_wins",
                    0,
                    Pred::Eq(B_CLIMAX),
                    "Probability B brings the scene to its climax.",
                ),
                MetricSpec::prob(
                    "p_escape",
                    3,
                    Pred::Eq(1),
                    "Probability either side escapes.",
                ),
                MetricSpec::mean("mean_rounds", 1, "Mean rounds played."),
                MetricSpec::prob(
                    "p_rounds_le_5",
                    1,
                    Pred::Le(5),
                    "Probability the scene ends within 5 rounds.",
                ),
                MetricSpec::prob(
                    "p_rounds_le_10",
                    1,
                    Pred::Le(10),
                    "Probability the scene ends within 10 rounds.",
                ),
            ],
        }
    }

    /// The scene a set of scenario values describes.
    fn build(&self, args: &Args) -> Result<DuelRounds, ParamError> {
        Ok(DuelRounds::new(Duel {
            sides: [side_from(args, "a", "b")?, side_from(args, "b", "a")?],
            ladder: args.int("ladder")?,
            start_edge: args.int("start_edge")?,
            round_cap: args.int("round_cap")? as u32,
            initiative: args.choice_of("initiative")?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Plan, simulate};
    use crate::stats::estimate;
    use crate::systems::ParamValue::{self, *};
    use crate::systems::testing::{Sample, assert_agrees};
    use crate::systems::{Mechanic, ParamMap};

    fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
        ParamMap::from_pairs(pairs)
    }

    fn duel_from(values: &ParamMap) -> Result<Duel, ParamError> {
        Scene.trial(values).map(|rounds| rounds.duel)
    }

    #[test]
    fn sides_take_the_actor_keys_and_defaults_of_a_challenge() {
        let d = duel_from(&ParamMap::new()).unwrap();
        let full = Pool { dice: 3, bonus: 0 };
        assert_eq!(d.sides[0].plain, Contest::new(full, full, 0, 0));
        assert_eq!(
            (d.ladder, d.start_edge, d.round_cap, d.initiative),
            (10, 0, 100, Initiative::A)
        );
        let d = duel_from(&values(&[
            ("a.trait", Str("partial".into())),
            ("a.background", Int(3)),
            ("a.background_relevance", Str("partial".into())),
            ("a.edge_raises", Int(2)),
            ("b.trait", Int(1)),
            ("b.equipment", Int(4)),
        ]))
        .unwrap();
        // A: 2d8 + 3, one forced raise (+2 to B), two chosen on Edge (+4).
        assert_eq!(d.sides[0].plain.actor, Pool { dice: 2, bonus: 3 });
        assert_eq!(
            d.sides[0].plain.opposition,
            Pool {
                dice: 1,
                bonus: 2 + 2
            }
        );
        assert_eq!(
            d.sides[0].edge.opposition,
            Pool {
                dice: 1,
                bonus: 2 + 2 + 4
            }
        );
        // B against A: A pays its partial background's 2 points as target.
        assert_eq!(
            d.sides[1].plain.opposition,
            Pool {
                dice: 2,
                bonus: 3 - 2
            }
        );
        let err = duel_from(&values(&[("a.trait", Int(9))])).unwrap_err();
        assert_eq!(err.key, "a.trait");
    }

    #[test]
    fn tail_sums_equal_the_direct_sum() {
        let d = duel_from(&values(&[
            ("a.trait", Int(2)),
            ("a.edge_raises", Int(2)),
            ("b.background", Int(3)),
        ]))
        .unwrap();
        for side in d.sides {
            for (action, contest) in [(Action::Climax, side.plain), (Action::Edge, side.edge)] {
                let tail = Tail::new(&contest);
                for adv in -15..=15 {
                    assert_eq!(tail.p(adv), side.p_success(action, adv), "{action:?} {adv}");
                }
            }
        }
    }

    #[test]
    fn policy_follows_the_ladder_and_the_edge() {
        let side = duel_from(&ParamMap::new()).unwrap().sides[0];
        assert_eq!(side.action(3, 3), Action::Climax);
        assert_eq!(side.action(2, 3), Action::Edge);
        assert_eq!(side.action(-1, 0), Action::Anticlimax);
        assert_eq!(side.action(-1, 1), Action::Edge);
        assert_eq!(side.action(0, 0), Action::Climax);
        let cautious = Side {
            climax: false,
            anticlimax: false,
            ..side
        };
        assert_eq!(cautious.action(3, 3), Action::Edge);
        assert_eq!(cautious.action(-1, 0), Action::Edge);
    }

    #[test]
    fn ladder_zero_is_a_climax_race_by_hand() {
        // 1d8 against 1d8 at ladder 0, edge 0: both sides attempt a Climax
        // every round, each succeeding with p = 36/64 (ties to the roller).
        // A first: P(A) = p / (1 − q²), q = 28/64; P(rounds = 1) = 1 − q².
        let d = duel_from(&values(&[
            ("a.trait", Int(1)),
            ("b.trait", Int(1)),
            ("ladder", Int(0)),
        ]))
        .unwrap();
        let m = d.exact().unwrap();
        let (p, q) = (36.0 / 64.0, 28.0 / 64.0);
        assert!((m.field(0)[&A_CLIMAX] - p / (1.0 - q * q)).abs() < 1e-12);
        assert!((m.field(0)[&B_CLIMAX] - q * p / (1.0 - q * q)).abs() < 1e-12);
        assert!((m.field(1)[&1] - (1.0 - q * q)).abs() < 1e-12);
        assert!((m.field(1)[&3] - q.powi(4) * (1.0 - q * q)).abs() < 1e-12);
    }

    #[test]
    fn one_edge_round_by_hand() {
        // Ladder 1, round cap 1: both sides take an Edge action (adv 0 < 1).
        // A: 1d8+8 against 1d8 always succeeds: edge +1. B then rolls 1d8
        // against 1d8+8 with advantage −1: margin ≤ 7 − 8 − 2 < 0, fails.
        // Stalemate after one round at edge +1.
        let d = duel_from(&values(&[
            ("a.trait", Int(1)),
            ("a.background", Int(6)),
            ("a.specialisation", Bool(true)),
            ("b.trait", Int(1)),
            ("ladder", Int(1)),
            ("round_cap", Int(1)),
        ]))
        .unwrap();
        let m = d.exact().unwrap();
        assert_eq!(m.field(0)[&STALEMATE], 1.0);
        assert_eq!(m.field(2)[&1], 1.0);
        // Round 2 with a higher cap: ladder 0, A's advantage 1 ≥ 0: Climax,
        // always succeeding.
        let d = Duel { round_cap: 5, ..d };
        let m = d.exact().unwrap();
        assert_eq!(m.field(0)[&A_CLIMAX], 1.0);
        assert_eq!(m.field(1)[&2], 1.0);
    }

    /// Ten scenes exercising every rule: edges, raises, escapes, stalemates,
    /// both initiatives, partial backgrounds.
    fn ten_configs() -> Vec<ParamMap> {
        let cfg = |pairs: &[(&str, ParamValue)]| values(pairs);
        vec![
            cfg(&[]),
            cfg(&[("ladder", Int(2)), ("a.trait", Int(1)), ("b.trait", Int(4))]),
            cfg(&[
                ("ladder", Int(5)),
                ("start_edge", Int(-2)),
                ("initiative", Str("b".into())),
            ]),
            cfg(&[
                ("ladder", Int(3)),
                ("a.edge_raises", Int(1)),
                ("b.background", Int(2)),
            ]),
            cfg(&[
                ("ladder", Int(6)),
                ("initiative", Str("random".into())),
                ("b.trait", Int(2)),
            ]),
            cfg(&[
                ("ladder", Int(4)),
                ("a.climax", Bool(false)),
                ("round_cap", Int(12)),
            ]),
            cfg(&[
                ("ladder", Int(0)),
                ("start_edge", Int(-1)),
                ("b.climax", Bool(false)),
            ]),
            cfg(&[
                ("ladder", Int(8)),
                ("a.background", Int(2)),
                ("a.background_relevance", Str("partial".into())),
                ("b.edge_raises", Int(2)),
            ]),
            cfg(&[
                ("ladder", Int(12)),
                ("a.trait", Int(2)),
                ("b.trait", Int(2)),
                ("round_cap", Int(8)),
            ]),
            cfg(&[
                ("ladder", Int(3)),
                ("a.anticlimax", Bool(false)),
                ("b.equipment", Int(2)),
                ("start_edge", Int(1)),
            ]),
        ]
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_ten_configs() {
        for (i, values) in ten_configs().iter().enumerate() {
            let m = Scene.prepare(values).unwrap();
            assert_agrees(
                m.as_ref(),
                Sample::seed(12).config(i),
                &format!("config {i}"),
            );
        }
    }

    #[test]
    fn symmetric_duel_with_random_initiative_is_fair() {
        let values = values(&[
            ("a.trait", Int(2)),
            ("b.trait", Int(2)),
            ("ladder", Int(6)),
            ("initiative", Str("random".into())),
        ]);
        let m = Scene.prepare(&values).unwrap();
        let exact = m.exact().unwrap();
        assert!((exact.field(0)[&A_CLIMAX] - exact.field(0)[&B_CLIMAX]).abs() < 1e-12);
        let plan = Plan {
            seed: 3,
            trials: 1_000_000,
            precision: None,
        };
        let tally = simulate(&[(0, m.as_ref())], &plan, &()).remove(0);
        let metrics = &m.schema().metrics;
        let a = estimate(&metrics[0], &tally);
        let b = estimate(&metrics[1], &tally);
        // A's and B's wins are exclusive: var(p̂a − p̂b) = (pa + pb − (pa − pb)²)/n.
        let n = tally.trials() as f64;
        let se = ((a.value + b.value - (a.value - b.value).powi(2)) / n).sqrt();
        assert!(
            (a.value - b.value).abs() < 2.0 * se,
            "{} vs {} (se {se})",
            a.value,
            b.value
        );
        // With A always first the duel is not fair: first mover's advantage.
        let first = Scene
            .prepare(&super::tests::values(&[
                ("a.trait", Int(2)),
                ("b.trait", Int(2)),
                ("ladder", Int(6)),
            ]))
            .unwrap()
            .exact()
            .unwrap();
        assert!(first.field(0)[&A_CLIMAX] > first.field(0)[&B_CLIMAX] + 0.01);
    }
}
