//! What the three sequences (rules §4.5) share: the two sides' keys, the
//! outcome schema, the per-round contest table, and the model that runs a
//! sequence as an absorbing Markov chain (exact, by
//! [`crate::exact::markov::absorb`]) or round by round (Monte Carlo).
//!
//! Each sequence writes its rules once, as "what a round does to a state",
//! used both by the solver (over every contest outcome, weighted) and by
//! the simulator (over one sampled outcome), so the two can only disagree
//! through sampling error — which the agreement tests bound. Monte Carlo
//! works each state's rounds out once, by that same rule, in a memo
//! (module `memo`, which also holds [`Sequenced`]'s
//! [`Trial`](crate::model::Trial) impl),
//! drawing exactly the trials of the plain loop. What all
//! three add on top: the augment, settled once ([`super::augmented`]), and
//! the parting shot's keys, field and state ([`super::parting`]).

use std::collections::BTreeMap;
use std::ops::Deref;

use super::augmented::Augmented;
use super::outcomes::OutcomeTable;
use super::parting;
use super::rating::Rating;
use super::{AUGMENT, Exchange, MODIFIER, Matchup, RATING};
use crate::dice::DiceRng;
use crate::exact::Limits;
use crate::model::{After, Rounds, play};
use crate::systems::{FieldKind, FieldSpec, Lit, MetricSpec, ParamKind, ParamSpec, Pred, Schema};

/// Bounds of the exact solvers. Above `max_states` live states (e.g. a
/// wagered sequence between two high ratings with small wagers, whose
/// state is both AP totals) `exact` answers `None` and `--mode auto` falls
/// back to Monte Carlo.
pub const LIMITS: Limits = Limits {
    tolerance: 1e-12,
    max_rounds: 10_000,
    max_states: 20_000,
};

/// Labels of the `winner` field.
pub const WINNERS: [&str; 3] = ["pc", "opponent", "draw"];
pub const PC: i64 = 0;
pub const OPPONENT: i64 = 1;
pub const DRAW: i64 = 2;

/// The highest final degree of a sequence.
pub const MAX_DEGREE: i64 = 4;

/// The two sides' keys, shared by every sequence.
pub const SIDE_PARAMS: [ParamSpec; 5] = [
    ParamSpec {
        path: "pc.rating",
        kind: RATING,
        default: Lit::Str("15"),
        doc: "The PC's rating, e.g. 15, \"5M\", \"4M2\".",
    },
    ParamSpec {
        path: "pc.modifier",
        kind: MODIFIER,
        default: Lit::Int(0),
        doc: "Added to the PC's TN for the whole sequence (steps of 5).",
    },
    ParamSpec {
        path: "opponent.rating",
        kind: RATING,
        default: Lit::Absent,
        doc: "PC against PC: the other character's rating, instead of a resistance (`resistance.*`); at TN ≤ 0 every round is an assured PC victory.",
    },
    ParamSpec {
        path: "opponent.modifier",
        kind: MODIFIER,
        default: Lit::Int(0),
        doc: "Added to the other character's TN (steps of 5); needs `opponent.rating`.",
    },
    ParamSpec {
        path: "max_rounds",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: Lit::Int(DEFAULT_MAX_ROUNDS),
        doc: "A sequence still running after this many rounds ends in a draw (degree 0): the GM calls a stalemate. Without it, tactics like two defensive responses could lodge nothing forever.",
    },
];

/// `pc.augment`, for every sequence: settled once, then in effect in
/// every round.
pub const AUGMENT_PARAM: ParamSpec = ParamSpec {
    path: "pc.augment",
    kind: AUGMENT,
    default: Lit::Int(0),
    doc: "Augment to the PC's TN for the whole sequence (every round, and the parting shot): 0, 5, 10, or { rating = \"15\" } rolled once, before the first round, against `resistance.base` (victory of degree d: +5(d+1), at most +20; else +5). In a wagered sequence the augmented TN is also the starting AP.",
};

/// Rounds before a stalemate, by default.
pub const DEFAULT_MAX_ROUNDS: i64 = 100;

