//! Best play in `gateway.challenge`: how many raises to take. One roll,
//! one decision: each raise adds 2 to the opposition and one raise banked
//! on success, so "expected raises banked" has a best count, and
//! "success" is best with none.

use std::fmt;

use super::{Challenge, ChallengeParams, Contest};
use crate::model::{After, Choose, Define, ParamValue, RuleOf};

/// The most raises best play considers: the `raises` key's maximum.
pub const MAX_RAISES: u32 = 10;

/// The challenge with its raises left open.
pub struct RaisesChoice {
    /// The contest at each raise count, 0..=MAX_RAISES.
    contests: Vec<Contest>,
    /// The raises the scenario takes.
    given: u32,
}

impl RaisesChoice {
    pub fn new(p: ChallengeParams) -> RaisesChoice {
        RaisesChoice {
            contests: (0..=MAX_RAISES)
                .map(|raises| Challenge.build(ChallengeParams { raises, ..p }))
                .collect(),
            given: p.raises,
        }
    }
}

/// Raises taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Raises(pub u32);

impl fmt::Display for Raises {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => write!(f, "1 raise"),
            n => write!(f, "{n} raises"),
        }
    }
}

impl Choose for RaisesChoice {
    type State = ();
    /// The raises taken and the margin.
    type Roll = (u32, i64);
    type Outcome = [i64; 3];
    type Option = Raises;

    fn start(&self) {}

    fn options(&self, _: usize, _: &(), out: &mut Vec<Raises>) {
        out.extend((0..=MAX_RAISES).map(Raises));
    }

    fn law(&self, _: usize, _: &(), o: Option<&Raises>, out: &mut Vec<((u32, i64), f64)>) {
        let r = o.map_or(self.given, |o| o.0);
        let c = &self.contests[r as usize];
        let margins = c.margin_counts();
        out.extend(margins.probabilities().map(|(m, p)| ((r, m), p)));
    }

    fn after(&self, _: usize, _: &(), &(r, m): &(u32, i64)) -> After<(), [i64; 3]> {
        After::End(self.contests[r as usize].outcome(m))
    }

    fn feature_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn features(&self, _: usize, _: &(), _: &mut Vec<i64>) {}

    fn tags(&self, o: &Raises) -> Vec<String> {
        vec![o.to_string()]
    }

    /// One decision: `raises = n`.
    fn write(&self, rules: &[RuleOf<Raises>]) -> Option<Vec<(String, ParamValue)>> {
        let [(_, r)] = rules else { return None };
        Some(vec![("raises".into(), ParamValue::Int(r.0 as i64))])
    }
}
