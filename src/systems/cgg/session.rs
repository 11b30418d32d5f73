//! The crisis clock over a session (rules §3.9) and the mechanic
//! `cgg.session`.
//!
//! One explorer's clock holds 12 hours (9 with two roles), never more,
//! never less than 0. The explorer plays a list of actions (`sequence`,
//! each a table of `cgg.action` keys over the session's own, or a tension
//! scene `{ tension = { … }, explorer = "name" }`; or `actions` repeats of
//! the one action the session's keys describe). After each action its
//! hours are settled: the hours paid (wrench venture, a stunt's hour) come
//! off, then the hours gained (hammer venture) go on; a scene carries the
//! clock in and out.
//! At 0 the explorer is in **crisis**: a period of weakness in which it
//! may neither pay nor gain hours, for `crisis.actions` actions; then the
//! crisis is addressed and the clock refilled to 3 + 1d6.
//!
//! Each action (or scene) is one round of [`Rounds`], the refill a second
//! roll in the round that needs it. Between rounds the state is (clock,
//! weakness left, crises so far, the first crisis's action), a few
//! thousand states at most, so the exact chain is offered whenever the
//! session has no tension scene (those are Monte Carlo only); the law of
//! an action's hours is its exact joint law of (paid, gained).
//!
//! Monte Carlo plays the same rounds, drawing each action's (paid, gained)
//! with one word from an alias table of that law ([`Draws`], built once
//! per session on its first run); the clock's rules stay in
//! [`Session::after`], shared with the exact chain.

use std::sync::{Arc, OnceLock};

use super::action::{Action, PARAMS as ACTION_PARAMS};
use super::tension::Tension;
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, Rounds, play};
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::{
    CHECKED, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Pred, Schema,
    Trial, Warning,
};

mod keys;
pub use keys::SessionParams;
use keys::steps;

pub use super::FULL;
/// The refill once a crisis is addressed: 3 + 1d6.
pub const REFILL_BASE: u32 = 3;
/// The longest session.
pub const MAX_ACTIONS: usize = 200;

const SEQUENCE_EXPECTS: &str = "a list of 1..=200 tables, one per action, each of cgg.action keys or a tension scene { tension = { cgg.tension keys }, explorer = \"name\" }, e.g. [{ \"difficulty.base\" = 5 }, { \"stunt.paid\" = true }]";

/// The session's own keys, after those of `cgg.action`.
const OWN: [ParamSpec; 5] = [
    ParamSpec {
        path: "actions",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_ACTIONS as i64,
        },
        default: Lit::Int(20),
        doc: "Actions in the session, each the one action the other keys describe (not with `sequence`).",
    },
    ParamSpec {
        path: "sequence",
        kind: ParamKind::Custom {
            expects: SEQUENCE_EXPECTS,
        },
        default: Lit::Absent,
        doc: "The session's actions in order, each a table of cgg.action keys overriding the session's (not with `actions`).",
    },
    ParamSpec {
        path: "explorer.roles",
        kind: ParamKind::Int { min: 1, max: 2 },
        default: Lit::Int(1),
        doc: "Roles: 1 (a 12-hour clock) or 2 (9 hours).",
    },
    ParamSpec {
        path: "explorer.hours",
        kind: ParamKind::Int { min: 1, max: 12 },
        default: Lit::Absent,
        doc: "Hours on the clock at the start (at most the full clock); unset: full.",
    },
    ParamSpec {
        path: "crisis.actions",
        kind: ParamKind::Int { min: 0, max: 20 },
        default: Lit::Int(1),
        doc: "Actions of weakness (no hours paid or gained) before the crisis is addressed and the clock refilled to 3 + 1d6.",
    },
];

const fn params() -> [ParamSpec; 24] {
    let mut out = [OWN[0]; 24];
    let mut i = 0;
    while i < ACTION_PARAMS.len() {
        out[i] = ACTION_PARAMS[i];
        i += 1;
    }
    let mut j = 0;
    while j < OWN.len() {
        out[i + j] = OWN[j];
        j += 1;
    }
    out
}

static PARAMS: [ParamSpec; 24] = params();

/// Field positions.
pub const CRISIS: usize = 0;
pub const CRISES: usize = 1;
pub const FIRST_CRISIS: usize = 2;
pub const HOURS_LEFT: usize = 3;
pub const FIELDS: usize = 4;

/// An action's joint law of (hours paid, hours gained).
pub type HoursLaw = Vec<((u32, u32), f64)>;

/// One step of a session.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Action(Action),
    /// A tension scene the explorer plays as explorer `who` of its list.
    Scene {
        tension: Box<Tension>,
        who: usize,
    },
}

