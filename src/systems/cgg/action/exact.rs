//! The exact law of an action: every way the Exec's dice can lie (counted
//! by class, at most 210 ways for six dice), every (venture, total) of the
//! risk roll, and every branch of the dice venture rolls, found by
//! replaying [`Action::settle`] with a script of draws: a draw past the
//! end of the script records its law, and the settling is replayed once
//! per value. The settling is the sampler's own code, so exact and Monte
//! Carlo share every rule.

use std::sync::OnceLock;

use super::venture::{CLASSES, Draw, ExecDice, PASS, Rolled, class_law};
use super::{Action, Outcome};
use crate::systems::cgg::code::MAX_DICE;
use crate::systems::cgg::risk::RiskTable;

/// Every way `k` dice can fall into the classes, with its probability.
pub fn exec_laws(k: u32, highest_failing: u32) -> Vec<(ExecDice, f64)> {
    let law = class_law(highest_failing);
    let mut out = Vec::new();
    fn go(
        class: usize,
        left: u32,
        dice: ExecDice,
        p: f64,
        law: &[f64; CLASSES],
        out: &mut Vec<(ExecDice, f64)>,
    ) {
        if class == CLASSES - 1 {
            let mut d = dice;
            d.0[class] = left;
            let p = p * law[class].powi(left as i32);
            if p > 0.0 {
                out.push((d, p));
            }
            return;
        }
        // choose n of the remaining `left` dice for this class
        let mut binom = 1.0;
        for n in 0..=left {
            let mut d = dice;
            d.0[class] = n;
            let q = p * binom * law[class].powi(n as i32);
            if q > 0.0 || n == 0 {
                go(class + 1, left - n, d, q, law, out);
            }
            binom = binom * (left - n) as f64 / (n + 1) as f64;
        }
    }
    go(0, k, ExecDice::default(), 1.0, &law, &mut out);
    out.retain(|(_, p)| *p > 0.0);
    out
}

/// The law of how many of `n` re-rolled dice fail again (faces up to
/// `highest` of 10), without the impossible counts. Built once for every
/// `n` and `highest` a replay can ask for and shared by every config: a
/// replay asks for it at each "I'm that good!", thousands of times a
/// config, and building it each time was a quarter of a solve.
fn refail_law(n: u32, highest: u32) -> Option<&'static [(u32, f64)]> {
    /// `LAWS[n][highest]`.
    type Law = Vec<(u32, f64)>;
    static LAWS: OnceLock<Vec<Vec<Law>>> = OnceLock::new();
    let laws = LAWS.get_or_init(|| {
        (0..=MAX_DICE)
            .map(|n| (0..=10).map(|h| refail_law_owned(n, h)).collect())
            .collect()
    });
    Some(laws.get(n as usize)?.get(highest as usize)?)
}

/// [`refail_law`] for any `n` and `highest`.
fn refail_law_owned(n: u32, highest: u32) -> Vec<(u32, f64)> {
    super::binomial(n, highest as f64 / 10.0)
        .into_iter()
        .enumerate()
        .filter(|(_, p)| *p > 0.0)
        .map(|(k, p)| (k as u32, p))
        .collect()
}

/// One more risk d6.
const D6: [(u32, f64); 6] = [
    (1, 1.0 / 6.0),
    (2, 1.0 / 6.0),
    (3, 1.0 / 6.0),
    (4, 1.0 / 6.0),
    (5, 1.0 / 6.0),
    (6, 1.0 / 6.0),
];

/// A script of draws: values taken in order; the first draw past its end
/// records the values it could take and answers with the first.
pub(crate) struct Replay<'a> {
    script: &'a [u32],
    at: usize,
    p: f64,
    branch: Option<Vec<u32>>,
}

impl Replay<'_> {
    fn take(&mut self, law: &[(u32, f64)]) -> u32 {
        if self.at < self.script.len() {
            let v = self.script[self.at];
            self.at += 1;
            self.p *= law
                .iter()
                .find(|(x, _)| *x == v)
                .map(|(_, p)| *p)
                .unwrap_or(0.0);
            return v;
        }
        if self.branch.is_none() {
            self.branch = Some(law.iter().map(|(v, _)| *v).collect());
        }
        law[0].0
    }
}