mod shared;
pub use shared::Shared;
pub(crate) use shared::sequence_params;

/// The round contest between the two sides (the opposition is a
/// resistance: at TN ≤ 0 the PC's victory is assured, so no sequence can
/// stall on endless ties).
pub fn matchup(pc: Rating, opp: Rating) -> Matchup {
    Matchup::against_resistance(pc, opp)
}

/// A round contest's outcomes with only what sequences read (verdict,
/// degree, big success), merged, with their probabilities.
pub fn round_table(m: &Matchup) -> Vec<(Exchange, f64)> {
    let mut merged: BTreeMap<Exchange, f64> = BTreeMap::new();
    for (ex, p) in m.probabilities() {
        *merged.entry(essential(ex)).or_insert(0.0) += p;
    }
    merged.into_iter().collect()
}

/// A round contest drawn the way [`Matchup::sample`] draws it (the same
/// stream, the same outcome), stripped to what sequences read: from a
/// table of the face pairs' outcomes built once, so a round judges
/// nothing.
#[derive(Clone, Debug)]
pub struct RoundSampler {
    matchup: Matchup,
    /// `None` only if a matchup had more than 256 distinct outcomes.
    table: Option<OutcomeTable>,
}

impl RoundSampler {
    #[inline]
    pub fn new(matchup: &Matchup) -> Self {
        RoundSampler {
            matchup: *matchup,
            table: OutcomeTable::read(matchup, essential),
        }
    }

    /// The table the contest is drawn from (`None`: judged every time).
    #[inline]
    pub fn table(&self) -> Option<&OutcomeTable> {
        self.table.as_ref()
    }

    /// One round's contest, as `essential(matchup.sample(rng))`.
    #[inline(always)]
    pub fn sample(&self, rng: &mut DiceRng) -> Exchange {
        match &self.table {
            Some(table) => table.sample(rng),
            None => essential(self.matchup.sample(rng)),
        }
    }
}

/// An exchange stripped to what sequences read.
#[inline]
pub fn essential(ex: Exchange) -> Exchange {
    Exchange {
        pc_successes: 0,
        story_points: 0,
        ..ex
    }
}

/// Fields `winner`, `rounds`, `degree`, then each sequence's tallies,
/// then `parting_shot`;
/// metrics `p_victory`, `p_defeat`, `p_draw`, `mean_rounds`,
/// `p_degree_0` … `p_degree_4`.
pub fn schema(tallies: &[(&'static str, &'static str)]) -> Schema {
    let mut fields = vec![
        FieldSpec::new(
            "winner",
            FieldKind::Category(WINNERS.to_vec()),
            "Who won the sequence (a draw when both sides fall at once, or at `max_rounds`).",
        ),
        FieldSpec::int("rounds", "Rounds played."),
        FieldSpec::int(
            "degree",
            "Final degree of victory or defeat, 0..=4, from the sequence's table.",
        ),
    ];
    for (name, doc) in tallies {
        fields.push(FieldSpec::int(*name, doc));
    }
    fields.push(FieldSpec::new(
        "parting_shot",
        FieldKind::Category(parting::RESULTS.to_vec()),
        "The parting shot: none taken; the last one worsened the defeat; it held (the loser stayed out); or one failed and brought the loser back.",
    ));
    let mut metrics = vec![
        MetricSpec::prob(
            "p_victory",
            0,
            Pred::Eq(PC),
            "Probability the PC wins the sequence.",
        ),
        MetricSpec::prob(
            "p_defeat",
            0,
            Pred::Eq(OPPONENT),
            "Probability the opposition wins the sequence.",
        ),
        MetricSpec::prob(
            "p_draw",
            0,
            Pred::Eq(DRAW),
            "Probability of a draw: both sides fall at once, or the sequence reaches `max_rounds`.",
        ),
        MetricSpec::mean("mean_rounds", 1, "Mean number of rounds."),
    ];
    const DEGREE_NAMES: [&str; 5] = [
        "p_degree_0",
        "p_degree_1",
        "p_degree_2",
        "p_degree_3",
        "p_degree_4",
    ];
    for (d, name) in DEGREE_NAMES.into_iter().enumerate() {
        metrics.push(MetricSpec::prob(
            name,
            2,
            Pred::Eq(d as i64),
            "Probability the final degree (either winner) is this.",
        ));
    }
    Schema { fields, metrics }
}

