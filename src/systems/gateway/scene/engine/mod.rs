//! The round function of a drama scene (rules §1.2), for the duel and
//! the many-on-one scene alike: one key entity K (index 0) against 1..=6
//! PCs (1..=n), each PC on its own tension line to K. A duel is the
//! one-PC case (A is PC 1, B is K).
//!
//! Both the exact chain and the sampler (`sim::Chain`'s) run on
//! [`SceneRounds`] through `model::rounds`: one roll is one action, tested
//! against the DT of each of its targets (a PC targets K; K targets every
//! PC, rolling **once**), and [`Rounds::after`] applies the rules. The
//! chain draws a roll from its law's table where it keeps the state;
//! where states hardly recur (many PCs) it draws by the bespoke
//! [`Rounds::roll`]: an action against one target from its contest's
//! exact chance (`contest`), K against several by its dice and theirs.
//! The solver merges states between
//! rounds only: (edges, ladder, initiative holder, waiting Set-up free
//! raises, essence left).
//!
//! Rules as modelled (the README has the full list of readings):
//! - Raises: an action needs one raise per effect beyond the first, one per
//!   level accelerated this round if it presses, one if it accelerates after
//!   a successful Press; plus the raises its rule chooses. Free raises (a
//!   Set-up's, waiting from last round, and one per aiding passenger) pay
//!   for those first; only the rest adds 2 each to the DTs. Free raises left
//!   over add to the chosen ones. Each chosen raise adds a step to the Edge
//!   moved and the levels accelerated.
//! - Against several targets, Climax, Anticlimax, Press and Accelerate must
//!   beat every DT; Edge moves each line it beats; Block cancels the action
//!   of each PC it beats; Set-up earns its free raise if it beats any.
//! - End of round: a Press and an Accelerate that both succeeded cancel
//!   (the ladder drops by 1 and neither counts for initiative); else the
//!   ladder drops by 1 unless a Press succeeded, and by every level
//!   accelerated; never below 0.
//! - Initiative: the best successful effect (Set-up > Edge > Press >
//!   Accelerate > Block); equal effects go to more raises used (or, with
//!   the `"edge"` tie rule, to the greater edge score, a side behind
//!   scoring 0), then to the holder,
//!   then to the earlier in the acting order; nobody successful, the holder
//!   keeps it.

use super::contest::{Contests, MAX_DICE};
use super::decide::Decider;
use super::effect::{Action, Effect};
use super::rules::View;
use super::state::*;
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, Rounds};

mod initiative;

/// A scene ready to solve or sample.
pub struct SceneRounds {
    pub drama: Drama,
    n: usize,
    /// `pmf[k][r]`: P(the highest of k d8 is r); `cdf[k][x]`: P(≤ x).
    pmf: Vec<[f64; 9]>,
    cdf: Vec<[f64; 9]>,
    /// `orders[holder][lead]`: the acting order (see [`SceneRounds::order`]).
    orders: Vec<[[u8; SLOTS]; 2]>,
    /// Each entity's policy, compiled.
    deciders: Vec<Decider>,
    /// Free raises each entity's passengers give it every round.
    aid: [u32; SLOTS],
    /// `base[i][j]`: entity i's bonus acting against entity j's when it
    /// targets j, its forced raises counted (2 each); paid raises and the
    /// edge aside.
    base: [[i64; SLOTS]; SLOTS],
    /// An action against one target, drawn from its law.
    contests: Contests,
}

impl SceneRounds {
    pub fn new(drama: Drama) -> SceneRounds {
        let n = drama.entities.len() - 1;
        assert!((1..=MAX_PCS).contains(&n), "1..=6 PCs");
        let (pmf, cdf) = crate::systems::gateway::highest::highest_d8(MAX_DICE);
        let mut aid = [0; SLOTS];
        let mut base = [[0; SLOTS]; SLOTS];
        for (i, me) in drama.entities.iter().enumerate() {
            aid[i] = me.aid_raises();
            for (j, them) in drama.entities.iter().enumerate() {
                base[i][j] = me.pool.bonus - them.guard() - 2 * me.forced as i64;
            }
        }
        let deciders = drama
            .entities
            .iter()
            .map(|e| Decider::new(&e.policy))
            .collect();
        let mut rounds = SceneRounds {
            drama,
            n,
            pmf,
            cdf,
            orders: Vec::new(),
            deciders,
            aid,
            base,
            contests: Contests::new(),
        };
        rounds.orders = (0..=n)
            .map(|h| [rounds.make_order(h, false), rounds.make_order(h, true)])
            .collect();
        rounds
    }

