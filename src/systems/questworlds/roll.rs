//! One contest roll (rules §4.2–4.3): each side rolls a d20 against its
//! target, successes are compared, equal successes go to the higher roll,
//! equal rolls tie. Also story points (spent after the roll) and augments
//! (a bonus to the PC's TN, assured or rolled).
//!
//! The exact solver groups each side's 20 faces into at most three classes
//! (success, big success, failure) that give the same successes, and only
//! counts, per pair of classes, how many face pairs are higher, equal or
//! lower: the outcome depends on nothing else. A test checks it against
//! all 20 × 20 faces for every pair of ratings 1..=60.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::rating::{D20, Rating};
use crate::dice::DiceRng;

/// The result of a contest, from the PC's side (category order of the
/// `result` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Victory = 0,
    Tie = 1,
    Defeat = 2,
}

/// One side's roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// Successes from the die and masteries (story points come later).
    pub successes: i64,
    /// The face rolled; 0 when the side did not roll (TN ≤ 0).
    pub face: i64,
    /// The face equalled the target.
    pub big: bool,
}

impl Roll {
    /// The roll of `face` (1..=20) against `rating`; a TN ≤ 0 fails
    /// automatically and does not roll, whatever `face` is.
    pub fn of(rating: Rating, face: i64) -> Roll {
        match rating.target() {
            None => Roll {
                successes: 0,
                face: 0,
                big: false,
            },
            Some(t) => {
                let die = match face.cmp(&t) {
                    Ordering::Less => 1,
                    Ordering::Equal => 2,
                    Ordering::Greater => 0,
                };
                Roll {
                    successes: rating.masteries() + die,
                    face,
                    big: face == t,
                }
            }
        }
    }

    /// Roll a d20 for `rating`.
    #[inline]
    pub fn sample(rating: Rating, rng: &mut DiceRng) -> Roll {
        if rating.tn() <= 0 {
            return Roll::of(rating, 0);
        }
        Roll::of(rating, rng.die(D20 as u32) as i64)
    }
}

/// Faces `lo..=hi` that all give the same successes (a side that does not
/// roll is one class of one case, face 0).
#[derive(Clone, Copy, Debug)]
struct Class {
    successes: i64,
    big: bool,
    lo: i64,
    hi: i64,
}

impl Class {
    fn len(&self) -> u128 {
        (self.hi - self.lo + 1) as u128
    }
}

fn classes(rating: Rating) -> Vec<Class> {
    let Some(t) = rating.target() else {
        return vec![Class {
            successes: 0,
            big: false,
            lo: 0,
            hi: 0,
        }];
    };
    let m = rating.masteries();
    let mut out = Vec::with_capacity(3);
    if t > 1 {
        out.push(Class {
            successes: m + 1,
            big: false,
            lo: 1,
            hi: t - 1,
        });
    }
    out.push(Class {
        successes: m + 2,
        big: true,
        lo: t,
        hi: t,
    });
    if t < D20 {
        out.push(Class {
            successes: m,
            big: false,
            lo: t + 1,
            hi: D20,
        });
    }
    out
}

/// Face pairs `(x, y)` of two classes with x > y, x = y, x < y.
fn relations(a: &Class, b: &Class) -> [(Ordering, u128); 3] {
    let (mut gt, mut eq) = (0u128, 0u128);
    for x in a.lo..=a.hi {
        gt += (x - b.lo).clamp(0, b.hi - b.lo + 1) as u128;
        eq += u128::from((b.lo..=b.hi).contains(&x));
    }
    let lt = a.len() * b.len() - gt - eq;
    [
        (Ordering::Greater, gt),
        (Ordering::Equal, eq),
        (Ordering::Less, lt),
    ]
}

/// What one contest decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Exchange {
    pub verdict: Verdict,
    /// Difference in successes (after story points), ≥ 0.
    pub degree: i64,
    /// The PC's successes, story points included.
    pub pc_successes: i64,
    /// Story points the PC spent.
    pub story_points: i64,
    /// The winner rolled a big success (false on a tie).
    pub victor_big: bool,
}

impl Exchange {
    /// Degree with a sign: positive for PC victories.
    pub fn signed_degree(&self) -> i64 {
        match self.verdict {
            Verdict::Defeat => -self.degree,
            _ => self.degree,
        }
    }
}

/// A PC against an opponent, both TNs final (modifiers and augments in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Matchup {
    pub pc: Rating,
    pub opponent: Rating,
    /// The opponent is a resistance whose TN is ≤ 0: the PC's victory is
    /// assured (§4.1); its degree is its successes.
    pub assured: bool,
    /// Story points the PC may spend, one success each, and only when they
    /// turn a defeat into a victory or a tie (0 for the `never` policy).
    pub story_points: i64,
}