/// Most outcome fields of a sequence.
pub const MAX_FIELDS: usize = 8;

/// A finished sequence's outcome fields, held inline: a trial builds one,
/// and a heap allocation for it cost more than the rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    len: usize,
    values: [i64; MAX_FIELDS],
}

impl Fields {
    /// These values (at most [`MAX_FIELDS`]).
    #[inline]
    pub fn new(values: &[i64]) -> Self {
        let mut out = Fields {
            len: 0,
            values: [0; MAX_FIELDS],
        };
        out.extend(values);
        out
    }

    /// One more value at the end.
    #[inline]
    pub fn push(&mut self, value: i64) {
        self.values[self.len] = value;
        self.len += 1;
    }

    /// More values at the end.
    #[inline]
    pub fn extend(&mut self, values: &[i64]) {
        self.values[self.len..self.len + values.len()].copy_from_slice(values);
        self.len += values.len();
    }
}

impl<const K: usize> From<[i64; K]> for Fields {
    #[inline]
    fn from(values: [i64; K]) -> Self {
        Fields::new(&values)
    }
}

/// The values as the array of a sequence's `N` fields (what a tally
/// records, as [`Sequenced::sample`] gives them).
impl<const N: usize> From<Fields> for [i64; N] {
    #[inline]
    fn from(fields: Fields) -> Self {
        assert_eq!(fields.len, N, "a sequence's outcome has its N fields");
        std::array::from_fn(|i| fields.values[i])
    }
}

impl Deref for Fields {
    type Target = [i64];

    #[inline]
    fn deref(&self) -> &[i64] {
        &self.values[..self.len]
    }
}

impl AsRef<[i64]> for Fields {
    #[inline]
    fn as_ref(&self) -> &[i64] {
        self
    }
}

/// A sequence: its rounds (contest laws, rules and tactics, written once
/// for the solver and the sampler), and the tallies a stalemate reports.
///
/// Two promises let the `memo` module work each state's rounds out once:
/// every roll is the contest of [`Sequence::contest`] (`roll` draws from
/// it), and `after` reads its round only to write it into an ending's
/// `rounds` field (field 1).
pub trait Sequence: Rounds<Roll = Exchange, Outcome = Fields> + Send + 'static {
    /// The tallies (fields after `degree`) of `state`, for a stalemate.
    fn tallies(&self, state: &Self::State) -> Vec<i64>;

    /// The contest the next roll in `state` draws from.
    fn contest(&self, state: &Self::State) -> &RoundSampler;
}

/// A draw at round `round` with the tallies of the state it stopped in.
pub(super) fn stalemate<Q: Sequence>(q: &Q, round: usize, state: &Q::State) -> Fields {
    let mut out = Fields::from([DRAW, round as i64, 0]);
    out.extend(&q.tallies(state));
    out
}

/// A sequence cut at `max_rounds`: still running after that round, it is a
/// draw (the GM calls a stalemate). Public for `benches/chain.rs`, which
/// plays it through the generic chain beside the memo.
pub struct Capped<'a, Q> {
    pub sequence: &'a Q,
    pub max_rounds: usize,
}

impl<Q: Sequence> Rounds for Capped<'_, Q> {
    type State = Q::State;
    type Roll = Q::Roll;
    type Outcome = Fields;

    fn start(&self) -> Q::State {
        self.sequence.start()
    }

    fn law(&self, round: usize, state: &Q::State, out: &mut Vec<(Q::Roll, f64)>) {
        self.sequence.law(round, state, out)
    }

    fn pack(&self, state: &Q::State) -> Option<u64> {
        self.sequence.pack(state)
    }

    /// A sequence's rules are the same in every round ([`Sequence`]'s
    /// promise): the round only caps it and counts its `rounds`.
    fn homogeneous(&self) -> Option<usize> {
        Some(self.max_rounds)
    }

    /// The sequence's own draw (not the provided one, which would ignore
    /// it).
    #[inline]
    fn roll(&self, round: usize, state: &Q::State, rng: &mut DiceRng) -> Q::Roll {
        self.sequence.roll(round, state, rng)
    }

    #[inline]
    fn after(&self, round: usize, state: &Q::State, roll: &Q::Roll) -> After<Q::State, Fields> {
        self.cut(round, self.sequence.after(round, state, roll))
    }
}

