//! Tension mode (rules §3.8) and the mechanic `cgg.tension`.
//!
//! One or more pitfall tracks start where the scenario says. Each round:
//!
//! 1. The explorer with the Edge gives one explorer (policy `edge.gives`)
//!    a **cumulative +1d** to its success code for the rest of the scene,
//!    and picks who acts first (`edge.first`); the others follow in list
//!    order.
//! 2. Every explorer, in turn, does what its own policy says ([`choice`]):
//!    **Act** (a full `cgg.action` against the shared difficulty, helped
//!    by the helpers who have neither acted nor helped yet this round:
//!    teamwork −1, organised −2 for two or more; a helper rolls its own
//!    risk at −1d when it acts later; it may stunt), go **Idle** (gain one
//!    hour) or get **Ready** (a diligence roll of its code whose leverage
//!    dice join its next action's success code; +1d more if it cues the
//!    Exec, which raises the track by 1). A success lowers the track the
//!    explorers address (`pitfalls.address`) by 1, by 2 when
//!    "particularly effective" (`variant.effective`).
//! 3. The Exec raises the highest track by 1d3 (or a fixed 1..=3).
//!
//! The scene ends when a track reaches 0 (that pitfall avoided) or 15 (it
//! happens). Each explorer keeps its crisis clock through the scene, as
//! in `cgg.session`: at 0 it is in crisis for the rest of the scene (no
//! wrench, no stunt, no hours paid or gained). Monte Carlo only: each
//! action, diligence roll and raise is drawn as one roll (an action's
//! fields from a table of its exact law, [`prepared`]), the scene's
//! rounds played here. A plain scene (no turn policy) is played by its
//! explorers' chains instead, one draw a turn ([`plain`]), or for two
//! explorers one draw a round ([`pair`]). The same rules a roll at a
//! time, for the generic chain, are [`rounds`]: the oracle of all three
//! samplers, each of which stays because it is many times the chain's
//! rate (its doc comment says how many). An action's drawn fields are in
//! [`drawn`]; the mechanic's parameters and schema are in [`mechanic`].

mod choice;
mod drawn;
mod explorer;
mod mechanic;
mod pair;
mod plain;
mod prepared;
mod rounds;
#[cfg(test)]
mod tests;

use prepared::{Prepared, Rolls};

pub use choice::{Turn, TurnPolicy, View};
pub use explorer::{EXPLORERS_EXPECT, Explorer, MAX_EXPLORERS, Pick};
pub use mechanic::TensionMechanic;
pub use rounds::{SceneFields, SceneRoll, SceneRounds, SceneState};

use super::action::Action;
use super::action::RULE_PARAMS;
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::systems::{Choice, Lit, ParamKind, ParamSpec, Trial};

/// The track value at which the pitfall happens.
pub const PITFALL: i64 = 15;
/// The most pitfalls in play at once.
pub const MAX_PITFALLS: usize = 6;

crate::choice! {
    /// Which pitfall the explorers address.
    pub enum Address {
        /// The one nearest to happening.
        Highest = "highest",
        /// The one nearest to being avoided.
        Lowest = "lowest",
    }
}

crate::choice! {
    /// When a success is "particularly effective" (lowers the track by 2).
    pub enum Effective {
        /// A house reading: success with a venture left unspent.
        VentureLeft = "venture-left",
        /// Success by the explorer holding the Edge.
        Edge = "edge",
    }
}

const PICK_EXPECTS: &str =
    "\"none\", \"self\" (the holder), \"weakest\", \"strongest\" or an explorer's name";

