//! Best play in `statements.statement`: the luck bid. One statement,
//! one decision before its rolls: each bid is the statement with that
//! much more favouring (and weight per success, under the default
//! reading), by the statement's own rules ([`StatementParams::resolution`]).
//!
//! A bid costs nothing inside one statement (luck is lost only when the
//! statement comes true, which is a campaign's concern), so best play
//! here says what each point of luck buys and whether any bid is ever
//! worth less than a higher one; the trade-off over scenes is
//! `statements.campaign`'s, which has no exact best play (see
//! `systems::best::why_not`).

#[cfg(test)]
mod tests;

use std::fmt;

use super::statement::{Resolution, StatementParams};
use crate::model::{After, Choose, ParamValue, RuleOf};

/// The most luck a statement can be bid.
pub const MAX_BID: u64 = 5;

/// The statement with its luck bid left open.
pub struct BidChoice {
    /// The statement at each bid 0..=MAX_BID (`None`: no die to roll).
    statements: Vec<Option<Resolution>>,
    /// The bid the values give.
    given: u64,
}

impl BidChoice {
    pub fn new(p: &StatementParams) -> BidChoice {
        let dieless = p.favouring.0 + p.opposing.0 + p.difficulty.0 == 0;
        BidChoice {
            statements: (0..=MAX_BID)
                .map(|b| (!(dieless && b == 0)).then(|| p.resolution(b)))
                .collect(),
            given: p.luck,
        }
    }
}

/// Luck bid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bid(pub u64);

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bid {} luck", self.0)
    }
}

impl Choose for BidChoice {
    type State = ();
    /// The bid and the outcome it rolled.
    type Roll = [i64; 4];
    type Outcome = [i64; 4];
    type Option = Bid;

    fn start(&self) {}

    /// Every bid that leaves a die to roll, lowest first.
    fn options(&self, _: usize, _: &(), out: &mut Vec<Bid>) {
        out.extend(
            (0..=MAX_BID)
                .filter(|&b| self.statements[b as usize].is_some())
                .map(Bid),
        );
    }

    fn law(&self, _: usize, _: &(), o: Option<&Bid>, out: &mut Vec<([i64; 4], f64)>) {
        let b = o.map_or(self.given, |o| o.0);
        let r = self.statements[b as usize].expect("a die to roll");
        let counts = r.outcome_counts();
        let total: u128 = counts.iter().map(|(_, w)| w).sum();
        out.extend(
            counts
                .into_iter()
                .map(|(o, w)| (o, w as f64 / total as f64)),
        );
    }

    fn after(&self, _: usize, _: &(), o: &[i64; 4]) -> After<(), [i64; 4]> {
        After::End(*o)
    }

    fn feature_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn features(&self, _: usize, _: &(), _: &mut Vec<i64>) {}

    fn tags(&self, o: &Bid) -> Vec<String> {
        vec![o.to_string()]
    }

    /// One decision: `luck = n`.
    fn write(&self, rules: &[RuleOf<Bid>]) -> Option<Vec<(String, ParamValue)>> {
        let [(_, b)] = rules else { return None };
        Some(vec![("luck".into(), ParamValue::Int(b.0 as i64))])
    }
}
