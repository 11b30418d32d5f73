//! `questworlds.prize` (rules §4.4): one prize among many. Every
//! contestant rolls against its own rating; the most successes wins, then
//! the highest roll; otherwise the prize is shared. Exact as P(one
//! contestant's (successes, face) beats every other's), key by key.

use super::group::{RATINGS, by_face, faces};
use super::{Rating, Roll};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Define, FieldSpec, Lit, MetricSpec, ParamError, ParamSpec, Pred, Schema, Trial, Warning,
};

/// One prize among several contestants; the first is the PC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prize {
    pub contestants: Vec<Rating>,
}

impl Prize {
    /// A roll's key for the exact solver: successes, then face.
    fn key(r: Roll) -> (i64, i64) {
        (r.successes, r.face)
    }

    /// A roll's rank for the sampler: [`Prize::key`] in one number (a
    /// face is below 32, so the order of ranks is the order of keys).
    fn rank(r: Roll) -> i64 {
        r.successes * 32 + r.face
    }

    /// `[winner, pc_wins, shared]` of the contestants' rolls: `winner` is
    /// the 1-based contestant, 0 when the best rolls are equal (shared).
    pub fn outcome(rolls: &[Roll]) -> [i64; 3] {
        Prize::fields(Prize::winner(rolls.iter().map(|&r| Prize::rank(r))))
    }

    /// The 1-based contestant whose rank is above every other's, or 0
    /// when the best ranks are equal (the prize is shared).
    fn winner(ranks: impl Iterator<Item = i64>) -> i64 {
        let mut lead = Lead::default();
        ranks.for_each(|k| lead.see(k));
        lead.winner
    }

    /// `[winner, pc_wins, shared]` of a winner as [`Prize::winner`] gives it.
    fn fields(winner: i64) -> [i64; 3] {
        [winner, i64::from(winner == 1), i64::from(winner == 0)]
    }

    /// Exact marginals: P(contestant i's key beats all others), summed
    /// over its keys.
    pub fn exact(&self) -> Marginals {
        let dists: Vec<Vec<((i64, i64), f64)>> = self
            .contestants
            .iter()
            .map(|&r| {
                let n = faces(r).count() as f64;
                faces(r)
                    .map(|f| (Prize::key(Roll::of(r, f)), 1.0 / n))
                    .collect()
            })
            .collect();
        let below = |j: usize, k: (i64, i64)| -> f64 {
            dists[j]
                .iter()
                .filter(|(kj, _)| *kj < k)
                .map(|(_, p)| p)
                .sum()
        };
        let mut out = Marginals::new(3);
        let mut outright = 0.0;
        for (i, d) in dists.iter().enumerate() {
            let p_i: f64 = d
                .iter()
                .map(|&(k, p)| {
                    p * (0..dists.len())
                        .filter(|&j| j != i)
                        .map(|j| below(j, k))
                        .product::<f64>()
                })
                .sum();
            outright += p_i;
            out.add(0, i as i64 + 1, p_i);
            out.add(1, i64::from(i == 0), p_i);
        }
        let shared = (1.0 - outright).max(0.0);
        out.add(0, 0, shared);
        out.add(1, 0, shared);
        out.add(2, 1, shared);
        out.add(2, 0, outright);
        out
    }
}

/// The contest for the prize so far: the best rank seen, and who holds it
/// alone (1-based; 0 when the best rank is shared).
#[derive(Clone, Copy)]
struct Lead {
    best: i64,
    winner: i64,
    seen: i64,
}

impl Default for Lead {
    fn default() -> Lead {
        Lead {
            best: i64::MIN,
            winner: 0,
            seen: 0,
        }
    }
}

impl Lead {
    /// The next contestant's rank.
    #[inline(always)]
    fn see(&mut self, rank: i64) {
        self.seen += 1;
        if rank > self.best {
            (self.best, self.winner) = (rank, self.seen);
        } else if rank == self.best {
            self.winner = 0;
        }
    }
}