static PARAMS: [ParamSpec; 27] = [
    ParamSpec {
        path: "explorers",
        kind: ParamKind::Custom {
            expects: EXPLORERS_EXPECT,
        },
        default: Lit::Absent,
        doc: "The explorers, each a die code or a table { name, code, risk_code, hours (clock at the start), roles (1: 12 hours, 2: 9), stunt, moved, helps, wrench, policy (Act/Idle/Ready rules) }; default two explorers at 3d.",
    },
    ParamSpec {
        path: "start",
        kind: ParamKind::Int { min: 1, max: 14 },
        default: Lit::Int(7),
        doc: "Where the pitfall track starts (one pitfall; see `pitfalls` for several).",
    },
    ParamSpec {
        path: "pitfalls",
        kind: ParamKind::Custom {
            expects: "a list of 1..=6 track starts, each 1..=14, e.g. [7, 10]",
        },
        default: Lit::Absent,
        doc: "Several pitfalls in play: where each track starts (not with `start`). The scene ends when any track reaches 0 or 15.",
    },
    ParamSpec {
        path: "pitfalls.address",
        kind: ParamKind::Choice(Address::NAMES),
        default: Lit::Str("highest"),
        doc: "The track the explorers' successes lower: the highest or the lowest.",
    },
    ParamSpec {
        path: "exec.raise",
        kind: ParamKind::IntOrName {
            min: 1,
            max: 3,
            names: &[("d3", 0)],
        },
        default: Lit::Str("d3"),
        doc: "The Exec's raise of the highest track at the end of each round: \"d3\" (rolled) or a fixed 1..=3.",
    },
    ParamSpec {
        path: "max_rounds",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: Lit::Int(100),
        doc: "Stop a scene still running after this many rounds (counted as unresolved).",
    },
    ParamSpec {
        path: "edge.holder",
        kind: ParamKind::Custom {
            expects: "an explorer's name (e1, e2 … when unnamed)",
        },
        default: Lit::Absent,
        doc: "The explorer with the Edge; unset: the first listed.",
    },
    ParamSpec {
        path: "edge.gives",
        kind: ParamKind::Custom {
            expects: PICK_EXPECTS,
        },
        default: Lit::Str("self"),
        doc: "Who gets the holder's cumulative +1d each round.",
    },
    ParamSpec {
        path: "edge.first",
        kind: ParamKind::Custom {
            expects: PICK_EXPECTS,
        },
        default: Lit::Str("self"),
        doc: "Who acts first each round (\"none\": the list order).",
    },
    ParamSpec {
        path: "variant.effective",
        kind: ParamKind::Choice(Effective::NAMES),
        default: Lit::Str("venture-left"),
        doc: "A \"particularly effective\" success (−2): with a venture left unspent (house reading) or by the Edge holder.",
    },
    ParamSpec {
        path: "stunt.paid",
        kind: ParamKind::Bool,
        default: Lit::Bool(false),
        doc: "Every explorer stunts on every action (an explorer's own `stunt` adds to this): one hour for +1d.",
    },
    ParamSpec {
        path: "stunt.moved",
        kind: ParamKind::Int { min: 0, max: 9 },
        default: Lit::Int(0),
        doc: "With stunt.paid: dice every explorer moves from risk to success (at most its risk dice).",
    },
    RULE_PARAMS[0],
    RULE_PARAMS[1],
    RULE_PARAMS[2],
    RULE_PARAMS[3],
    RULE_PARAMS[4],
    RULE_PARAMS[5],
    RULE_PARAMS[6],
    RULE_PARAMS[7],
    RULE_PARAMS[8],
    RULE_PARAMS[9],
    RULE_PARAMS[10],
    RULE_PARAMS[11],
    RULE_PARAMS[12],
    RULE_PARAMS[13],
    RULE_PARAMS[14],
];

/// A resolved tension scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Tension {
    pub explorers: Vec<Explorer>,
    /// Each explorer's action before the scene changes it (its code and
    /// risk code, the shared difficulty and rules, its wrench policy).
    pub actions: Vec<Action>,
    pub starts: Vec<i64>,
    pub address: Address,
    /// 0: roll 1d3; else this fixed raise.
    pub raise: u32,
    pub max_rounds: u32,
    pub holder: usize,
    pub gives: Pick,
    pub first: Pick,
    pub effective: Effective,
    prepared: prepared::Cache,
}

/// Field indices; then two per explorer from [`PER_EXPLORER`].
pub const AVOIDED: usize = 0;
pub const PITFALL_SPRUNG: usize = 1;
pub const ROUNDS: usize = 2;
pub const HOURS_PAID: usize = 3;
pub const HOURS_GAINED: usize = 4;
pub const IN_CRISIS: usize = 5;
pub const PER_EXPLORER: usize = 6;

/// Who helps explorer `i`'s action: the helpers (`helps`, a bit set) who
/// have neither acted nor helped yet this round (`busy`).
fn helpers_of(helps: u32, busy: u32, i: usize) -> u32 {
    helps & !busy & !(1 << i)
}