impl Matchup {
    /// PC against a resistance (assured when the resistance is ≤ 0).
    pub fn against_resistance(pc: Rating, resistance: Rating) -> Self {
        Matchup {
            pc,
            opponent: resistance,
            assured: resistance.tn() <= 0,
            story_points: 0,
        }
    }

    /// PC against another character, who simply fails at TN ≤ 0.
    pub fn against_character(pc: Rating, opponent: Rating) -> Self {
        Matchup {
            pc,
            opponent,
            assured: false,
            story_points: 0,
        }
    }

    /// The same matchup with a story point budget.
    pub fn with_story_points(self, story_points: i64) -> Self {
        Matchup {
            story_points,
            ..self
        }
    }

    /// Judge two rolls (§4.2): successes, then the higher face, else a tie;
    /// then story points if they flip a defeat.
    pub fn judge(&self, pc: Roll, opp: Roll) -> Exchange {
        self.judge_classes(
            pc.successes,
            pc.big,
            opp.successes,
            opp.big,
            pc.face.cmp(&opp.face),
        )
    }

    fn judge_classes(
        &self,
        pc_s: i64,
        pc_big: bool,
        opp_s: i64,
        opp_big: bool,
        faces: Ordering,
    ) -> Exchange {
        let verdict = |extra: i64| match (pc_s + extra).cmp(&opp_s).then(faces) {
            Ordering::Greater => Verdict::Victory,
            Ordering::Equal => Verdict::Tie,
            Ordering::Less => Verdict::Defeat,
        };
        if self.assured {
            return Exchange {
                verdict: Verdict::Victory,
                degree: (pc_s - opp_s).max(0),
                pc_successes: pc_s,
                story_points: 0,
                victor_big: pc_big,
            };
        }
        let mut spent = 0;
        if verdict(0) == Verdict::Defeat {
            // The fewest points that stop the defeat, if the budget allows.
            if let Some(k) = (1..=self.story_points).find(|&k| verdict(k) != Verdict::Defeat) {
                spent = k;
            }
        }
        let v = verdict(spent);
        Exchange {
            verdict: v,
            degree: (pc_s + spent - opp_s).abs(),
            pc_successes: pc_s + spent,
            story_points: spent,
            victor_big: match v {
                Verdict::Victory => pc_big,
                Verdict::Defeat => opp_big,
                Verdict::Tie => false,
            },
        }
    }

    /// One contest.
    #[inline]
    pub fn sample(&self, rng: &mut DiceRng) -> Exchange {
        let pc = Roll::sample(self.pc, rng);
        let opp = Roll::sample(self.opponent, rng);
        self.judge(pc, opp)
    }

    /// Every outcome with the number of face pairs giving it, out of
    /// [`Matchup::cases`].
    pub fn counts(&self) -> BTreeMap<Exchange, u128> {
        let mut out = BTreeMap::new();
        for a in classes(self.pc) {
            for b in classes(self.opponent) {
                for (faces, n) in relations(&a, &b) {
                    if n > 0 {
                        let ex = self.judge_classes(a.successes, a.big, b.successes, b.big, faces);
                        *out.entry(ex).or_insert(0) += n;
                    }
                }
            }
        }
        out
    }

    /// Equally likely face pairs: 20 per rolling side.
    pub fn cases(&self) -> u128 {
        let faces = |r: Rating| if r.tn() > 0 { D20 as u128 } else { 1 };
        faces(self.pc) * faces(self.opponent)
    }

    /// Every outcome with its probability.
    pub fn probabilities(&self) -> Vec<(Exchange, f64)> {
        let total = self.cases() as f64;
        self.counts()
            .into_iter()
            .map(|(ex, n)| (ex, n as f64 / total))
            .collect()
    }
}

/// An augment to the PC's TN (§4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Augment {
    /// A fixed bonus: 0, +5 or +10 (dramatic).
    Assured(i64),
    /// A contest of this rating against the base resistance: victory of
    /// degree d gives +5(d + 1), at most +20; a defeat or tie gives +5.
    Rolled(Rating),
}

/// The most a rolled augment gives.
pub const AUGMENT_CAP: i64 = 20;

impl Augment {
    /// The bonus an augment contest's result gives.
    pub fn bonus_for(ex: &Exchange) -> i64 {
        match ex.verdict {
            Verdict::Victory => (5 * (ex.degree + 1)).min(AUGMENT_CAP),
            _ => 5,
        }
    }