    pub fn pcs(&self) -> usize {
        self.n
    }

    /// The exact law of the outcome, `None` beyond [`MAX_STATES`] live
    /// states.
    pub fn exact(&self) -> Option<Marginals> {
        let limits = Limits {
            max_rounds: self.drama.round_cap as usize + 1,
            max_states: MAX_STATES,
            ..Limits::default()
        };
        solve(self, FIELDS, limits).map(|s| s.marginals)
    }

    /// This round's acting order: K holding it acts first (or last) with
    /// the PCs in order; a PC holding it acts first, then the other PCs,
    /// then K (or K first, the other PCs, and the holder last).
    #[inline]
    fn order(&self, holder: usize, lead: bool) -> &[u8; SLOTS] {
        &self.orders[holder][lead as usize]
    }

    fn make_order(&self, holder: usize, lead: bool) -> [u8; SLOTS] {
        let mut out = [0u8; SLOTS];
        let mut len = 0;
        let mut push = |i: usize| {
            out[len] = i as u8;
            len += 1;
        };
        let others = (1..=self.n).filter(|&i| i != holder);
        match (holder == KEY, lead) {
            (true, true) => {
                push(KEY);
                others.for_each(&mut push);
            }
            (true, false) => {
                others.for_each(&mut push);
                push(KEY);
            }
            (false, true) => {
                push(holder);
                others.for_each(&mut push);
                push(KEY);
            }
            (false, false) => {
                push(KEY);
                others.for_each(&mut push);
                push(holder);
            }
        }
        out
    }

    /// The chance, as [`Contests::threshold`] gives it, that `t` beats
    /// its target `j`'s DT.
    #[inline]
    pub(super) fn threshold(&self, t: &Turn, j: usize) -> u64 {
        self.contests.threshold(t.dice, t.tdice[j], t.need[j])
    }

    /// Who acts at `s` (within a round, after the first initiative).
    #[inline]
    pub(super) fn actor(&self, s: &State) -> usize {
        self.order(s.holder as usize, s.lead)[s.pos as usize] as usize
    }

    /// K's least and greatest edge over the PCs.
    #[inline]
    fn key_edges(&self, s: &State) -> (i64, i64) {
        let e = (1..=self.n).map(|i| -(s.edges[i] as i64));
        (e.clone().min().unwrap_or(0), e.max().unwrap_or(0))
    }

    /// What entity `i` sees at `s` in round `round`.
    #[inline]
    pub(super) fn view(&self, i: usize, s: &State, round: usize) -> View {
        let ladder = s.ladder as i64;
        let (edge, worst, best) = if i == KEY {
            let (lo, hi) = self.key_edges(s);
            (lo, lo, hi)
        } else {
            let e = s.edges[i] as i64;
            (e, e, e)
        };
        let holds = s.holder as usize == i;
        let succeeded = |j: usize| s.ranks[j] > 0 || s.pressed >> j & 1 == 1 || s.accel[j] > 0;
        let opponent_succeeded = if i == KEY {
            (1..=self.n).any(succeeded)
        } else {
            succeeded(KEY)
        };
        View {
            edge,
            ladder,
            round,
            holds_initiative: holds,
            free: u32::from(s.free >> i & 1 == 1) + self.aid[i],
            can_climax: worst >= ladder,
            can_anticlimax: best < 0 && ladder == 0,
            // Declared before any opponent rolls: only the holder, only
            // when it is first to act (or deciding, at the start of the
            // round, whether to interrupt).
            can_block: holds && s.pos == 0,
            opponent_succeeded,
        }
    }