/// One explorer's standing in a scene.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Standing {
    bonus: u32,
    leverage: u32,
    hours: u32,
    crisis: bool,
    paid: i64,
    gained: i64,
}

impl Standing {
    /// Settle an action's (or a turn's) hours on the clock, as a session
    /// does: paid first, then, unless that emptied it, gained.
    fn settle(&mut self, paid: u32, gained: u32, full: u32) {
        if self.crisis {
            return;
        }
        let before = self.hours;
        self.hours = self.hours.saturating_sub(paid);
        self.paid += (before - self.hours) as i64;
        if self.hours == 0 {
            self.crisis = true;
            return;
        }
        let before = self.hours;
        self.hours = (self.hours + gained).min(full);
        self.gained += (self.hours - before) as i64;
    }
}

impl Tension {
    /// The track the explorers address (`pitfalls.address`), the first
    /// listed among equals.
    #[inline]
    fn addressed(&self, tracks: &[i64]) -> usize {
        // One pitfall, the usual scene: nothing to pick from.
        if tracks.len() == 1 {
            return 0;
        }
        let mut pick = 0;
        for (i, &t) in tracks.iter().enumerate() {
            let better = match self.address {
                Address::Highest => t > tracks[pick],
                Address::Lowest => t < tracks[pick],
            };
            if better {
                pick = i;
            }
        }
        pick
    }

    /// The highest track, the first listed among equals: the one the
    /// Exec raises.
    #[inline]
    fn top(&self, tracks: &[i64]) -> usize {
        if tracks.len() == 1 {
            return 0;
        }
        (0..tracks.len())
            .max_by_key(|&k| (tracks[k], -(k as i64)))
            .unwrap()
    }

    /// Explorer `i`'s stunt this turn: whether it stunts, and the dice it
    /// moves from risk to success.
    fn stunt(&self, i: usize, s: &Standing) -> (bool, u32) {
        let e = &self.explorers[i];
        let stunt = e.stunt && !s.crisis;
        (stunt, if stunt { e.moved } else { 0 })
    }

    /// Explorer `i`'s success dice this turn: its code, the Edge's bonus,
    /// leverage and a stunt's.
    #[inline]
    fn success_dice(&self, i: usize, s: &Standing) -> u32 {
        let (stunt, moved) = self.stunt(i, s);
        self.explorers[i].code.dice() + s.bonus + s.leverage + stunt as u32 + moved
    }

    /// Explorer `i`'s action this turn.
    fn action(&self, i: usize, s: &Standing, helpers: usize, helped: bool) -> Action {
        let e = &self.explorers[i];
        let mut a = self.actions[i];
        let (stunt, moved) = self.stunt(i, s);
        a.success_dice = self.success_dice(i, s);
        a.risk_code = a
            .risk_code
            .map(|_| e.risk_code.add_dice(-(moved as i64) - helped as i64));
        a.adjust -= match helpers {
            0 => 0,
            1 => 1,
            _ => 2,
        };
        a.hours_before = stunt as u32;
        if s.crisis {
            a.rules.wrench = super::action::Wrench::None.into();
        }
        a
    }

    /// One scene, into `out` (the fields in order).
    pub fn play(&self, rng: &mut DiceRng, out: &mut Vec<i64>) {
        self.play_with(rng, None, out);
    }

    /// One scene with explorer `who`'s clock at `hours` (0: in crisis)
    /// when it starts, a session's clock carried in; returns that
    /// explorer's hours at the end and whether its clock ran out.
    // Out of line: a session's round, which calls it, stays small for
    // the sessions without scenes.
    #[inline(never)]
    pub fn play_with(
        &self,
        rng: &mut DiceRng,
        clock: Option<(usize, u32)>,
        out: &mut Vec<i64>,
    ) -> (u32, bool) {
        let prep = self.prepared.get(self);
        match &prep.plain {
            Some(plain) => plain.play(self, &prep.order, rng, clock, out),
            None => self.play_by(prep, prep, rng, clock, out),
        }
    }

