//! The exact solver of a [`Rounds`] mechanic: its absorbing chain,
//! propagated forward (see [`absorb`]). The sampler of the same rules is
//! [`crate::model::play`]; the two share [`Rounds::after`].

use super::markov::{Absorbed, Limits, Next, absorb};
use crate::model::{After, Rounds};

/// The exact law of the outcome by forward propagation of the chain (see
/// [`absorb`]); `None` beyond `limits`.
pub fn solve<R: Rounds>(rounds: &R, fields: usize, limits: Limits) -> Option<Absorbed> {
    let mut laws = Vec::new();
    absorb(rounds.start(), fields, limits, |round, state, out| {
        expand(rounds, round, state, 1.0, out, &mut laws, 0)
    })
}

/// The ends of a round, weighted, as the chain solver takes them.
type Ends<R> = Vec<(Next<<R as Rounds>::State, <R as Rounds>::Outcome>, f64)>;

/// Push every end of round `round` from `state`, reached with probability
/// `q` so far within the round. `laws[depth]` holds the law of the roll
/// at this depth of the round: the buffers live across calls, because a
/// fresh vector per roll was a fifth of a Cortex fight's solve.
fn expand<R: Rounds>(
    rounds: &R,
    round: usize,
    state: &R::State,
    q: f64,
    out: &mut Ends<R>,
    laws: &mut Vec<Vec<(R::Roll, f64)>>,
    depth: usize,
) {
    if laws.len() <= depth {
        laws.resize_with(depth + 1, Vec::new);
    }
    let mut law = std::mem::take(&mut laws[depth]);
    law.clear();
    rounds.law(round, state, &mut law);
    for (roll, p) in &law {
        if *p == 0.0 {
            continue;
        }
        let q = q * p;
        match rounds.after(round, state, roll) {
            After::Roll(next) => expand(rounds, round, &next, q, out, laws, depth + 1),
            After::Round(next) => out.push((Next::Go(next), q)),
            After::End(outcome) => out.push((Next::Stop(outcome), q)),
        }
    }
    laws[depth] = law;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceRng;
    use crate::model::play;

    /// A fair-coin gambler's ruin from 3 of 10, two flips a round (the
    /// second only when the first did not end it), counting rounds.
    struct Ruin;

    impl Rounds for Ruin {
        /// (fortune, second flip of the round)
        type State = (i64, bool);
        type Roll = i64;
        type Outcome = [i64; 2];

        fn start(&self) -> (i64, bool) {
            (3, false)
        }

        fn law(&self, _: usize, _: &(i64, bool), out: &mut Vec<(i64, f64)>) {
            out.extend([(-1, 0.5), (1, 0.5)]);
        }

        fn roll(&self, _: usize, _: &(i64, bool), rng: &mut DiceRng) -> i64 {
            if rng.bits(1) == 1 { 1 } else { -1 }
        }

        fn after(
            &self,
            round: usize,
            &(s, second): &(i64, bool),
            &r: &i64,
        ) -> After<(i64, bool), [i64; 2]> {
            match s + r {
                0 => After::End([0, round as i64]),
                10 => After::End([1, round as i64]),
                s if second => After::Round((s, false)),
                s => After::Roll((s, true)),
            }
        }
    }

    #[test]
    fn solver_and_sampler_share_the_rules() {
        let solved = solve(&Ruin, 2, Limits::default()).unwrap();
        let win = solved.marginals.field(0)[&1];
        assert!((win - 0.3).abs() < 1e-10, "{win}");
        // Both ends are an odd distance from 3, so every ruin takes an odd
        // number F of flips (21 on average: 3 × 7) and (F + 1) / 2 rounds.
        let rounds: f64 = solved
            .marginals
            .field(1)
            .iter()
            .map(|(k, p)| *k as f64 * p)
            .sum();
        assert!((rounds - 11.0).abs() < 1e-8, "{rounds}");
        let mut rng = DiceRng::from_u64(5);
        let n = 20_000;
        let (mut wins, mut total) = (0, 0);
        for _ in 0..n {
            let [w, r] = play(&Ruin, &mut rng);
            wins += w;
            total += r;
        }
        let p = wins as f64 / n as f64;
        // 5 standard errors of a proportion 0.3 over 20,000 trials: 0.016.
        assert!((p - 0.3).abs() < 0.016, "{p}");
        let mean = total as f64 / n as f64;
        // The rounds' sd is below 20, so 5 standard errors < 0.71.
        assert!((mean - rounds).abs() < 0.71, "{mean} vs {rounds}");
    }
}
