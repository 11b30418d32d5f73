//! A tension scene as [`Rounds`]: the general loop of [`Tension::play_with`]
//! stated a roll at a time, for the generic chain ([`crate::sim::Chain`]).
//!
//! Every turn is one roll ([`After::Roll`]) and the Exec's raise closes the
//! round ([`After::Round`]): an action's fields, a diligence roll's
//! leverage dice, or, for a turn with nothing to roll (Idle) and a fixed
//! raise, a roll with one sure value. Each roll's law is stated once
//! ([`Rounds::law`]): the action's own ([`table::law`]), the diligence
//! roll's, the raise's; the chain draws from it through its alias tables.
//! The general loop draws the same laws from its own tables
//! ([`Prepared`]), and the chain's sampler is its oracle in distribution.
//!
//! The state is what the next roll depends on and what the scene's fields
//! add up: the tracks, each explorer's clock (0: in crisis), the Edge's
//! bonus (cut where more changes no action), leverage waiting and hours
//! paid and gained, and within a round who acted or helped. The chain is
//! the oracle of the bespoke samplers ([`plain`](super::plain), its pairs,
//! the general loop): its exact answer for short scenes, and its sampler
//! for any.

use std::sync::OnceLock;

use super::drawn::{Drawn, pack};
use super::prepared::Prepared;
use super::{
    AVOIDED, Effective, HOURS_GAINED, HOURS_PAID, IN_CRISIS, MAX_EXPLORERS, MAX_PITFALLS,
    PER_EXPLORER, PITFALL, PITFALL_SPRUNG, ROUNDS, Standing, Tension, Turn, View, helpers_of,
};
use crate::model::{After, Rounds};
use crate::systems::cgg::action::table;
use crate::systems::cgg::diligence::Diligence;
use crate::systems::cgg::risk::RiskTable;

/// The most fields a scene has: its own, then two per explorer.
pub const MAX_FIELDS: usize = PER_EXPLORER + 2 * MAX_EXPLORERS;

/// A scene between rolls. Explorers past the scene's list stay at 0.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SceneState {
    tracks: [i64; MAX_PITFALLS],
    /// The place in the turn order of the next turn; past the last: the
    /// Exec's raise.
    turn: u8,
    /// Explorers who acted or helped this round, and who helped, as bit
    /// sets.
    busy: u16,
    helped: u16,
    /// Each explorer's clock (0: in crisis), the Edge's bonus (at most
    /// its cut), leverage waiting, hours paid and gained.
    hours: [u8; MAX_EXPLORERS],
    bonus: [u8; MAX_EXPLORERS],
    leverage: [u16; MAX_EXPLORERS],
    paid: [u16; MAX_EXPLORERS],
    gained: [u16; MAX_EXPLORERS],
}

/// One roll of a scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SceneRoll {
    /// An action's fields.
    Act(Drawn),
    /// A diligence roll's leverage dice.
    Ready(u32),
    /// An Idle turn: nothing rolled.
    Idle,
    /// The Exec's raise.
    Raise(u32),
}

/// A finished scene's fields: the first `len` of `values`.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneFields {
    len: usize,
    values: [i64; MAX_FIELDS],
}

impl AsRef<[i64]> for SceneFields {
    fn as_ref(&self) -> &[i64] {
        &self.values[..self.len]
    }
}

impl<const N: usize> From<SceneFields> for [i64; N] {
    fn from(f: SceneFields) -> [i64; N] {
        assert_eq!(f.len, N, "a scene's fields counted otherwise");
        std::array::from_fn(|k| f.values[k])
    }
}

/// What the next roll is.
enum Step {
    /// Explorer `i`'s turn, addressing track `addr`.
    Turn { i: usize, addr: usize, turn: Turn },
    /// The Exec's raise.
    Raise,
}

/// A scene's rounds.
pub struct SceneRounds<'a> {
    t: &'a Tension,
    prep: &'a Prepared,
    /// Each explorer's success cut without help: the Edge's bonus past it
    /// changes no action.
    bonus_cap: Vec<u8>,
    /// Each action slot's law, the first time the solver asks for it.
    laws: Vec<OnceLock<Vec<(Drawn, f64)>>>,
    /// Each explorer's law of leverage dice (empty without a policy).
    ready: Vec<Vec<(u32, f64)>>,
}