    /// [`Tension::play_with`], each roll drawn from `rolls`, every turn
    /// played out: the loop for scenes with turn policies.
    fn play_by(
        &self,
        prep: &Prepared,
        rolls: &impl Rolls,
        rng: &mut DiceRng,
        clock: Option<(usize, u32)>,
        out: &mut Vec<i64>,
    ) -> (u32, bool) {
        let n = self.explorers.len();
        let mut st = [Standing::default(); MAX_EXPLORERS];
        let st = &mut st[..n];
        for (s, e) in st.iter_mut().zip(&self.explorers) {
            s.hours = e.hours;
        }
        if let Some((who, hours)) = clock {
            st[who].hours = hours;
            st[who].crisis = hours == 0;
        }
        let mut tracks = [0; MAX_PITFALLS];
        let tracks = &mut tracks[..self.starts.len()];
        tracks.copy_from_slice(&self.starts);
        let (mut avoided, mut sprung, mut rounds) = (false, false, self.max_rounds as i64);
        'scene: for round in 1..=self.max_rounds as i64 {
            if let Some(t) = prep.gives {
                st[t].bonus += 1;
            }
            // Explorers who acted or helped (`busy`) and who helped, as
            // bit sets.
            let (mut busy, mut helped) = (0u32, 0u32);
            for &i in &prep.order {
                let e = &self.explorers[i];
                let addr = self.addressed(tracks);
                let turn = View {
                    track: tracks[addr],
                    hours: st[i].hours as i64,
                    leverage: st[i].leverage as i64,
                }
                .choose(e.policy.as_ref());
                match turn {
                    Turn::Idle => st[i].settle(0, 1, e.full),
                    Turn::Ready { cue } => {
                        let lev = rolls.ready(self, rng, i);
                        st[i].leverage += lev + cue as u32;
                        if cue {
                            tracks[addr] += 1;
                            if tracks[addr] >= PITFALL {
                                sprung = true;
                                rounds = round;
                                break 'scene;
                            }
                        }
                    }
                    Turn::Act => {
                        let helpers = helpers_of(prep.helps, busy, i);
                        busy |= helpers;
                        helped |= helpers;
                        let count = helpers.count_ones();
                        let helped_i = helped >> i & 1 == 1;
                        let o = rolls.act(self, rng, i, &st[i], count, helped_i);
                        st[i].leverage = 0;
                        st[i].settle(o.paid, o.gained, e.full);
                        if o.success {
                            let effective = match self.effective {
                                Effective::VentureLeft => o.venture_left,
                                Effective::Edge => i == self.holder,
                            };
                            tracks[addr] -= if effective { 2 } else { 1 };
                            if tracks[addr] <= 0 {
                                avoided = true;
                                rounds = round;
                                break 'scene;
                            }
                        }
                    }
                }
                busy |= 1 << i;
            }
            let top = self.top(tracks);
            tracks[top] += match self.raise {
                0 => rng.die(3) as i64,
                r => r as i64,
            };
            if tracks[top] >= PITFALL {
                sprung = true;
                rounds = round;
                break;
            }
        }
        out.clear();
        out.extend([
            avoided as i64,
            sprung as i64,
            rounds,
            st.iter().map(|s| s.paid).sum(),
            st.iter().map(|s| s.gained).sum(),
            st.iter().filter(|s| s.crisis).count() as i64,
        ]);
        for s in st.iter() {
            out.extend([s.paid, s.gained]);
        }
        match clock {
            Some((who, hours)) => (st[who].hours, hours > 0 && st[who].crisis),
            None => (0, false),
        }
    }

    /// The scene's rounds, for the generic chain ([`crate::sim::Chain`]).
    pub fn rounds(&self) -> SceneRounds<'_> {
        SceneRounds::new(self, self.prepared.get(self))
    }

    /// One scene's fields.
    pub fn sample(&self, rng: &mut DiceRng) -> Vec<i64> {
        let mut out = Vec::new();
        self.play(rng, &mut out);
        out
    }
}

impl Trial for Tension {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // On a copy of the generator: through `&mut` its state would go
        // back to memory after every draw.
        let prep = self.prepared.get(self);
        let mut out = Vec::new();
        rng.on_this_frame(|rng| match (&prep.plain, &prep.pair) {
            (Some(plain), Some(pair)) => pair.simulate(plain, self, rng, trials, tally),
            (Some(plain), None) => plain.simulate(self, &prep.order, rng, trials, tally),
            (None, _) => {
                for _ in 0..trials {
                    self.play_by(prep, prep, rng, None, &mut out);
                    tally.record_outcome(&out);
                }
            }
        });
    }
}