/// A checked session.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The actions (and scenes) in order.
    pub actions: Vec<Step>,
    /// A full clock.
    pub full: u32,
    /// Hours at the start.
    pub start: u32,
    /// Actions of weakness before a crisis is addressed.
    pub weakness: u32,
    draws: Draws,
}

/// Each step's alias table of (hours paid, hours gained), packed by
/// [`pack`] (`None` for a scene), worked out on a session's first Monte
/// Carlo run and shared by its clones. A cache, not part of the session:
/// two sessions are equal whether or not either has built it.
#[derive(Clone, Debug, Default)]
struct Draws(Arc<OnceLock<Vec<Option<Alias>>>>);

impl PartialEq for Draws {
    fn eq(&self, _: &Draws) -> bool {
        true
    }
}

/// (paid, gained) as one drawn value.
fn pack(paid: u32, gained: u32) -> u32 {
    paid | gained << 16
}

/// Where the session stands between actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clock {
    pub hours: u32,
    /// Actions of weakness still to play (0: not in crisis).
    pub weak: u32,
    pub crises: u32,
    /// The action of the first crisis (0: none yet).
    pub first: u32,
    /// A crisis was addressed in this action: the refill is rolled next.
    pub refill: bool,
}

/// One roll of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Roll {
    /// An action's hours: paid, gained.
    Hours(u32, u32),
    /// A scene: the hours it leaves on the clock, and whether the clock
    /// ran out in it.
    Scene(u32, bool),
    /// The refill's d6.
    Refill(u32),
}

impl Session {
    /// A session of `actions` on a clock of `full` hours holding `start`,
    /// `weakness` actions of weakness to a crisis.
    pub fn new(actions: Vec<Step>, full: u32, start: u32, weakness: u32) -> Session {
        Session {
            actions,
            full,
            start,
            weakness,
            draws: Draws::default(),
        }
    }

    /// The hours law of every action, computed once per distinct action;
    /// `None` when a step is a tension scene.
    fn laws(&self) -> Option<Vec<HoursLaw>> {
        self.step_laws().into_iter().collect()
    }

    /// The hours law of every action step (`None`: a scene), once per
    /// distinct action.
    fn step_laws(&self) -> Vec<Option<HoursLaw>> {
        let mut seen: Vec<(Action, HoursLaw)> = Vec::new();
        self.actions
            .iter()
            .map(|step| {
                let Step::Action(a) = step else {
                    return None;
                };
                if let Some((_, l)) = seen.iter().find(|(b, _)| b == a) {
                    return Some(l.clone());
                }
                let l = a.hours_law();
                seen.push((*a, l.clone()));
                Some(l)
            })
            .collect()
    }

    /// The tables Monte Carlo draws each action's hours from.
    fn draws(&self) -> &[Option<Alias>] {
        self.draws.0.get_or_init(|| {
            self.step_laws()
                .into_iter()
                .map(|l| l.map(|l| Alias::new(l.into_iter().map(|((p, g), q)| (pack(p, g), q)))))
                .collect()
        })
    }

    /// Exact marginals of the four fields (none with a tension scene).
    pub fn exact(&self) -> Option<Marginals> {
        let chain = Chained {
            s: self,
            laws: self.laws()?,
            draws: &[],
        };
        Some(solve(&chain, FIELDS, Limits::default())?.marginals)
    }

    /// One session.
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; FIELDS] {
        play(
            &Chained {
                s: self,
                laws: Vec::new(),
                draws: self.draws(),
            },
            rng,
        )
    }

    /// After action `round` (from 1) has moved the clock: the next round,
    /// or the end.
    fn next(&self, round: usize, c: Clock) -> After<Clock, [i64; FIELDS]> {
        if round < self.actions.len() {
            return After::Round(c);
        }
        let n = self.actions.len() as i64;
        After::End([
            (c.crises > 0) as i64,
            c.crises as i64,
            if c.first == 0 { n + 1 } else { c.first as i64 },
            c.hours as i64,
        ])
    }

    /// What action `round`'s roll does to the clock `c`.
    pub fn after(&self, round: usize, c: &Clock, roll: &Roll) -> After<Clock, [i64; FIELDS]> {
        let mut c = *c;
        match *roll {
            Roll::Refill(d) => {
                c.hours = (REFILL_BASE + d).min(self.full);
                c.refill = false;
                return self.next(round, c);
            }
            Roll::Scene(hours, ran_out) => {
                if ran_out {
                    c.hours = 0;
                    c.crises += 1;
                    if c.first == 0 {
                        c.first = round as u32;
                    }
                    c.weak = self.weakness;
                    c.refill = c.weak == 0;
                } else {
                    c.hours = hours.min(self.full);
                }
            }
            Roll::Hours(paid, gained) => {
                if c.weak > 0 {
                    // Weakness: the clock is out of reach.
                    c.weak -= 1;
                    c.refill = c.weak == 0;
                } else {
                    c.hours = c.hours.saturating_sub(paid);
                    if c.hours == 0 {
                        c.crises += 1;
                        if c.first == 0 {
                            c.first = round as u32;
                        }
                        c.weak = self.weakness;
                        c.refill = c.weak == 0;
                    } else {
                        c.hours = (c.hours + gained).min(self.full);
                    }
                }
            }
        }
        if c.refill {
            After::Roll(c)
        } else {
            self.next(round, c)
        }
    }
}