impl<'a> SceneRounds<'a> {
    /// The rounds of `t`, drawing from `prep` (its [`Prepared`]).
    pub fn new(t: &'a Tension, prep: &'a Prepared) -> SceneRounds<'a> {
        let bonus_cap = (0..t.explorers.len())
            .map(|i| {
                let cut = t.action(i, &Standing::default(), 0, false).success_cut();
                cut.min(u8::MAX as u32) as u8
            })
            .collect();
        let ready = t
            .explorers
            .iter()
            .map(|e| {
                let mut law: Vec<(u32, f64)> = Vec::new();
                if e.policy.is_some() {
                    let d = Diligence {
                        code: e.code,
                        enhancing: None,
                    };
                    for (_, total, p) in RiskTable::new(e.code).probabilities() {
                        let v = d.leverage(total).dice();
                        match law.iter_mut().find(|(x, _)| *x == v) {
                            Some((_, w)) => *w += p,
                            None => law.push((v, p)),
                        }
                    }
                }
                law
            })
            .collect();
        SceneRounds {
            t,
            prep,
            bonus_cap,
            laws: (0..prep.slot_count()).map(|_| OnceLock::new()).collect(),
            ready,
        }
    }

    /// The scene's fields: its own and two per explorer.
    pub fn fields(&self) -> usize {
        PER_EXPLORER + 2 * self.t.explorers.len()
    }

    /// Explorer `i`'s standing in `s`.
    fn standing(&self, s: &SceneState, i: usize) -> Standing {
        Standing {
            bonus: s.bonus[i] as u32,
            leverage: s.leverage[i] as u32,
            hours: s.hours[i] as u32,
            crisis: s.hours[i] == 0,
            paid: s.paid[i] as i64,
            gained: s.gained[i] as i64,
        }
    }

    /// What the next roll in `s` is.
    fn step(&self, s: &SceneState) -> Step {
        let Some(&i) = self.prep.order.get(s.turn as usize) else {
            return Step::Raise;
        };
        let tracks = &s.tracks[..self.t.starts.len()];
        let addr = self.t.addressed(tracks);
        let turn = View {
            track: tracks[addr],
            hours: s.hours[i] as i64,
            leverage: s.leverage[i] as i64,
        }
        .choose(self.t.explorers[i].policy.as_ref());
        Step::Turn { i, addr, turn }
    }

    /// Who helps explorer `i`'s action in `s`, and whether it helped
    /// earlier this round.
    fn help(&self, s: &SceneState, i: usize) -> (u32, bool) {
        let helpers = helpers_of(self.prep.helps, s.busy as u32, i);
        let helped = (s.helped as u32 | helpers) >> i & 1 == 1;
        (helpers, helped)
    }

    /// The scene's end in `s` after `round` rounds.
    fn end(&self, s: &SceneState, avoided: bool, sprung: bool, round: usize) -> SceneFields {
        let n = self.t.explorers.len();
        let mut values = [0; MAX_FIELDS];
        values[AVOIDED] = avoided as i64;
        values[PITFALL_SPRUNG] = sprung as i64;
        values[ROUNDS] = round as i64;
        for i in 0..n {
            let (paid, gained) = (s.paid[i] as i64, s.gained[i] as i64);
            values[HOURS_PAID] += paid;
            values[HOURS_GAINED] += gained;
            values[IN_CRISIS] += (s.hours[i] == 0) as i64;
            values[PER_EXPLORER + 2 * i] = paid;
            values[PER_EXPLORER + 2 * i + 1] = gained;
        }
        SceneFields {
            len: PER_EXPLORER + 2 * n,
            values,
        }
    }

    /// The Edge's +1d of a new round.
    fn give(&self, s: &mut SceneState) {
        if let Some(g) = self.prep.gives {
            s.bonus[g] = (s.bonus[g] + 1).min(self.bonus_cap[g]);
        }
    }
}