    /// Set up round `round` from a state between rounds: the holder acts
    /// first when its order says so, or when it means to Block.
    #[inline]
    fn begin(&self, round: usize, mut s: State) -> State {
        let h = s.holder as usize;
        s.pos = 0;
        s.lead = true;
        if !self.drama.entities[h].first {
            s.lead = self.deciders[h]
                .decide(&self.view(h, &s, round))
                .has(Effect::Block);
        }
        s
    }

    #[inline]
    pub(super) fn turn(&self, round: usize, s: &State) -> Turn {
        self.turn_as(round, s, None)
    }

    /// The turn at `s` with the actor taking `chosen` (its policy's
    /// action when `None`): best play leaves the choice open.
    #[inline]
    pub(super) fn turn_as(&self, round: usize, s: &State, chosen: Option<Action>) -> Turn {
        let i = self.actor(s);
        let me = &self.drama.entities[i];
        let view = self.view(i, s, round);
        let action = chosen.unwrap_or_else(|| self.deciders[i].decide(&view));
        let mut needed = action.effects.len() - 1;
        if action.has(Effect::Press) {
            needed += s.accel.iter().map(|&l| l as u32).sum::<u32>();
        }
        if action.has(Effect::Accelerate) && s.pressed != 0 {
            needed += 1;
        }
        let total = needed + action.raises;
        let paid = total.saturating_sub(view.free);
        let effect_raises = action.raises + view.free.saturating_sub(total);
        let climax = action.has(Effect::Climax);
        let spends = me.spends(climax, s.essence[i]);
        let mut t = Turn {
            actor: i as u8,
            action,
            steps: (1 + effect_raises).min(u8::MAX as u32) as u8,
            used: (needed + effect_raises).min(u8::MAX as u32) as u8,
            dice: (me.pool.dice + spends as u32) as u8,
            spends,
            targets: 0,
            resists: 0,
            tdice: [0; SLOTS],
            need: [0; SLOTS],
        };
        let mut target = |j: usize, adv: i64| {
            let them = &self.drama.entities[j];
            let resists = them.spends(climax, s.essence[j]);
            t.targets |= 1 << j;
            t.resists |= (resists as u8) << j;
            t.tdice[j] = (them.pool.dice + resists as u32) as u8;
            // Top dice aside, the margin is the actor's bonus against the
            // target's, 2 per raise paid or forced, and the edge once.
            let rest = self.base[i][j] - 2 * paid as i64;
            t.need[j] = (-edged(rest, adv)).clamp(-99, 99) as i16;
        };
        if i == KEY {
            for j in 1..=self.n {
                target(j, -(s.edges[j] as i64));
            }
        } else {
            target(KEY, s.edges[i] as i64);
        }
        t
    }

    /// The outcome with the scene as `s` leaves it.
    fn outcome(&self, winner: i64, round: usize, s: &State) -> Outcome {
        let mut o = [0; FIELDS];
        o[F_WINNER] = winner;
        o[F_ROUNDS] = round as i64;
        o[F_LADDER] = s.ladder as i64;
        for i in 1..=self.n {
            o[f_edge(i)] = s.edges[i] as i64;
        }
        for i in 0..=self.n {
            o[f_essence(i)] = s.essence[i] as i64;
        }
        o
    }

    /// The end of round `round`: the ladder, the initiative, a clean slate.
    #[inline]
    fn end_round(&self, round: usize, mut s: State) -> After<State, Outcome> {
        let accelerated: i64 = s.accel.iter().map(|&l| l as i64).sum();
        let cancel = s.pressed != 0 && accelerated > 0;
        let drop = if cancel {
            1
        } else {
            i64::from(s.pressed == 0) + accelerated
        };
        let holder = self.initiative(&s, cancel);
        s.ladder = (s.ladder as i64 - drop).max(0) as u8;
        s.holder = holder as u8;
        s.blocked = 0;
        s.ranks = [0; SLOTS];
        s.used = [0; SLOTS];
        s.pressed = 0;
        s.accel = [0; SLOTS];
        if round >= self.drama.round_cap as usize {
            return After::End(self.outcome(STALEMATE, round, &s));
        }
        After::Round(self.begin(round + 1, s))
    }

