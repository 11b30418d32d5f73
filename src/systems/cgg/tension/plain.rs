//! A plain tension scene (no turn policy: every turn is an action,
//! [`Prepared::plain`](super::prepared::Prepared)) played as one small
//! Markov chain per explorer.
//!
//! In a plain scene who helps whom is the same every round, and an
//! explorer's turn depends on its own standing only: its clock (0: in
//! crisis) and the Edge's bonus, which past the difficulty's cut changes
//! nothing. So each explorer has a few states (hours × bonus), and each
//! state one table over what the turn does: the state it leaves the
//! explorer in (clock settled, next round's bonus given), the hours it
//! paid and gained, and how far it lowers the addressed track. The last explorer in turn order draws the Exec's
//! raise with its action (the raise is independent of it), so a turn is
//! one draw and a round as many draws as explorers.
//!
//! The tables are the settling's and the action's own answers (the
//! action's exact law through [`table::law`], the clock through
//! [`Standing::settle`]), built the first time a state comes up; the
//! tests play the same scenes rolling every die through the general loop,
//! and the two must agree. The Monte Carlo of a scene of two explorers
//! goes further, a round a draw ([`pair`](super::pair)).
//!
//! It stays because it pays: 60× the rate of `sim::Chain::simulate` of
//! the scene's [`SceneRounds`](super::SceneRounds) on the shipped
//! scenario's scene without its turn policy (three explorers), one
//! thread (`benches/chain.rs`, 2026-11-28, measured again after the
//! chain's packed keys: 2.50 ms against 151 ms for 16,384 scenes). The chain is its oracle (the tests in `rounds.rs`).

use std::sync::OnceLock;

use super::drawn::{Drawn, pack};
use super::{
    AVOIDED, Effective, HOURS_GAINED, HOURS_PAID, IN_CRISIS, MAX_EXPLORERS, MAX_PITFALLS,
    PER_EXPLORER, PITFALL, PITFALL_SPRUNG, ROUNDS, Standing, Tension, helpers_of,
};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::cgg::action::table;

/// A drawn turn, one `u64`: the hours paid (bits 0..16) and gained
/// (16..32), so that adding whole turns keeps an explorer's sums; the
/// explorer's next state (32..48: the index of its table); how far the
/// track comes down (48..50) and the Exec's raise (50..52). Sums stay
/// below 2^16: at most 1,000 rounds of at most 12 hours.
pub(super) const GAINED_AT: u32 = 16;
pub(super) const STATE_AT: u32 = 32;
pub(super) const LOWER_AT: u32 = 48;
pub(super) const RAISE_AT: u32 = 50;
pub(super) const HALF: u64 = 0xFFFF;

/// Where one explorer's states are, and how they are numbered: state
/// `first + bonus * clocks + hours`, its table's index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seat {
    /// Its first state.
    pub first: usize,
    /// Clock values, 0 (crisis) to a full clock.
    clocks: usize,
    /// The Edge's bonus past which its action is the same.
    bonus_cap: u32,
    /// It gets the Edge's +1d each round.
    gifted: bool,
    /// It acts last in a round, so its turn also draws the Exec's raise.
    last: bool,
    /// Explorers helping its action, and whether it helped another
    /// earlier in the round: the same every round when every turn is an
    /// action.
    helpers: usize,
    helped: bool,
}

impl Seat {
    /// How many states the explorer has.
    pub(super) fn states(&self) -> usize {
        self.clocks * (self.bonus_cap as usize + 1)
    }

    /// How many of its first states it can be in: without the Edge's
    /// bonus, only those of bonus 0.
    pub(super) fn reachable(&self) -> usize {
        if self.gifted {
            self.states()
        } else {
            self.clocks
        }
    }
}

/// A plain scene's explorer chains.
#[derive(Debug)]
pub struct Plain {
    pub(super) seats: Vec<Seat>,
    /// One table per explorer state, built when the state first comes up.
    tables: Vec<OnceLock<Alias<u64>>>,
    /// The hours on the clock in each state.
    hours: Vec<u8>,
}