impl Rounds for SceneRounds<'_> {
    type State = SceneState;
    type Roll = SceneRoll;
    type Outcome = SceneFields;

    fn start(&self) -> SceneState {
        let mut tracks = [0; MAX_PITFALLS];
        tracks[..self.t.starts.len()].copy_from_slice(&self.t.starts);
        let mut hours = [0; MAX_EXPLORERS];
        for (h, e) in hours.iter_mut().zip(&self.t.explorers) {
            *h = e.hours as u8;
        }
        let mut s = SceneState {
            tracks,
            turn: 0,
            busy: 0,
            helped: 0,
            hours,
            bonus: [0; MAX_EXPLORERS],
            leverage: [0; MAX_EXPLORERS],
            paid: [0; MAX_EXPLORERS],
            gained: [0; MAX_EXPLORERS],
        };
        self.give(&mut s);
        s
    }

    fn law(&self, _: usize, s: &SceneState, out: &mut Vec<(SceneRoll, f64)>) {
        match self.step(s) {
            Step::Raise => match self.t.raise {
                0 => out.extend((1..=3).map(|r| (SceneRoll::Raise(r), 1.0 / 3.0))),
                r => out.push((SceneRoll::Raise(r), 1.0)),
            },
            Step::Turn {
                turn: Turn::Idle, ..
            } => out.push((SceneRoll::Idle, 1.0)),
            Step::Turn {
                turn: Turn::Ready { .. },
                i,
                ..
            } => out.extend(self.ready[i].iter().map(|&(v, p)| (SceneRoll::Ready(v), p))),
            Step::Turn { i, .. } => {
                let (helpers, helped) = self.help(s, i);
                let st = self.standing(s, i);
                let slot = self.prep.slot_of(i, &st, helpers.count_ones(), helped);
                let law = self.laws[slot].get_or_init(|| {
                    let a = self.t.action(i, &st, helpers.count_ones() as usize, helped);
                    table::law(&a.canonical(), pack)
                        .into_iter()
                        .map(|(v, p)| (Drawn::unpack(v), p))
                        .collect()
                });
                out.extend(law.iter().map(|&(d, p)| (SceneRoll::Act(d), p)));
            }
        }
    }

    fn after(
        &self,
        round: usize,
        s: &SceneState,
        roll: &SceneRoll,
    ) -> After<SceneState, SceneFields> {
        let t = self.t;
        let mut s = s.clone();
        let k = t.starts.len();
        let (i, addr, turn) = match self.step(&s) {
            Step::Turn { i, addr, turn } => (i, addr, turn),
            Step::Raise => {
                let SceneRoll::Raise(r) = *roll else {
                    unreachable!("the Exec's raise rolled as {roll:?}")
                };
                let top = t.top(&s.tracks[..k]);
                s.tracks[top] += r as i64;
                if s.tracks[top] >= PITFALL {
                    return After::End(self.end(&s, false, true, round));
                }
                if round >= t.max_rounds as usize {
                    return After::End(self.end(&s, false, false, round));
                }
                (s.turn, s.busy, s.helped) = (0, 0, 0);
                self.give(&mut s);
                return After::Round(s);
            }
        };
        let full = t.explorers[i].full;
        let mut st = self.standing(&s, i);
        match (turn, *roll) {
            (Turn::Idle, SceneRoll::Idle) => st.settle(0, 1, full),
            (Turn::Ready { cue }, SceneRoll::Ready(lev)) => {
                st.leverage += lev + cue as u32;
                if cue {
                    s.tracks[addr] += 1;
                }
            }
            (Turn::Act, SceneRoll::Act(o)) => {
                let (helpers, _) = self.help(&s, i);
                s.busy |= helpers as u16;
                s.helped |= helpers as u16;
                st.leverage = 0;
                st.settle(o.paid, o.gained, full);
                if o.success {
                    let effective = match t.effective {
                        Effective::VentureLeft => o.venture_left,
                        Effective::Edge => i == t.holder,
                    };
                    s.tracks[addr] -= if effective { 2 } else { 1 };
                }
            }
            (turn, roll) => unreachable!("a {turn} turn rolled as {roll:?}"),
        }
        s.hours[i] = st.hours as u8;
        s.leverage[i] = st.leverage.min(u16::MAX as u32) as u16;
        s.paid[i] = st.paid as u16;
        s.gained[i] = st.gained as u16;
        if s.tracks[addr] >= PITFALL {
            return After::End(self.end(&s, false, true, round));
        }
        if s.tracks[addr] <= 0 {
            return After::End(self.end(&s, true, false, round));
        }
        s.busy |= 1 << i;
        s.turn += 1;
        After::Roll(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceRng;
    use crate::model::Marginals;
    use crate::sim::{Chain, Tally};
    use crate::systems::ParamValue::{self, Bool, Int, List, Str};
    use crate::systems::Trial;
    use crate::systems::cgg::tension::tests::{scene, table};
    use crate::systems::testing::{
        assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies, assert_same_law,
    };

    fn s(v: &str) -> ParamValue {
        Str(v.into())
    }

    fn when(pairs: &[(&str, i64)]) -> ParamValue {
        table(&pairs.iter().map(|&(k, v)| (k, Int(v))).collect::<Vec<_>>())
    }

    /// The general loop, scene after scene: what [`Trial::simulate`]
    /// runs for a scene with a turn policy.
    fn general(t: &Tension, rng: &mut DiceRng, n: u64, tally: &mut Tally) {
        let prep = t.prepared.get(t);
        let mut out = Vec::new();
        for _ in 0..n {
            t.play_by(prep, prep, rng, None, &mut out);
            tally.record_outcome(&out);
        }
    }

    /// The shipped scenario's explorers (scenarios/cgg-tension.toml): ann
    /// 4d, bob 3d helping, cy 2d with `hours` on her clock, idling at 2
    /// hours or fewer when `idles`; ann holds the Edge and acts first.
    fn shipped(idles: bool, hours: i64, more: &[(&'static str, ParamValue)]) -> Tension {
        let mut cy = vec![("name", s("cy")), ("code", s("2d")), ("hours", Int(hours))];
        if idles {
            let idle = table(&[
                ("choose", s("idle")),
                ("when", when(&[("hours_at_most", 2)])),
            ]);
            cy.push(("policy", List(vec![idle])));
        }
        let mut pairs = vec![
            (
                "explorers",
                List(vec![
                    table(&[("name", s("ann")), ("code", s("4d"))]),
                    table(&[("name", s("bob")), ("code", s("3d")), ("helps", Bool(true))]),
                    table(&cy),
                ]),
            ),
            ("edge.holder", s("ann")),
            ("edge.first", s("self")),
        ];
        pairs.extend_from_slice(more);
        scene(&pairs)
    }

    /// One 3d explorer with 2 hours against difficulty 3, from a track
    /// at 2 raised by 1 a round: it idles at 1 hour, gets ready (cueing
    /// the Exec) without leverage once the track is at 3 or more, else
    /// acts.
    fn ready_and_idle(more: &[(&'static str, ParamValue)]) -> Tension {
        let policy = List(vec![
            table(&[
                ("choose", s("idle")),
                ("when", when(&[("hours_at_most", 1)])),
            ]),
            table(&[
                ("choose", s("ready-cue")),
                (
                    "when",
                    when(&[("leverage_at_most", 0), ("track_at_least", 3)]),
                ),
            ]),
        ]);
        let mut pairs = vec![
            (
                "explorers",
                List(vec![table(&[
                    ("code", s("3d")),
                    ("hours", Int(2)),
                    ("policy", policy),
                ])]),
            ),
            ("difficulty.base", Int(3)),
            ("start", Int(2)),
            ("exec.raise", Int(1)),
        ];
        pairs.extend_from_slice(more);
        scene(&pairs)
    }

    /// Two explorers on two pitfalls: one stunting (moving a die) with 2
    /// hours, one helping and denying the Exec its wrench, the Edge to
    /// the weakest, the lowest track addressed, a success by the Edge's
    /// holder particularly effective.
    fn help_and_stunt(more: &[(&'static str, ParamValue)]) -> Tension {
        let mut pairs = vec![
            (
                "explorers",
                List(vec![
                    table(&[
                        ("code", s("3d")),
                        ("stunt", Bool(true)),
                        ("moved", Int(1)),
                        ("hours", Int(2)),
                    ]),
                    table(&[
                        ("code", s("2d+2")),
                        ("helps", Bool(true)),
                        ("wrench", s("deny")),
                    ]),
                ]),
            ),
            ("edge.gives", s("weakest")),
            ("pitfalls.address", s("lowest")),
            ("variant.effective", s("edge")),
            ("difficulty.base", Int(7)),
        ];
        pairs.extend_from_slice(more);
        scene(&pairs)
    }

    /// For a short scene: the chain is the walk of every path of rolls
    /// (none longer than `rolls`); its sampler, drawing from the law,
    /// samples as the general loop does; and both its tally and the scene's own
    /// Monte Carlo ([`Trial::simulate`]: the pairs, the plain chains or
    /// the general loop) have every value of every field as often as the
    /// chain's exact law says, within 5 standard errors.
    fn short<const N: usize>(t: &Tension, rolls: usize, what: &str) -> Marginals {
        let r = t.rounds();
        let (exact, lost) = assert_chain_is_enumeration(&r, N, rolls, what);
        assert_eq!(lost, 0.0, "{what}: the scene ends by its last round");
        let tally = assert_chain_samples_as::<_, N>(
            &r,
            20_000,
            |rng, n, tally| general(t, rng, n, tally),
            what,
        );
        assert_frequencies(&tally, &exact, what);
        let mut own = Tally::new(N);
        t.simulate(&mut DiceRng::from_u64(5), 200_000, &mut own);
        let z = assert_frequencies(&own, &exact, &format!("{what}, its own sampler"));
        eprintln!("{what}: its own sampler's worst |z| = {z:.2}");
        exact
    }

    /// Short scenes down every path: Idle, Ready (cueing the Exec) and
    /// Act turns; help, a stunt, a clock run out, the Edge's bonus, two
    /// pitfalls and an effective success; the plain scenes a round a draw
    /// (two explorers) and a turn a draw (three); each cut off at its
    /// last round or ended on a track.
    #[test]
    fn the_chain_is_the_enumeration_and_the_samplers_draw_its_law() {
        let few = |rounds: i64| ("max_rounds", Int(rounds));
        let t = ready_and_idle(&[few(4)]);
        let exact = short::<8>(&t, 8, "ready and idle");
        assert!(exact.field(PER_EXPLORER + 1)[&1] > 0.0, "an hour is gained");
        assert!(exact.field(ROUNDS)[&3] > 0.0, "a scene runs to its cap");

        let t = help_and_stunt(&[("pitfalls", List(vec![Int(3), Int(10)])), few(3)]);
        assert!(t.prepared.get(&t).pair.is_some());
        let exact = short::<10>(&t, 9, "help and a stunt");
        let seen = |f: usize| exact.field(f).get(&1).is_some_and(|&p| p > 0.0);
        assert!(seen(IN_CRISIS), "a clock runs out");
        assert!(seen(AVOIDED) && seen(PITFALL_SPRUNG), "both ends are met");

        let t = shipped(false, 12, &[("start", Int(2)), few(1)]);
        assert!(t.prepared.get(&t).plain.is_some() && t.prepared.get(&t).pair.is_none());
        short::<12>(&t, 4, "three plain explorers");

        let t = shipped(
            true,
            2,
            &[("start", Int(3)), ("exec.raise", Int(2)), few(2)],
        );
        assert!(t.prepared.get(&t).plain.is_none());
        short::<12>(&t, 8, "the shipped scene");
    }

    /// Scenes too long for the exact chain (the sums of hours make too
    /// many states): the chain's sampler samples as the general loop
    /// does, and each scene's own Monte Carlo agrees with
    /// it within 5 standard errors of every value of every field, 200,000
    /// trials a side.
    fn long<const N: usize>(t: &Tension, what: &str) {
        let r = t.rounds();
        assert_chain_samples_as::<_, N>(
            &r,
            20_000,
            |rng, n, tally| general(t, rng, n, tally),
            what,
        );
        let mut chain = Tally::new(N);
        Chain::new(&r, N).simulate::<N>(&mut DiceRng::from_u64(3), 200_000, &mut chain);
        let mut own = Tally::new(N);
        t.simulate(&mut DiceRng::from_u64(4), 200_000, &mut own);
        let z = assert_same_law(&own, &chain, what);
        eprintln!("{what}: worst |z| = {z:.2}");
    }

    /// The default scene (a round a draw), the shipped scene with its
    /// turn policy and without (the general loop; three plain chains),
    /// and scenes with help, stunts, Ready turns and two pitfalls.
    #[test]
    fn the_samplers_draw_the_chains_law() {
        long::<10>(&scene(&[]), "the default scene");
        let config = [("edge.gives", s("weakest")), ("difficulty.base", Int(5))];
        long::<12>(&shipped(true, 12, &config), "the shipped scene");
        long::<12>(&shipped(false, 12, &config), "the shipped scene, plain");
        let t = help_and_stunt(&[("pitfalls", List(vec![Int(6), Int(9)]))]);
        long::<10>(&t, "help and a stunt");
        long::<8>(&ready_and_idle(&[]), "ready and idle");
    }
}