    /// The law of the next roll with the actor taking `chosen` (its
    /// policy's action when `None`), as [`Rounds::law`] gives it.
    pub(super) fn law_as(
        &self,
        round: usize,
        s: &State,
        chosen: Option<Action>,
        out: &mut Vec<(Roll, f64)>,
    ) {
        if s.coin {
            out.extend([(Roll::Coin(0), 0.5), (Roll::Coin(1), 0.5)]);
            return;
        }
        let t = self.turn_as(round, s, chosen);
        // One target (a duel, or K against one PC): the same sums as
        // the patterns below, in the same order, without their table.
        if let Some(j) = t.single() {
            let (mut miss, mut beat) = (0.0, 0.0);
            for r in 1..=8usize {
                let pr = self.pmf[t.dice as usize][r];
                if pr == 0.0 {
                    continue;
                }
                let x = (r as i64 - t.need[j] as i64).clamp(0, 8) as usize;
                let q = self.cdf[t.tdice[j] as usize][x];
                miss += pr * (1.0 - q);
                beat += pr * q;
            }
            for (m, p) in [(0, miss), (1 << j, beat)] {
                if p > 0.0 {
                    out.push((Roll::Action { beat: m, turn: t }, p));
                }
            }
            return;
        }
        // By the actor's top die r, the targets' DTs are beaten or not
        // independently; sum the patterns over r.
        let mut by_mask = [0.0f64; 1 << SLOTS];
        let mut paths: Vec<(u8, f64)> = Vec::with_capacity(1 << SLOTS);
        for r in 1..=8usize {
            let pr = self.pmf[t.dice as usize][r];
            if pr == 0.0 {
                continue;
            }
            paths.clear();
            paths.push((0, pr));
            for j in 0..SLOTS {
                if t.targets >> j & 1 == 0 {
                    continue;
                }
                let x = (r as i64 - t.need[j] as i64).clamp(0, 8) as usize;
                let q = self.cdf[t.tdice[j] as usize][x];
                let len = paths.len();
                for k in 0..len {
                    let (m, p) = paths[k];
                    paths[k] = (m, p * (1.0 - q));
                    paths.push((m | 1 << j, p * q));
                }
            }
            for &(m, p) in &paths {
                by_mask[m as usize] += p;
            }
        }
        for (m, &p) in by_mask.iter().enumerate() {
            if p > 0.0 {
                out.push((
                    Roll::Action {
                        beat: m as u8,
                        turn: t,
                    },
                    p,
                ));
            }
        }
    }
}

impl Rounds for SceneRounds {
    type State = State;
    type Roll = Roll;
    type Outcome = Outcome;

    fn start(&self) -> State {
        let sc = &self.drama;
        let mut edges = [0i16; SLOTS];
        for (e, &start) in edges.iter_mut().zip(&sc.start_edges).skip(1) {
            *e = start as i16;
        }
        let mut essence = [0u8; SLOTS];
        for (i, e) in sc.entities.iter().enumerate() {
            essence[i] = e.essence;
        }
        let s = State {
            edges,
            essence,
            ladder: sc.ladder as u8,
            holder: match sc.start {
                Start::Holder(h) => h as u8,
                Start::Coin => 1,
            },
            free: 0,
            coin: sc.start == Start::Coin,
            lead: true,
            pos: 0,
            blocked: 0,
            ranks: [0; SLOTS],
            used: [0; SLOTS],
            pressed: 0,
            accel: [0; SLOTS],
        };
        if s.coin { s } else { self.begin(1, s) }
    }

    fn law(&self, round: usize, s: &State, out: &mut Vec<(Roll, f64)>) {
        self.law_as(round, s, None, out);
    }

