//! A Gateway policy compiled for the sampler's hot loop: the action a
//! [`View`] takes, from one table lookup instead of trying the rules in
//! turn. [`View::choose`] remains the definition; the table is that
//! function tabulated over everything the rules can read of a view.
//!
//! The index is the view's features: five flags (Climax allowed,
//! Anticlimax allowed, Block allowed, holds the initiative, has a free
//! raise) and one bit per distinct numeric condition of the policy
//! (`edge_at_least = 2` …, or a table of several bounds), each a
//! comparison made at decision time. A
//! policy with more numeric conditions than [`MAX_NUMERIC`] is decided
//! rule by rule.

use super::effect::{Action, Effect};
use super::rules::{Policy, View, When};

/// Bits of the five flags.
const CLIMAX: usize = 1;
const ANTICLIMAX: usize = 1 << 1;
const BLOCK: usize = 1 << 2;
const HOLDS: usize = 1 << 3;
const FREE: usize = 1 << 4;
/// The numeric conditions' bits start here.
const FLAGS: usize = 5;
/// Most distinct numeric conditions tabulated: a table of 2^(5 + 6)
/// bytes.
const MAX_NUMERIC: usize = 6;

/// A policy, ready to decide fast.
#[derive(Clone, Debug)]
pub struct Decider {
    policy: Policy,
    /// The policy's choices, then the fallback Edge.
    choices: Vec<Action>,
    /// The numeric conditions, bit `FLAGS + k` for the k-th.
    numeric: Vec<When>,
    /// The index into `choices` by features; empty when the policy has
    /// too many numeric conditions.
    table: Vec<u8>,
}

impl Decider {
    pub fn new(policy: &Policy) -> Decider {
        let mut numeric: Vec<When> = Vec::new();
        for w in policy.rules.iter().filter_map(|r| r.when) {
            if is_numeric(w) && !numeric.contains(&w) {
                numeric.push(w);
            }
        }
        let mut choices: Vec<Action> = policy.rules.iter().map(|r| r.choice).collect();
        choices.push(Action::EDGE);
        let table = if numeric.len() > MAX_NUMERIC {
            Vec::new()
        } else {
            (0..1usize << (FLAGS + numeric.len()))
                .map(|features| {
                    let holds = |w: &When| match *w {
                        When::CanClimax => features & CLIMAX != 0,
                        When::CanAnticlimax => features & ANTICLIMAX != 0,
                        When::HoldsInitiative => features & HOLDS != 0,
                        When::HasFreeRaise => features & FREE != 0,
                        When::NoFreeRaise => features & FREE == 0,
                        numeric_when => {
                            let k = numeric.iter().position(|n| *n == numeric_when);
                            features >> (FLAGS + k.expect("listed above")) & 1 == 1
                        }
                    };
                    let allowed = |a: &Action| {
                        (!a.has(Effect::Climax) || features & CLIMAX != 0)
                            && (!a.has(Effect::Anticlimax) || features & ANTICLIMAX != 0)
                            && (!a.has(Effect::Block) || features & BLOCK != 0)
                    };
                    policy
                        .rules
                        .iter()
                        .position(|r| r.when.as_ref().is_none_or(holds) && allowed(&r.choice))
                        .unwrap_or(policy.rules.len()) as u8
                })
                .collect()
        };
        Decider {
            policy: policy.clone(),
            choices,
            numeric,
            table,
        }
    }

    /// The action the policy takes at `v`: `v.choose(policy)`.
    #[inline(always)]
    pub fn decide(&self, v: &View) -> Action {
        if self.table.is_empty() {
            return v.choose(&self.policy);
        }
        let mut features = usize::from(v.can_climax)
            | usize::from(v.can_anticlimax) << 1
            | usize::from(v.can_block) << 2
            | usize::from(v.holds_initiative) << 3
            | usize::from(v.free > 0) << 4;
        for (k, w) in self.numeric.iter().enumerate() {
            features |= usize::from(v.holds(w)) << (FLAGS + k);
        }
        self.choices[self.table[features] as usize]
    }
}

fn is_numeric(w: When) -> bool {
    matches!(
        w,
        When::EdgeAtLeast(_)
            | When::EdgeAtMost(_)
            | When::LadderAtMost(_)
            | When::RoundAtLeast(_)
            | When::All(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceRng;
    use crate::systems::policy::Rule;

    fn rule(effects: &[Effect], raises: u32, when: Option<When>) -> Rule<When, Action> {
        Rule {
            when,
            choice: Action::new(effects, raises),
        }
    }

    /// A view with every field drawn at random over small ranges.
    fn random_view(rng: &mut DiceRng) -> View {
        View {
            edge: rng.die(13) as i64 - 7,
            ladder: rng.die(6) as i64 - 1,
            round: rng.die(6) as usize,
            holds_initiative: rng.bits(1) == 1,
            free: rng.die(3) - 1,
            can_climax: rng.bits(1) == 1,
            can_anticlimax: rng.bits(1) == 1,
            can_block: rng.bits(1) == 1,
            opponent_succeeded: rng.bits(1) == 1,
        }
    }

    #[test]
    fn the_table_decides_as_the_rules_do() {
        use Effect::*;
        let numeric: Vec<When> = (0..8)
            .map(|k| match k % 4 {
                0 => When::EdgeAtLeast(k - 2),
                1 => When::EdgeAtMost(k - 3),
                2 => When::LadderAtMost(k / 2),
                _ => When::RoundAtLeast(k / 2),
            })
            .collect();
        let flags = [
            When::CanClimax,
            When::CanAnticlimax,
            When::HoldsInitiative,
            When::HasFreeRaise,
            When::NoFreeRaise,
        ];
        let choices: [&[Effect]; 6] = [
            &[Climax],
            &[Anticlimax],
            &[Block, Edge],
            &[Setup],
            &[Press],
            &[Edge, Accelerate],
        ];
        let mut rng = DiceRng::from_u64(18);
        // Policies of 1..=9 rules drawn from every condition and choice,
        // some with more numeric conditions than the table takes.
        for case in 0..400 {
            let rules: Vec<_> = (0..1 + case % 9)
                .map(|_| {
                    let when = match rng.die(3) {
                        1 => None,
                        2 => Some(flags[rng.die(5) as usize - 1]),
                        _ => Some(numeric[rng.die(8) as usize - 1]),
                    };
                    rule(choices[rng.die(6) as usize - 1], rng.die(3) - 1, when)
                })
                .collect();
            let policy = Policy::new(rules);
            let d = Decider::new(&policy);
            for _ in 0..200 {
                let v = random_view(&mut rng);
                assert_eq!(d.decide(&v), v.choose(&policy), "{policy} at {v:?}");
            }
        }
    }
}