/// The session as rounds; `laws` (exact only) holds each action's hours
/// law, `draws` (Monte Carlo only) its table.
struct Chained<'a> {
    s: &'a Session,
    laws: Vec<HoursLaw>,
    draws: &'a [Option<Alias>],
}

impl Rounds for Chained<'_> {
    type State = Clock;
    type Roll = Roll;
    type Outcome = [i64; FIELDS];

    fn start(&self) -> Clock {
        Clock {
            hours: self.s.start,
            weak: 0,
            crises: 0,
            first: 0,
            refill: false,
        }
    }

    fn law(&self, round: usize, c: &Clock, out: &mut Vec<(Roll, f64)>) {
        if c.refill {
            out.extend((1..=6).map(|d| (Roll::Refill(d), 1.0 / 6.0)));
        } else if c.weak > 0 {
            out.push((Roll::Hours(0, 0), 1.0));
        } else {
            out.extend(
                self.laws[round - 1]
                    .iter()
                    .map(|&((p, g), q)| (Roll::Hours(p, g), q)),
            );
        }
    }

    /// A bespoke draw, not benched: a tension scene's law is its exact
    /// answer, which exists only within the solver's limits (the sampler
    /// has none: `laws` is empty), so a scene step is played, not drawn.
    /// An action step draws the action's table. The chain is its oracle
    /// (`assert_roll_is_law`, `assert_chain_samples_as` in the tests).
    fn roll(&self, round: usize, c: &Clock, rng: &mut DiceRng) -> Roll {
        if c.refill {
            Roll::Refill(rng.die(6))
        } else if c.weak > 0 {
            // Nothing the action does reaches the clock.
            Roll::Hours(0, 0)
        } else {
            match &self.s.actions[round - 1] {
                Step::Action(_) => {
                    let table = self.draws[round - 1].as_ref();
                    let v = table.expect("an action step has a table").draw(rng);
                    Roll::Hours(v & 0xffff, v >> 16)
                }
                Step::Scene { tension, who } => {
                    let (hours, ran_out) =
                        tension.play_with(rng, Some((*who, c.hours)), &mut Vec::new());
                    Roll::Scene(hours, ran_out)
                }
            }
        }
    }

    fn after(&self, round: usize, c: &Clock, roll: &Roll) -> After<Clock, [i64; FIELDS]> {
        self.s.after(round, c, roll)
    }
}

impl Trial for Session {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let chain = Chained {
            s: self,
            laws: Vec::new(),
            draws: self.draws(),
        };
        tally.record_trials(rng, trials, |rng| play(&chain, rng));
    }

    fn exact(&self) -> Option<Marginals> {
        Session::exact(self)
    }
}

/// The mechanic `cgg.session`.
pub struct SessionMechanic;