    /// Bonus values and their probabilities against `base` resistance.
    pub fn bonuses(&self, base: Rating) -> Vec<(i64, f64)> {
        match *self {
            Augment::Assured(b) => vec![(b, 1.0)],
            Augment::Rolled(r) => {
                let mut out: BTreeMap<i64, f64> = BTreeMap::new();
                for (ex, p) in Matchup::against_resistance(r, base).probabilities() {
                    *out.entry(Augment::bonus_for(&ex)).or_insert(0.0) += p;
                }
                out.into_iter().collect()
            }
        }
    }

    /// One bonus.
    #[inline]
    pub fn sample(&self, base: Rating, rng: &mut DiceRng) -> i64 {
        match *self {
            Augment::Assured(b) => b,
            Augment::Rolled(r) => {
                Augment::bonus_for(&Matchup::against_resistance(r, base).sample(rng))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every face pair, judged one by one.
    fn enumerate(m: &Matchup) -> BTreeMap<Exchange, u128> {
        let faces = |r: Rating| if r.tn() > 0 { 1..=D20 } else { 0..=0 };
        let mut out = BTreeMap::new();
        for x in faces(m.pc) {
            for y in faces(m.opponent) {
                let ex = m.judge(Roll::of(m.pc, x), Roll::of(m.opponent, y));
                *out.entry(ex).or_insert(0) += 1;
            }
        }
        out
    }

    fn p(m: &Matchup, v: Verdict) -> f64 {
        m.probabilities()
            .iter()
            .filter(|(ex, _)| ex.verdict == v)
            .map(|(_, p)| p)
            .sum()
    }

    #[test]
    fn tn_1_against_tn_1_wins_0_475() {
        // Both roll 1 (big successes): tie. One rolls 1: it wins. Neither:
        // zero successes each, the higher face wins, equal faces tie.
        // Ties: 20 of 400, the rest split evenly: 190/400 = 0.475.
        let m = Matchup::against_resistance(Rating(1), Rating(1));
        let counts = m.counts();
        let n = |v| -> u128 {
            counts
                .iter()
                .filter(|(ex, _)| ex.verdict == v)
                .map(|(_, n)| n)
                .sum()
        };
        assert_eq!((n(Verdict::Victory), n(Verdict::Tie)), (190, 20));
        assert_eq!(p(&m, Verdict::Victory), 0.475);
    }

    #[test]
    fn five_m_rolling_5_scores_three_successes() {
        // 5M (TN 25): a 5 is a big success (2) plus one mastery: 3. The
        // resistance 10 rolling 15 fails: victory of three degrees.
        let roll = Roll::of("5M".parse().unwrap(), 5);
        assert_eq!((roll.successes, roll.big), (3, true));
        let res = Roll::of(Rating(10), 15);
        let m = Matchup::against_resistance(Rating(25), Rating(10));
        let ex = m.judge(roll, res);
        assert_eq!(
            (ex.verdict, ex.degree, ex.victor_big),
            (Verdict::Victory, 3, true)
        );
        // Rolling 6 it fails the die but keeps its mastery: one success.
        assert_eq!(Roll::of(Rating(25), 6).successes, 1);
    }

    #[test]
    fn equal_successes_go_to_the_higher_face() {
        let m = Matchup::against_resistance(Rating(15), Rating(15));
        let ex = m.judge(Roll::of(Rating(15), 12), Roll::of(Rating(15), 3));
        assert_eq!((ex.verdict, ex.degree), (Verdict::Victory, 0));
        let ex = m.judge(Roll::of(Rating(15), 7), Roll::of(Rating(15), 7));
        assert_eq!(ex.verdict, Verdict::Tie);
        let ex = m.judge(Roll::of(Rating(15), 16), Roll::of(Rating(15), 17));
        assert_eq!((ex.verdict, ex.degree), (Verdict::Defeat, 0));
    }

    #[test]
    fn solver_equals_enumeration_for_ratings_1_to_60() {
        for a in 1..=60 {
            for b in 1..=60 {
                let m = Matchup::against_resistance(Rating(a), Rating(b));
                assert_eq!(m.counts(), enumerate(&m), "{a} vs {b}");
                assert_eq!(m.counts().values().sum::<u128>(), 400);
            }
        }
    }

    #[test]
    fn solver_equals_enumeration_with_story_points_and_no_rolls() {
        for (a, b, sp) in [
            (10, 15, 1),
            (5, 45, 2),
            (25, 30, 3),
            (0, 12, 1),
            (12, -3, 0),
        ] {
            let m = Matchup::against_character(Rating(a), Rating(b)).with_story_points(sp);
            assert_eq!(m.counts(), enumerate(&m), "{a} vs {b}, {sp} SP");
            let m = Matchup::against_resistance(Rating(a), Rating(b)).with_story_points(sp);
            assert_eq!(m.counts(), enumerate(&m), "{a} vs resistance {b}, {sp} SP");
        }
    }

    #[test]
    fn failing_and_assured_contests() {
        // TN ≤ 0: no roll, no success, so it loses to any roll.
        let m = Matchup::against_resistance(Rating(0), Rating(10));
        assert_eq!(p(&m, Verdict::Defeat), 1.0);
        // A resistance ≤ 0 is assured: always a victory.
        let m = Matchup::against_resistance(Rating(3), Rating(-5));
        assert_eq!(p(&m, Verdict::Victory), 1.0);
        let m = Matchup::against_resistance(Rating(-5), Rating(0));
        assert_eq!(p(&m, Verdict::Victory), 1.0);
        // Two characters at TN ≤ 0: neither rolls, a standoff.
        let m = Matchup::against_character(Rating(0), Rating(-1));
        assert_eq!(p(&m, Verdict::Tie), 1.0);
    }

    #[test]
    fn a_story_point_only_spent_when_it_flips_defeat() {
        let m = Matchup::against_resistance(Rating(10), Rating(10)).with_story_points(1);
        // 0 successes (face 12) against 1 (face 4): +1 → equal, 12 > 4 wins.
        let ex = m.judge(Roll::of(Rating(10), 12), Roll::of(Rating(10), 4));
        assert_eq!(
            (ex.verdict, ex.story_points, ex.degree),
            (Verdict::Victory, 1, 0)
        );
        // 0 successes (face 15) against a big success (face 10, two): one
        // point only reaches 1 < 2, still a defeat, so nothing is spent.
        let ex = m.judge(Roll::of(Rating(10), 15), Roll::of(Rating(10), 10));
        assert_eq!(
            (ex.verdict, ex.story_points, ex.degree),
            (Verdict::Defeat, 0, 2)
        );
        // With two points, the two turn it into a victory (equal, 15 > 10).
        let m2 = m.with_story_points(2);
        let ex = m2.judge(Roll::of(Rating(10), 15), Roll::of(Rating(10), 10));
        assert_eq!((ex.verdict, ex.story_points), (Verdict::Victory, 2));
        // Already a victory: nothing spent.
        let ex = m.judge(Roll::of(Rating(10), 3), Roll::of(Rating(10), 14));
        assert_eq!(ex.story_points, 0);
        // Story points never lower P(victory).
        let base = p(
            &Matchup::against_resistance(Rating(10), Rating(10)),
            Verdict::Victory,
        );
        assert!(p(&m, Verdict::Victory) > base);
    }

    #[test]
    fn rolled_augment_bonuses() {
        // 15 against base 10: bonus distribution sums to 1, values 5..=20.
        let b = Augment::Rolled(Rating(15)).bonuses(Rating(10));
        assert!((b.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(b.iter().all(|(v, _)| [5, 10, 15, 20].contains(v)));
        // Victory of degree 0 → +5, 1 → +10, 4 → capped at +20.
        let ex = |verdict, degree| Exchange {
            verdict,
            degree,
            pc_successes: 0,
            story_points: 0,
            victor_big: false,
        };
        assert_eq!(Augment::bonus_for(&ex(Verdict::Victory, 0)), 5);
        assert_eq!(Augment::bonus_for(&ex(Verdict::Victory, 1)), 10);
        assert_eq!(Augment::bonus_for(&ex(Verdict::Victory, 4)), 20);
        assert_eq!(Augment::bonus_for(&ex(Verdict::Defeat, 2)), 5);
        assert_eq!(Augment::bonus_for(&ex(Verdict::Tie, 0)), 5);
        // 2M against base 10: always at least one degree up (2 or 3 vs ≤ 2
        // successes)… P(+10 or more) is large; by enumeration:
        let b = Augment::Rolled(Rating(40)).bonuses(Rating(10));
        let direct: f64 = Matchup::against_resistance(Rating(40), Rating(10))
            .probabilities()
            .iter()
            .filter(|(ex, _)| ex.verdict == Verdict::Victory && ex.degree >= 1)
            .map(|(_, p)| p)
            .sum();
        let from_bonuses: f64 = b.iter().filter(|(v, _)| *v >= 10).map(|(_, p)| p).sum();
        assert!((direct - from_bonuses).abs() < 1e-15);
    }
}