    /// A bespoke draw, the chain's for the states it does not keep: the
    /// dice themselves (one word against a single target's chance, K's
    /// top die against each PC's DT), where the law's table would be built
    /// afresh at each roll. Six PCs at their defaults sample at 8.3× the
    /// rate of the chain drawing such states from their law
    /// (`benches/chain.rs`, 2026-11-28: 43.8 ms against 365 ms for 16,384
    /// scenes, one thread), as fast as the deleted memo did (callgrind:
    /// 3% fewer instructions at 16,384 scenes, 10% at 65,536). The law
    /// is its oracle (`assert_roll_is_law` in the agreement tests).
    #[inline]
    fn roll(&self, round: usize, s: &State, rng: &mut DiceRng) -> Roll {
        if s.coin {
            return Roll::Coin(rng.bits(1) as u8);
        }
        let t = self.turn(round, s);
        let beat = match t.single() {
            // One target: one word against the contest's chance.
            Some(j) => u8::from(Contests::beats(self.threshold(&t, j), rng)) << j,
            // K against several PCs: its one top die against each DT.
            None => {
                let top = rng.d8_keep_highest(t.dice as u32) as i16;
                let mut beat = 0u8;
                for j in 0..=self.n {
                    if t.targets >> j & 1 == 1 {
                        let theirs = rng.d8_keep_highest(t.tdice[j] as u32) as i16;
                        beat |= ((top - theirs >= t.need[j]) as u8) << j;
                    }
                }
                beat
            }
        };
        Roll::Action { beat, turn: t }
    }

    #[inline]
    fn after(&self, round: usize, s: &State, roll: &Roll) -> After<State, Outcome> {
        let mut s = *s;
        let (roll, t) = match *roll {
            Roll::Coin(c) => {
                s.coin = false;
                s.holder = if c == 0 { 1 } else { KEY as u8 };
                return After::Roll(self.begin(round, s));
            }
            Roll::Action { beat, turn } => (beat, turn),
        };
        let i = t.actor as usize;
        let bit = 1u8 << i;
        if t.spends {
            s.essence[i] -= 1;
        }
        if t.resists != 0 {
            for j in 0..=self.n {
                if t.resists >> j & 1 == 1 {
                    s.essence[j] -= 1;
                }
            }
        }
        // The waiting free raise is spent on this action, whatever comes.
        s.free &= !bit;
        let beat = roll & t.targets;
        let all = beat == t.targets;
        let any = beat != 0;
        let a = t.action;
        if all && a.has(Effect::Climax) {
            let w = if i == KEY { KEY_CLIMAX } else { PCS_CLIMAX };
            return After::End(self.outcome(w, round, &s));
        }
        if all && a.has(Effect::Anticlimax) {
            let w = if i == KEY { KEY_ESCAPE } else { PCS_ESCAPE };
            return After::End(self.outcome(w, round, &s));
        }
        let mut rank = 0;
        if any && a.has(Effect::Edge) {
            // Lines are kept from the PC's side.
            if i == KEY {
                for j in 1..=self.n {
                    if beat >> j & 1 == 1 {
                        s.edges[j] -= t.steps as i16;
                    }
                }
            } else {
                s.edges[i] += t.steps as i16;
            }
            rank = rank.max(Effect::Edge.rank());
        }
        if any && a.has(Effect::Setup) {
            s.free |= bit;
            rank = rank.max(Effect::Setup.rank());
        }
        if all && a.has(Effect::Press) {
            s.pressed |= bit;
        }
        if all && a.has(Effect::Accelerate) {
            s.accel[i] = s.accel[i].saturating_add(t.steps);
        }
        if any && a.has(Effect::Block) {
            // Their actions this round are cancelled, and a free raise
            // waiting for them with it.
            s.blocked |= beat;
            s.free &= !beat;
            rank = rank.max(Effect::Block.rank());
        }
        s.ranks[i] = rank;
        s.used[i] = t.used;
        let len = self.n + 1;
        let order = self.order(s.holder as usize, s.lead);
        s.pos += 1;
        while (s.pos as usize) < len && s.blocked >> order[s.pos as usize] & 1 == 1 {
            s.pos += 1;
        }
        if s.pos as usize >= len {
            self.end_round(round, s)
        } else {
            After::Roll(s)
        }
    }
}