static PRIZE_PARAMS: [ParamSpec; 1] = [ParamSpec {
    path: "contestants",
    kind: RATINGS,
    default: Lit::Str("15 15"),
    doc: "Every contestant's rating, the PC first (2..=8 contestants).",
}];

/// The parameters of `questworlds.prize`, one field per path of
/// [`PRIZE_PARAMS`].
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrizeParams {
    #[serde(deserialize_with = "super::group::ratings")]
    pub contestants: Vec<Rating>,
}

impl Trial for Prize {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // The winner decides every field: count winners only. Every roll
        // is a face of `d20_each` (one that does not roll ignores its
        // face), six from a word, ranked by table.
        let ranks: Vec<[i64; 32]> = self
            .contestants
            .iter()
            .map(|&r| by_face(r, Prize::rank))
            .collect();
        tally.record_keyed(
            rng,
            trials,
            |rng| {
                let mut lead = Lead::default();
                rng.d20_each(&ranks, |rank, face| lead.see(rank[face as usize & 31]));
                lead.winner
            },
            Prize::fields,
        );
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Prize::exact(self))
    }
}

/// The mechanic `questworlds.prize`.
pub struct PrizeContest;

impl Define for PrizeContest {
    type Params = PrizeParams;
    type Trial = Prize;
    const NAME: &'static str = "questworlds.prize";
    const SUMMARY: &'static str =
        "One prize among many: most successes wins, then the highest roll, else shared.";

    fn params(&self) -> &'static [ParamSpec] {
        &PRIZE_PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::int(
                    "winner",
                    "The contestant who takes the prize (1 = the PC), 0 when shared.",
                ),
                FieldSpec::bool("pc_wins", "The PC takes the prize alone."),
                FieldSpec::bool(
                    "shared",
                    "The best successes and rolls are equal: the prize is shared.",
                ),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_pc_wins",
                    1,
                    Pred::Eq(1),
                    "Probability the PC takes the prize alone.",
                ),
                MetricSpec::prob(
                    "p_shared",
                    2,
                    Pred::Eq(1),
                    "Probability the prize is shared.",
                ),
            ],
        }
    }

    fn check(&self, p: &PrizeParams) -> Result<Vec<Warning>, ParamError> {
        if p.contestants.len() < 2 {
            return Err(ParamError::new(
                "contestants",
                "a prize needs at least 2 contestants",
            ));
        }
        Ok(Vec::new())
    }

    fn build(&self, p: PrizeParams) -> Prize {
        Prize {
            contestants: p.contestants,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::group::tests::close;
    use super::*;

    #[test]
    fn prize_equals_enumeration_for_three() {
        for trio in [[10, 10, 10], [25, 12, 7], [1, 1, 40], [0, 0, 5], [0, 0, -3]] {
            let p = Prize {
                contestants: trio.iter().map(|&t| Rating(t)).collect(),
            };
            let r: Vec<Rating> = p.contestants.clone();
            let mut brute = Marginals::new(3);
            let n = (faces(r[0]).count() * faces(r[1]).count() * faces(r[2]).count()) as f64;
            for x in faces(r[0]) {
                for y in faces(r[1]) {
                    for z in faces(r[2]) {
                        let rolls = [Roll::of(r[0], x), Roll::of(r[1], y), Roll::of(r[2], z)];
                        brute.add_outcome(&Prize::outcome(&rolls), 1.0 / n);
                    }
                }
            }
            close(&p.exact(), &brute);
        }
    }

    #[test]
    fn two_equal_contestants_share_one_in_twenty() {
        // Same successes and the same face: 20 of 400 equally likely pairs.
        let p = Prize {
            contestants: vec![Rating(10), Rating(10)],
        };
        let m = p.exact();
        assert!((m.field(2)[&1] - 0.05).abs() < 1e-15);
        assert!((m.field(1)[&1] - 0.475).abs() < 1e-15);
    }
}