impl Plain {
    pub fn new(t: &Tension, order: &[usize], gives: Option<usize>, helps: u32) -> Plain {
        // Who helps whom, as the turn-by-turn loop works it out: each
        // action is helped by the helpers who have neither acted nor
        // helped yet this round.
        let n = t.explorers.len();
        let (mut busy, mut helped, mut help) = (0u32, 0u32, vec![(0, false); n]);
        for &i in order {
            let helpers = helpers_of(helps, busy, i);
            busy |= helpers | 1 << i;
            helped |= helpers;
            help[i] = (helpers.count_ones() as usize, helped >> i & 1 == 1);
        }
        let mut first = 0;
        let seats = (0..n)
            .map(|i| {
                let (helpers, helped) = help[i];
                let calm = Standing::default();
                let crisis = Standing {
                    crisis: true,
                    ..calm
                };
                let cut = t.action(i, &calm, helpers, helped).success_cut();
                // In crisis an explorer has fewer dice (no stunt), so its
                // bonus matters up to the larger gap.
                let dice = t.success_dice(i, &calm).min(t.success_dice(i, &crisis));
                let seat = Seat {
                    first,
                    clocks: t.explorers[i].full as usize + 1,
                    bonus_cap: cut.saturating_sub(dice),
                    gifted: gives == Some(i),
                    last: order.last() == Some(&i),
                    helpers,
                    helped,
                };
                first += seat.states();
                seat
            })
            .collect::<Vec<_>>();
        assert!(
            first <= HALF as usize + 1,
            "more states than a drawn turn holds"
        );
        let hours = seats
            .iter()
            .flat_map(|s| (0..s.bonus_cap as usize + 1).flat_map(move |_| 0..s.clocks as u8))
            .collect();
        Plain {
            seats,
            tables: (0..first).map(|_| OnceLock::new()).collect(),
            hours,
        }
    }

    /// Explorer `i`'s state with `hours` on its clock before its first
    /// turn (the Edge's bonus of round 1 given).
    pub(super) fn start(&self, i: usize, hours: u32) -> usize {
        let s = &self.seats[i];
        // A session hands its clock in at most full (it sets the
        // explorer's full clock to its own).
        debug_assert!((hours as usize) < s.clocks, "a clock past full");
        let bonus = (s.gifted as usize).min(s.bonus_cap as usize);
        s.first + bonus * s.clocks + hours as usize
    }

    /// Explorer `i`'s turn from `state`, drawn.
    #[inline(always)]
    fn turn(&self, t: &Tension, rng: &mut DiceRng, i: usize, state: usize) -> u64 {
        let slot = &self.tables[state];
        // `get` first, as `Pair::round` does: `get_or_init` alone cost
        // more instructions there.
        let table = match slot.get() {
            Some(table) => table,
            None => slot.get_or_init(|| self.table(t, i, state)),
        };
        table.draw(rng)
    }

    /// The table of explorer `i`'s turn from `state`.
    #[cold]
    #[inline(never)]
    fn table(&self, t: &Tension, i: usize, state: usize) -> Alias<u64> {
        Alias::new(self.law(t, i, state))
    }

    /// The law of explorer `i`'s turn from `state`, as drawn turns (see
    /// [`GAINED_AT`]) in order.
    pub(super) fn law(&self, t: &Tension, i: usize, state: usize) -> Vec<(u64, f64)> {
        let seat = self.seats[i];
        let local = (state - seat.first) as u32;
        let (bonus, hours) = (local / seat.clocks as u32, local % seat.clocks as u32);
        let standing = Standing {
            bonus,
            hours,
            crisis: hours == 0,
            ..Standing::default()
        };
        let next_bonus = (bonus + seat.gifted as u32).min(seat.bonus_cap);
        let action = t
            .action(i, &standing, seat.helpers, seat.helped)
            .canonical();
        // The Exec's raise: rolled 1d3, or fixed; drawn only by the last.
        let raises: Vec<(u32, f64)> = match (seat.last, t.raise) {
            (false, _) => vec![(0, 1.0)],
            (true, 0) => (1..=3).map(|r| (r, 1.0 / 3.0)).collect(),
            (true, r) => vec![(r, 1.0)],
        };
        let mut law: Vec<(u64, f64)> = Vec::new();
        for (drawn, p) in table::law(&action, pack) {
            let d = Drawn::unpack(drawn);
            let mut after = standing;
            after.settle(d.paid, d.gained, t.explorers[i].full);
            let effective = match t.effective {
                Effective::VentureLeft => d.venture_left,
                Effective::Edge => i == t.holder,
            };
            let lower = d.success as u64 * (1 + effective as u64);
            let next = seat.first + (next_bonus * seat.clocks as u32 + after.hours) as usize;
            let turn = after.paid as u64
                | (after.gained as u64) << GAINED_AT
                | (next as u64) << STATE_AT
                | lower << LOWER_AT;
            for &(raise, q) in &raises {
                let v = turn | (raise as u64) << RAISE_AT;
                match law.iter_mut().find(|(x, _)| *x == v) {
                    Some((_, w)) => *w += p * q,
                    None => law.push((v, p * q)),
                }
            }
        }
        // The same state always builds the same table.
        law.sort_by_key(|(v, _)| *v);
        law
    }