impl<Q: Sequence> Capped<'_, Q> {
    /// What the sequence made of a roll in round `round`, with the round
    /// cap applied: a round that would follow the last is a stalemate.
    #[inline]
    pub fn cut(&self, round: usize, after: After<Q::State, Fields>) -> After<Q::State, Fields> {
        match after {
            After::Round(next) if round >= self.max_rounds => {
                After::End(stalemate(self.sequence, round, &next))
            }
            other => other,
        }
    }
}

/// A sequence with `N` outcome fields, cut at `max_rounds`: the trial of
/// every sequence mechanic.
pub struct Sequenced<Q: Sequence, const N: usize> {
    /// The sequence, once for each bonus its augment can give.
    pub sequence: Augmented<Q>,
    /// Rounds before a stalemate.
    pub max_rounds: usize,
}

impl<Q: Sequence, const N: usize> Sequenced<Q, N> {
    /// A sequence without an augment.
    pub fn new(sequence: Q, max_rounds: usize) -> Self {
        Self::augmented(Augmented::none(sequence), max_rounds)
    }

    /// A sequence under an augment (its arms built by [`Augmented::new`]).
    pub fn augmented(sequence: Augmented<Q>, max_rounds: usize) -> Self {
        Sequenced {
            sequence,
            max_rounds,
        }
    }

    pub(super) fn capped<'a>(&self, sequence: &'a Q) -> Capped<'a, Q> {
        Capped {
            sequence,
            max_rounds: self.max_rounds,
        }
    }

    /// Run one whole sequence (the augment drawn first), by the plain
    /// loop of [`play`]; [`Trial::simulate`](crate::model::Trial::simulate) (in the `memo` module, below
    /// this one) draws the same trials through the memo of each arm.
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; N] {
        let sequence = self.sequence.pick(rng);
        let outcome = play(&self.capped(sequence), rng);
        // Every sequence builds outcomes of exactly N values.
        std::array::from_fn(|i| outcome[i])
    }
}

/// Test helpers shared by the sequences' tests (the agreement check
/// itself is [`crate::systems::testing`]).
#[cfg(test)]
pub mod testing {
    use super::super::{Exchange, Verdict};
    use super::{Capped, Sequence, Sequenced};
    use crate::systems::testing::{
        assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies,
        assert_roll_is_law,
    };
    use crate::systems::{Model, ParamMap, ParamValue, Trial};

    /// The chain on a sequence (no augment) cut at its round cap, a
    /// [`Capped`], is the walk of every path of at most `max_rolls`
    /// rolls; the sequence's roll draws its law, and the chain's sampler
    /// samples as the sequence's memo. Returns the
    /// probability the walk lost.
    pub fn assert_capped_is_enumeration<Q: Sequence, const N: usize>(
        sequenced: &Sequenced<Q, N>,
        max_rolls: usize,
        what: &str,
    ) -> f64 {
        let mut arms = sequenced.sequence.arms();
        let (_, _, sequence) = arms.next().expect("a sequence");
        assert!(arms.next().is_none(), "{what}: one arm, no augment");
        let capped = Capped {
            sequence,
            max_rounds: sequenced.max_rounds,
        };
        let (exact, lost) = assert_chain_is_enumeration(&capped, N, max_rolls, what);
        assert_roll_is_law(&capped, &capped, 5_000, what);
        let tally = assert_chain_samples_as::<_, N>(
            &capped,
            20_000,
            |rng, n, t| sequenced.simulate(rng, n, t),
            what,
        );
        assert_frequencies(&tally, &exact, what);
        lost
    }