impl Draw for Replay<'_> {
    fn refails(&mut self, n: u32, highest: u32) -> u32 {
        match refail_law(n, highest) {
            Some(law) => self.take(law),
            None => self.take(&refail_law_owned(n, highest)),
        }
    }

    fn set_aside(&mut self, dice: &ExecDice) -> usize {
        let n = dice.dice() as f64;
        let mut law = [(0u32, 0.0f64); CLASSES];
        let mut len = 0;
        for c in (0..CLASSES).filter(|&c| dice.0[c] > 0) {
            law[len] = (c as u32, dice.0[c] as f64 / n);
            len += 1;
        }
        let c = self.take(&law[..len]) as usize;
        // A scripted class a replay no longer holds cannot happen (its
        // probability is 0); answer one it holds so the replay runs on.
        if dice.0[c] > 0 {
            c
        } else {
            (0..=PASS)
                .find(|&c| dice.0[c] > 0)
                .expect("a die to set aside")
        }
    }

    fn d6(&mut self) -> u32 {
        self.take(&D6)
    }

    fn still_fails(&mut self, failing: u32, of: u32) -> bool {
        let p = f64::from(failing) / f64::from(of);
        self.take(&[(1, p), (0, 1.0 - p)]) == 1
    }
}

/// Every outcome of settling `rolled`, with its probability given the
/// rolls.
pub fn settle_all(a: &Action, rolled: &Rolled, mut emit: impl FnMut(&Outcome, f64)) {
    branches(|r| a.settle(rolled, r), |o, p| emit(&o, p));
}

/// Every result of `run` over the dice it draws, with its probability:
/// `run` is replayed once per branch of its draws (the settling, or one
/// wrench use best play weighs).
pub(crate) fn branches<T>(mut run: impl FnMut(&mut Replay<'_>) -> T, mut emit: impl FnMut(T, f64)) {
    let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
    while let Some(script) = stack.pop() {
        let mut r = Replay {
            script: &script,
            at: 0,
            p: 1.0,
            branch: None,
        };
        let out = run(&mut r);
        match r.branch {
            None => {
                if r.p > 0.0 {
                    emit(out, r.p);
                }
            }
            Some(values) => {
                if r.p > 0.0 {
                    for v in values {
                        let mut s = script.clone();
                        s.push(v);
                        stack.push(s);
                    }
                }
            }
        }
    }
}

/// Every way the two rolls can come (the Exec's dice by class, the risk
/// roll's venture and total), with its probability: the law the sampler's
/// tables ([`super::table`]) are built on.
pub fn rolls(a: &Action) -> Vec<(Rolled, f64)> {
    let exec = exec_laws(a.difficulty_dice(), a.rules.failure.highest_failing());
    let risk: Vec<(u32, i64, f64)> = match a.risk_code {
        None => vec![(0, 0, 1.0)],
        Some(code) => RiskTable::new(code).probabilities().collect(),
    };
    let mut out = Vec::with_capacity(exec.len() * risk.len());
    for (dice, pe) in &exec {
        for &(venture, total, pr) in &risk {
            let rolled = Rolled {
                dice: *dice,
                venture,
                total,
            };
            out.push((rolled, pe * pr));
        }
    }
    out
}

/// Every outcome of the action with its probability.
pub fn outcomes(a: &Action, mut emit: impl FnMut(&Outcome, f64)) {
    for (rolled, p) in rolls(a) {
        settle_all(a, &rolled, |o, q| emit(o, p * q));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cgg::action::venture::{ExecDice, Use};
    use crate::systems::cgg::action::{FailureRule, Rules};

    #[test]
    fn a_die_set_aside_after_a_re_roll_fails_as_re_rolled() {
        // Two dice showing 4 or 5 (failures under the half rule), "I'm
        // that good!" re-rolls both, then "get serious" sets one aside:
        // what is left is one re-rolled die, failing half the time.
        let a = Action {
            success_dice: 2,
            risk_code: None,
            base: 4,
            adjust: 0,
            impaired: false,
            risk_extra: 0,
            hours_before: 0,
            rules: Rules {
                failure: FailureRule::Half,
                ..Rules::default()
            },
        };
        let board = a.board(&Rolled {
            dice: ExecDice([0, 0, 0, 2, 0]),
            venture: 3,
            total: 0,
        });
        let mut law = [0.0; 3];
        branches(
            |draw| {
                let mut b = board.clone();
                a.wrench_use(&mut b, Use::Good, draw);
                a.wrench_use(&mut b, Use::Serious, draw);
                (b.dice(), b.failures())
            },
            |(dice, failures), p| {
                assert_eq!(dice, 1);
                law[failures as usize] += p;
            },
        );
        assert!(
            (law[0] - 0.5).abs() < 1e-15 && (law[1] - 0.5).abs() < 1e-15,
            "{law:?}"
        );
    }
}