impl Define for SessionMechanic {
    type Params = SessionParams;
    type Trial = Session;
    const NAME: &'static str = "cgg.session";
    const SUMMARY: &'static str = "One explorer's crisis clock over a session of actions or tension scenes: hours paid and gained, crises, the weakness and the 3 + 1d6 refill.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool("crisis", "At least one crisis in the session."),
                FieldSpec::int("crises", "Crises in the session."),
                FieldSpec::int(
                    "first_crisis",
                    "The action in which the clock first ran out (actions + 1 when it never did).",
                ),
                FieldSpec::int("hours_left", "Hours on the clock at the end."),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_crisis",
                    CRISIS,
                    Pred::Eq(1),
                    "Probability of a crisis within the session.",
                ),
                MetricSpec::mean("mean_crises", CRISES, "Mean crises per session."),
                MetricSpec::mean(
                    "mean_actions_to_first_crisis",
                    FIRST_CRISIS,
                    "Mean actions until the first crisis, a session without one counting as actions + 1.",
                ),
                MetricSpec::mean(
                    "mean_hours_left",
                    HOURS_LEFT,
                    "Mean hours on the clock at the end.",
                ),
            ],
        }
    }

    /// Every step of the sequence read (its actions and tension scenes)
    /// and the explorer's hours within the full clock.
    fn check(&self, p: &SessionParams) -> Result<Vec<Warning>, ParamError> {
        steps(p)?;
        Ok(Vec::new())
    }

    /// `actions` beside a `sequence`; without one, what the one action's
    /// keys leave idle (a sequence's entries may set the keys again).
    fn idle(&self, p: &SessionParams) -> Vec<&'static str> {
        if p.sequence.is_some() {
            return vec!["actions"];
        }
        p.keys().idle()
    }

    fn build(&self, p: SessionParams) -> Session {
        // The steps are read again: the check kept nothing.
        let (actions, full, start) = steps(&p).expect(CHECKED);
        Session::new(actions, full, start, p.crisis_actions)
    }
}

#[cfg(test)]
mod tests {
    use super::super::action::ActionMechanic;
    use super::*;
    use crate::systems::testing::{
        assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies,
        assert_roll_is_law,
    };
    use crate::systems::{ParamMap, ParamValue};

    /// An action entry is `cgg.action` over the session's keys with the
    /// entry's in their place: a key counts as set when either sets it.
    #[test]
    fn an_entry_is_the_action_of_the_keys_merged() {
        use ParamValue::{Bool, Int, Str};
        let session = [
            ("difficulty.opponent", Str("5d".into())),
            ("stunt.paid", Bool(true)),
            ("policy.wrench", Str("deny".into())),
        ];
        let entry = [("stunt.moved", Int(1)), ("explorer.code", Str("4d".into()))];
        let merged: Vec<_> = session.iter().chain(&entry).cloned().collect();
        let table = |pairs: &[(&str, ParamValue)]| {
            ParamValue::Table(
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect(),
            )
        };
        let mut with_entry = session.to_vec();
        with_entry.push(("sequence", ParamValue::List(vec![table(&entry)])));
        let s = SessionMechanic
            .trial(&ParamMap::from_pairs(&with_entry))
            .unwrap();
        let a = ActionMechanic
            .trial(&ParamMap::from_pairs(&merged))
            .unwrap();
        assert_eq!(a.base, 6, "the session's opponent stands");
        assert_eq!(s.actions, vec![Step::Action(a)]);
        // The session's opponent and the entry's base are both set.
        with_entry.pop();
        with_entry.push((
            "sequence",
            ParamValue::List(vec![table(&[]), table(&[("difficulty.base", Int(5))])]),
        ));
        let e = SessionMechanic
            .trial(&ParamMap::from_pairs(&with_entry))
            .unwrap_err();
        assert_eq!(e.key, "sequence");
        assert_eq!(
            e.message,
            "action 2: `difficulty.opponent`: give either difficulty.base or difficulty.opponent, not both"
        );
    }

    /// The chain is the walk of every path of rolls, and its sampler is
    /// the session's own, on a session of five actions (wrench and hammer
    /// both used) from 2 hours, short of time enough to meet crises,
    /// weakness and the refill's d6: five rounds of at most two rolls,
    /// each of a handful of (paid, gained) outcomes.
    #[test]
    fn the_chain_is_the_enumeration() {
        let s = SessionMechanic
            .trial(&ParamMap::from_pairs(&[
                ("actions", ParamValue::Int(5)),
                ("explorer.hours", ParamValue::Int(2)),
                ("crisis.actions", ParamValue::Int(1)),
                ("policy.wrench", ParamValue::Str("deny".into())),
                ("policy.hammer", ParamValue::Str("always".into())),
            ]))
            .unwrap();
        let solver = Chained {
            s: &s,
            laws: s.laws().unwrap(),
            draws: &[],
        };
        let (exact, lost) = assert_chain_is_enumeration(&solver, FIELDS, 10, "session");
        assert_eq!(lost, 0.0, "a session ends after its actions");
        assert!(exact.field(CRISIS)[&1] > 0.0, "crises are met");
        let sampler = Chained {
            s: &s,
            laws: Vec::new(),
            draws: s.draws(),
        };
        assert_roll_is_law(&solver, &sampler, 5_000, "session");
        let tally = assert_chain_samples_as::<_, FIELDS>(
            &solver,
            20_000,
            |rng, n, t| s.simulate(rng, n, t),
            "session",
        );
        assert_frequencies(&tally, &exact, "session");
    }
}
