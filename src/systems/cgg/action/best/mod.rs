//! Best play in `cgg.action`: the player's wrench left open, against
//! the Exec's given hammer. Once both rolls are on the table the player
//! spends venture one use at a time, seeing what each use's own dice did
//! (a re-roll, a die set aside, one more risk die) before the next, and
//! stops ("hold") when it likes; the Exec then hammers with what is left,
//! by its policy. Every use goes through the settling's own step
//! ([`Action::wrench_use`]) and the end through [`Action::finish`], and
//! the given policy is [`Action::wrench`] from the board on, so the value
//! of the given wrench here is the exact solver's answer.

use super::exact::{branches, rolls};
use super::venture::{Board, Use};
pub use super::wrench::{Spend, use_name};
use super::{Action, Outcome};
use crate::model::{After, Choose, ParamValue, RuleOf};

/// The action with the player's wrench left open.
pub struct WrenchChoice {
    action: Action,
}

impl WrenchChoice {
    pub fn new(action: Action) -> WrenchChoice {
        WrenchChoice { action }
    }
}

/// Where the action stands.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// Before the two rolls.
    Rolls,
    /// Both rolls on the table, and the venture spent so far.
    Board(Board),
}

/// What one roll (or one use's dice) leaves.
#[derive(Clone, Debug)]
pub enum Next {
    Board(Board),
    /// The wrench is over and the Exec has hammered.
    End(Outcome),
}

impl Choose for WrenchChoice {
    type State = Step;
    type Roll = Next;
    type Outcome = Outcome;
    type Option = Spend;

    fn start(&self) -> Step {
        Step::Rolls
    }

    /// Hold, then each use the player may spend on, in the rules' order;
    /// nothing to decide with no venture or no use open.
    fn options(&self, _: usize, s: &Step, out: &mut Vec<Spend>) {
        let Step::Board(b) = s else { return };
        let a = &self.action;
        let start = out.len();
        out.extend(
            Use::ALL
                .into_iter()
                .filter(|&u| a.may_wrench(b, u))
                .map(Spend::Wrench),
        );
        if out.len() > start {
            out.insert(start, Spend::Hold);
        }
    }

    fn law(&self, _: usize, s: &Step, o: Option<&Spend>, out: &mut Vec<(Next, f64)>) {
        let a = &self.action;
        let b = match s {
            Step::Rolls => {
                out.extend(
                    rolls(a)
                        .into_iter()
                        .map(|(r, p)| (Next::Board(a.board(&r)), p)),
                );
                return;
            }
            Step::Board(b) => b,
        };
        match o {
            None => branches(
                |draw| {
                    let mut b = b.clone();
                    a.wrench(&mut b, draw);
                    a.finish(b)
                },
                |o, p| out.push((Next::End(o), p)),
            ),
            Some(Spend::Hold) => out.push((Next::End(a.finish(b.clone())), 1.0)),
            Some(&Spend::Wrench(u)) => branches(
                |draw| {
                    let mut b = b.clone();
                    a.wrench_use(&mut b, u, draw);
                    b
                },
                |b, p| out.push((Next::Board(b), p)),
            ),
        }
    }

    fn after(&self, _: usize, _: &Step, n: &Next) -> After<Step, Outcome> {
        match n {
            Next::Board(b) => After::Roll(Step::Board(b.clone())),
            Next::End(o) => After::End(*o),
        }
    }

    fn feature_names(&self) -> Vec<&'static str> {
        vec!["failures", "risk-short", "venture", "dice"]
    }

    /// The failures as they stand, how far the risk total is short of
    /// the target (0: avoided), the venture left, and the difficulty dice
    /// on the table.
    fn features(&self, _: usize, s: &Step, out: &mut Vec<i64>) {
        if let Step::Board(b) = s {
            out.extend(super::wrench::seen(&self.action, b));
        }
    }

    /// The use's name, and "wrench" for every use (forbidding it is the
    /// `none` policy).
    fn tags(&self, o: &Spend) -> Vec<String> {
        match o {
            Spend::Hold => vec!["hold".into()],
            Spend::Wrench(u) => vec![use_name(*u).into(), "wrench".into()],
        }
    }

    /// `policy.wrench` rules, a move best in every board of each
    /// situation ([`write::written`]); `None` past the rule limit.
    fn write_for(
        &self,
        _: &[RuleOf<Spend>],
        reward: &dyn Fn(&[i64]) -> f64,
    ) -> Option<Vec<(String, ParamValue)>> {
        Some(vec![(
            "policy.wrench".into(),
            write::written(self, reward)?,
        )])
    }
}

mod write;

#[cfg(test)]
mod tests;