    /// `trials` scenes of `t` counted into `tally`, a turn at a time
    /// (for two explorers whose states are few enough the scene draws a
    /// round at a time instead, [`Pair::simulate`](super::pair::Pair::simulate)).
    pub fn simulate(
        &self,
        t: &Tension,
        order: &[usize],
        rng: &mut DiceRng,
        trials: u64,
        tally: &mut Tally,
    ) {
        let mut out = Vec::new();
        for _ in 0..trials {
            self.play(t, order, rng, None, &mut out);
            tally.record_outcome(&out);
        }
    }

    /// One scene of `t`, into `out` as [`Tension::play_with`] does, a
    /// turn at a time: one draw from each explorer's chain. A scene on
    /// its own (a session's) is played this way even for two explorers:
    /// alone, a scene drawn by rounds waits on memory every round
    /// ([`Pair::simulate`](super::pair::Pair::simulate)).
    pub fn play(
        &self,
        t: &Tension,
        order: &[usize],
        rng: &mut DiceRng,
        clock: Option<(usize, u32)>,
        out: &mut Vec<i64>,
    ) -> (u32, bool) {
        let n = t.explorers.len();
        let mut state = [0usize; MAX_EXPLORERS];
        for (i, e) in t.explorers.iter().enumerate() {
            state[i] = self.start(i, e.hours);
        }
        if let Some((who, hours)) = clock {
            state[who] = self.start(who, hours);
        }
        // Each explorer's turns added up: its hours paid and gained in
        // the low bits (see GAINED_AT), the rest of no meaning.
        let mut sums = [0u64; MAX_EXPLORERS];
        let mut tracks = [0; MAX_PITFALLS];
        let tracks = &mut tracks[..t.starts.len()];
        tracks.copy_from_slice(&t.starts);
        let (mut avoided, mut rounds) = (false, t.max_rounds as i64);
        let mut sprung = false;
        'scene: for round in 1..=t.max_rounds as i64 {
            let mut raise = 0;
            for &i in order {
                let addr = t.addressed(tracks);
                let v = self.turn(t, rng, i, state[i]);
                state[i] = (v >> STATE_AT & HALF) as usize;
                sums[i] = sums[i].wrapping_add(v);
                tracks[addr] -= (v >> LOWER_AT & 3) as i64;
                if tracks[addr] <= 0 {
                    avoided = true;
                    rounds = round;
                    break 'scene;
                }
                raise = v >> RAISE_AT & 3;
            }
            let top = t.top(tracks);
            tracks[top] += raise as i64;
            if tracks[top] >= PITFALL {
                sprung = true;
                rounds = round;
                break;
            }
        }
        let end = End {
            avoided,
            sprung,
            rounds,
        };
        self.fields(&state[..n], &sums[..n], end, clock, out)
    }

    /// The scene's fields into `out`, from each explorer's state and
    /// summed turns at its end; what [`Plain::play`] returns.
    pub(super) fn fields(
        &self,
        state: &[usize],
        sums: &[u64],
        end: End,
        clock: Option<(usize, u32)>,
        out: &mut Vec<i64>,
    ) -> (u32, bool) {
        let n = state.len();
        let End {
            avoided,
            sprung,
            rounds,
        } = end;
        let hours_of = |i: usize| self.hours[state[i]] as u32;
        // The scene's fields, then each explorer's two; the totals are
        // filled in as the explorers are read.
        out.clear();
        out.resize(PER_EXPLORER + 2 * n, 0);
        out[AVOIDED] = avoided as i64;
        out[PITFALL_SPRUNG] = sprung as i64;
        out[ROUNDS] = rounds;
        for i in 0..n {
            let (paid, gained) = (
                (sums[i] & HALF) as i64,
                (sums[i] >> GAINED_AT & HALF) as i64,
            );
            out[HOURS_PAID] += paid;
            out[HOURS_GAINED] += gained;
            out[IN_CRISIS] += (hours_of(i) == 0) as i64;
            out[PER_EXPLORER + 2 * i] = paid;
            out[PER_EXPLORER + 2 * i + 1] = gained;
        }
        match clock {
            Some((who, hours)) => (hours_of(who), hours > 0 && hours_of(who) == 0),
            None => (0, false),
        }
    }
}

/// How a scene ended: a track at 0, a track at [`PITFALL`], and after how
/// many rounds (`max_rounds` if neither).
#[derive(Clone, Copy, Debug)]
pub(super) struct End {
    pub avoided: bool,
    pub sprung: bool,
    pub rounds: i64,
}