    pub fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
        ParamMap::from_pairs(pairs)
    }

    /// P(winner = pc) of an exact solve.
    pub fn p_victory(model: &dyn Model) -> f64 {
        let m = model.exact().expect("solvable");
        m.field(0).get(&0).copied().unwrap_or(0.0)
    }

    /// A scripted exchange for hand-worked rounds: what sequences read of
    /// a contest (no PC successes, no story points).
    pub fn ex(verdict: Verdict, degree: i64, victor_big: bool) -> Exchange {
        Exchange {
            verdict,
            degree,
            pc_successes: 0,
            story_points: 0,
            victor_big,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::values;
    use crate::systems::ParamValue::{Int, Str};
    use crate::systems::questworlds::chained::ChainedSequence;
    use crate::systems::questworlds::scored::ScoredSequence;
    use crate::systems::questworlds::wagered::WageredSequence;
    use crate::systems::{Mechanic, ParamValue};

    fn solve(m: &dyn Mechanic, pairs: &[(&str, ParamValue)]) -> crate::model::Marginals {
        m.prepare(&values(pairs)).unwrap().exact().unwrap()
    }

    /// rules §4.5 (corrected 2026-11-22): the opposition of a sequence
    /// is a resistance with the keys of `questworlds.contest`.
    #[test]
    fn sequences_face_a_resistance_as_a_contest_does() {
        let mechanics: [&dyn Mechanic; 3] = [&ScoredSequence, &WageredSequence, &ChainedSequence];
        for m in mechanics {
            let pc = ("pc.rating", Str("5M".into()));
            // hard = base 10 + 10 = 20, as a PC against a rating-20 character.
            let hard = solve(m, &[pc.clone(), ("resistance.level", Str("hard".into()))]);
            assert_eq!(hard, solve(m, &[pc.clone(), ("opponent.rating", Int(20))]));
            assert_eq!(
                hard,
                solve(m, &[pc.clone(), ("resistance.rating", Int(20))])
            );
            // A level applies to the base resistance.
            let on_base = solve(
                m,
                &[
                    pc.clone(),
                    ("resistance.level", Str("easy".into())),
                    ("resistance.base", Str("1M".into())),
                ],
            );
            assert_eq!(
                on_base,
                solve(m, &[pc.clone(), ("resistance.rating", Int(6))])
            );
            // The default is the base resistance, 10: the numbers of before.
            assert_eq!(
                solve(m, std::slice::from_ref(&pc)),
                solve(m, &[pc.clone(), ("opponent.rating", Int(10))])
            );
            // A resistance and a character at once is an error naming the key.
            let err = m
                .check(&values(&[
                    ("opponent.rating", Int(12)),
                    ("resistance.level", Str("hard".into())),
                ]))
                .err()
                .unwrap();
            assert_eq!(err.key, "resistance.level", "{}", m.name());
            let err = m
                .check(&values(&[("opponent.modifier", Int(5))]))
                .err()
                .unwrap();
            assert_eq!(err.key, "opponent.rating", "{}", m.name());
        }
    }

    #[test]
    fn sequences_report_defeat_and_draw_beside_victory() {
        // Two defensive sides at a short cap: draws happen and show.
        let model = ScoredSequence
            .prepare(&values(&[
                ("pc.defensive_response", Str("always".into())),
                ("opponent.defensive_response", Str("always".into())),
                ("max_rounds", Int(3)),
            ]))
            .unwrap();
        let exact = model.exact().unwrap();
        let names: Vec<&str> = model
            .schema()
            .metrics
            .iter()
            .map(|m| m.name.as_str())
            .collect();
        assert_eq!(&names[..3], ["p_victory", "p_defeat", "p_draw"]);
        let value = |i: usize| crate::stats::exact_value(&model.schema().metrics[i], &exact).value;
        assert!(value(2) > 0.0, "a draw at the round cap is visible");
        assert!((value(0) + value(1) + value(2) - 1.0).abs() < 1e-12);
    }
}
