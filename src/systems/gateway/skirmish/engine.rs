//! The round function of a skirmish: many entities on two sides, tension
//! lines between opposed pairs, each with its own edge. Both the exact
//! chain and the sampler run on [`SkirmishRounds`] through `model::rounds`.
//!
//! One roll is one action: the actor's highest die is rolled once and
//! tested against the DT of every opponent its effects are declared
//! against (each opponent's own dice, its bonus, 2 per raise paid, and
//! the edge on that line once). Per-line effects (Edge, Set-up, Restrict,
//! Block) come off against each opponent beaten; Manoeuvre, Disengage and
//! Eliminate have one target; Climax, Anticlimax, Press and Accelerate
//! need a line to every opposed entity and must beat every DT. The
//! readings are in the manual's skirmish chapter; with one PC, the key
//! entity and no minor entities this is `gateway.scene`'s round function
//! (a test holds the two equal).

use super::cast::{
    GM, Kind, MAX_ENTITIES, MAX_SIDE, PCS, PressAccelerate, SetupFree, Shortfall, Skirmish, TieRule,
};
use super::moves::{Aim, Move, Moves, Play, default_policy};
use super::state::*;
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, Rounds};
use crate::systems::gateway::scene::rules::View;
use crate::systems::gateway::scene::{MAX_STATES, Tie, edged};

const N: usize = MAX_ENTITIES;
/// Most dice a roll may have (a trait of 6, three essence points).
const MAX_DICE: usize = 9;
const NONE: u8 = u8::MAX;

/// Beyond this many entities a skirmish is simulated only: each line is a
/// dimension of the chain's state, and a fourth entity brings two or three
/// more (a sweep would spend minutes finding out that it is too big).
pub const MAX_EXACT_ENTITIES: usize = 3;

/// A decided action in compact form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Act {
    pub moves: Moves,
    pub raises: u32,
    pub aim: Aim,
    /// The ally a Set-up's free raises go to, or [`NONE`].
    pub to: u8,
}

/// Whom an action's effects are declared against (bits by entity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Aims {
    per_line: u16,
    every: u16,
    man: Option<u8>,
    dis: Option<u8>,
    elim: Option<u8>,
}

/// One decided action with the numbers its roll is made with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turn {
    pub actor: u8,
    pub act: Act,
    aims: Aims,
    /// Edge steps moved and levels accelerated on success.
    steps: u8,
    /// Raises used (for initiative ties) and paid (adding to the DTs).
    used: u8,
    paid: u8,
    /// Free raises a successful Set-up gives.
    gives: u8,
    dice: u8,
    spends: bool,
    pub targets: u16,
    resists: u16,
    tdice: [u8; N],
    /// Target t's DT is beaten iff actor's top die − t's top die ≥ need[t].
    need: [i16; N],
}

impl Turn {
    /// The least difference of top dice (actor's less target `j`'s) that
    /// beats `j`'s DT: every bonus, raise paid and edge counted.
    pub fn need(&self, j: usize) -> i64 {
        self.need[j] as i64
    }

    /// Raises paid (each adding 2 to the DTs) and the actor's dice.
    pub fn paid(&self) -> u32 {
        self.paid as u32
    }

    pub fn dice(&self) -> u32 {
        self.dice as u32
    }

    /// Edge steps moved and levels accelerated on success.
    pub fn steps(&self) -> u32 {
        self.steps as u32
    }
}

/// One roll: the action and which targets' DTs it beat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roll {
    pub beat: u16,
    pub turn: Turn,
}

/// A skirmish ready to solve or sample.
pub struct SkirmishRounds {
    pub sk: Skirmish,
    n: usize,
    side: [u8; N],
    /// Index within its side.
    sidx: [u8; N],
    pmf: Vec<[f64; 9]>,
    cdf: Vec<[f64; 9]>,
    /// `orders[holder][lead]`.
    orders: Vec<[Vec<u8>; 2]>,
    base: [[i64; N]; N],
    aid: [u32; N],
    fallback: Vec<Play>,
}

impl SkirmishRounds {
    pub fn new(sk: Skirmish) -> SkirmishRounds {
        let n = sk.members.len();
        assert!((2..=N).contains(&n));
        let mut pmf = vec![[0.0; 9]; MAX_DICE + 1];
        let mut cdf = vec![[0.0; 9]; MAX_DICE + 1];
        for k in 1..=MAX_DICE {
            for x in 0..=8 {
                cdf[k][x] = (x as f64 / 8.0).powi(k as i32);
                if x > 0 {
                    pmf[k][x] = cdf[k][x] - cdf[k][x - 1];
                }
            }
        }
        let mut side = [0u8; N];
        let mut sidx = [0u8; N];
        let mut count = [0u8; 2];
        let mut base = [[0; N]; N];
        let mut aid = [0; N];
        for (i, m) in sk.members.iter().enumerate() {
            side[i] = m.side;
            sidx[i] = count[m.side as usize];
            count[m.side as usize] += 1;
            aid[i] = m.entity.aid_raises();
            for (j, t) in sk.members.iter().enumerate() {
                base[i][j] = m.entity.pool.bonus - t.entity.guard() - 2 * m.entity.forced as i64;
            }
        }
        assert!(count.iter().all(|&c| (1..=MAX_SIDE as u8).contains(&c)));
        let orders = (0..n)
            .map(|h| {
                let custom = sk.members[h].order.clone();
                let others: Vec<u8> = (0..n).filter(|&i| i != h).map(|i| i as u8).collect();
                let first: Vec<u8> = std::iter::once(h as u8).chain(others.clone()).collect();
                match custom {
                    Some(o) => {
                        let o: Vec<u8> = o.iter().map(|&i| i as u8).collect();
                        let lead = std::iter::once(h as u8)
                            .chain(o.iter().copied().filter(|&i| i as usize != h))
                            .collect();
                        [o, lead]
                    }
                    None if sk.members[h].entity.first => [first.clone(), first],
                    None => {
                        let last = others.into_iter().chain([h as u8]).collect();
                        [last, first]
                    }
                }
            })
            .collect();
        let fallback = default_policy()
            .rules
            .into_iter()
            .map(|r| r.choice)
            .collect();
        SkirmishRounds {
            sk,
            n,
            side,
            sidx,
            pmf,
            cdf,
            orders,
            base,
            aid,
            fallback,
        }
    }

    pub fn entities(&self) -> usize {
        self.n
    }

    /// The exact law of the outcome, `None` beyond [`MAX_EXACT_ENTITIES`]
    /// entities or [`MAX_STATES`] live states.
    pub fn exact(&self) -> Option<Marginals> {
        if self.n > MAX_EXACT_ENTITIES {
            return None;
        }
        let limits = Limits {
            max_rounds: self.sk.round_cap as usize + 1,
            max_states: MAX_STATES,
            ..Limits::default()
        };
        solve(self, FIELDS, limits).map(|s| s.marginals)
    }

    /// The line slot between `i` and `j` (opposed).
    #[inline]
    pub fn pair(&self, i: usize, j: usize) -> usize {
        let (p, g) = if self.side[i] == PCS { (i, j) } else { (j, i) };
        self.sidx[p] as usize * MAX_SIDE + self.sidx[g] as usize
    }

    #[inline]
    fn line(&self, s: &State, i: usize, j: usize) -> bool {
        s.lines >> self.pair(i, j) & 1 == 1
    }

    /// `i`'s signed edge over `j` on their line slot.
    #[inline]
    pub fn edge(&self, s: &State, i: usize, j: usize) -> i64 {
        let e = s.edges[self.pair(i, j)] as i64;
        if self.side[i] == PCS { e } else { -e }
    }

    /// The opponents of `i` still in the scene.
    #[inline]
    fn opponents(&self, s: &State, i: usize) -> u16 {
        let mut m = 0u16;
        for j in 0..self.n {
            if self.side[j] != self.side[i] && s.alive >> j & 1 == 1 {
                m |= 1 << j;
            }
        }
        m
    }

    /// Those of them `i` has a line with.
    #[inline]
    fn lined(&self, s: &State, i: usize) -> u16 {
        let mut m = 0u16;
        for j in 0..self.n {
            if self.opponents(s, i) >> j & 1 == 1 && self.line(s, i, j) {
                m |= 1 << j;
            }
        }
        m
    }

    /// The edge a Manoeuvre opens `i`'s line to `j` at: 0, or last
    /// round's edge moved one step toward `j`.
    fn reopened(&self, s: &State, i: usize, j: usize) -> i64 {
        // Open at the end of last round, or during it, or broken this
        // round (it was open when this round began).
        if (s.was | s.broke) >> self.pair(i, j) & 1 == 1 {
            self.edge(s, i, j) - 1
        } else {
            0
        }
    }

    /// `i`'s least and greatest edge over the opponents it has lines with
    /// (0, 0 with none).
    fn edge_range(&self, s: &State, i: usize) -> (i64, i64) {
        let lined = self.lined(s, i);
        let es = (0..self.n)
            .filter(|j| lined >> j & 1 == 1)
            .map(|j| self.edge(s, i, j));
        (es.clone().min().unwrap_or(0), es.max().unwrap_or(0))
    }

    fn view(&self, i: usize, s: &State, round: usize) -> View {
        let ladder = s.ladder as i64;
        let opp = self.opponents(s, i);
        let all = opp != 0 && self.lined(s, i) == opp;
        let (lo, hi) = self.edge_range(s, i);
        let holds = s.holder as usize == i;
        View {
            edge: lo,
            ladder,
            round,
            holds_initiative: holds,
            free: s.free[i] as u32 + self.aid[i],
            can_climax: all && lo >= ladder,
            can_anticlimax: all && hi < 0 && ladder == 0,
            can_block: holds && s.pos == 0,
        }
    }

    fn fits(&self, aim: Aim, j: usize) -> bool {
        match aim {
            Aim::All => true,
            Aim::Key => self.sk.members[j].kind != Kind::Minor,
            Aim::Minor => self.sk.members[j].kind == Kind::Minor,
        }
    }

    /// Whom `act` is declared against, or `None` when it is not allowed.
    fn aims(&self, i: usize, s: &State, v: &View, act: &Act) -> Option<Aims> {
        let m = act.moves;
        let opp = self.opponents(s, i);
        let lined = self.lined(s, i);
        let every = m.iter().any(Move::needs_every_line);
        if every && (opp == 0 || lined != opp) {
            return None;
        }
        if (m.has(Move::Climax) && !v.can_climax)
            || (m.has(Move::Anticlimax) && !v.can_anticlimax)
            || (m.has(Move::Block) && !v.can_block)
        {
            return None;
        }
        if act.to != NONE {
            let a = act.to as usize;
            if a == i || s.alive >> a & 1 == 0 || self.side[a] != self.side[i] {
                return None;
            }
        }
        let bits = |mask: u16| (0..self.n).filter(move |j| mask >> j & 1 == 1);
        let mut aims = Aims::default();
        if m.has(Move::Manoeuvre) {
            let j = bits(opp & !lined).find(|&j| self.fits(act.aim, j))?;
            aims.man = Some(j as u8);
        }
        let after = lined | aims.man.map_or(0, |j| 1 << j);
        let start = |j: usize| {
            if aims.man == Some(j as u8) {
                self.reopened(s, i, j)
            } else {
                self.edge(s, i, j)
            }
        };
        let sig = |j: usize| self.sk.members[j].significance as i64;
        if [Move::Edge, Move::Setup, Move::Restrict, Move::Block]
            .iter()
            .any(|&x| m.has(x))
        {
            let set: Vec<usize> = bits(after).filter(|&j| self.fits(act.aim, j)).collect();
            let set = if act.aim == Aim::Minor {
                // One minor opponent: the nearest to elimination.
                set.into_iter()
                    .max_by_key(|&j| (start(j) - sig(j), std::cmp::Reverse(j)))
                    .into_iter()
                    .collect()
            } else {
                set
            };
            if set.is_empty() {
                return None;
            }
            aims.per_line = set.iter().fold(0, |acc, &j| acc | 1 << j);
        }
        if m.has(Move::Disengage) {
            let j = bits(lined)
                .filter(|&j| self.fits(act.aim, j))
                .min_by_key(|&j| (self.edge(s, i, j), j))?;
            aims.dis = Some(j as u8);
        }
        if m.has(Move::Eliminate) {
            let j = bits(after)
                .filter(|&j| self.sk.members[j].kind == Kind::Minor && self.fits(act.aim, j))
                .filter(|&j| self.sk.variants.eliminate == Shortfall::Raises || start(j) >= sig(j))
                .max_by_key(|&j| (start(j) - sig(j), std::cmp::Reverse(j)))?;
            aims.elim = Some(j as u8);
        }
        if every {
            aims.every = opp;
        }
        Some(aims)
    }

    fn act_of(&self, i: usize, p: &Play, to: Option<usize>) -> Act {
        let _ = i;
        Act {
            moves: p.moves,
            raises: p.raises,
            aim: p.aim,
            to: to.map_or(NONE, |a| a as u8),
        }
    }

    /// The action `i`'s policy takes: its first rule that holds and is
    /// allowed, else the default policy's first allowed rule.
    fn decide(&self, i: usize, s: &State, v: &View) -> (Act, Aims) {
        let me = &self.sk.members[i];
        for (rule, to) in &me.policy {
            if rule.when.as_ref().is_none_or(|w| v.holds(w)) {
                let act = self.act_of(i, &rule.choice, *to);
                if let Some(a) = self.aims(i, s, v, &act) {
                    return (act, a);
                }
            }
        }
        for p in &self.fallback {
            let act = self.act_of(i, p, None);
            if let Some(a) = self.aims(i, s, v, &act) {
                return (act, a);
            }
        }
        unreachable!("an entity can always Edge or Manoeuvre: key entities stay")
    }

    #[inline]
    fn order(&self, s: &State) -> &[u8] {
        &self.orders[s.holder as usize][s.lead as usize]
    }

    #[inline]
    fn actor(&self, s: &State) -> usize {
        self.order(s)[s.pos as usize] as usize
    }

    /// Move `pos` past entities that are gone or blocked.
    fn skip(&self, s: &mut State) {
        let order = self.order(s);
        while (s.pos as usize) < order.len() {
            let a = order[s.pos as usize];
            if s.alive >> a & 1 == 1 && s.blocked >> a & 1 == 0 {
                break;
            }
            s.pos += 1;
        }
    }

    fn begin(&self, round: usize, mut s: State) -> State {
        let h = s.holder as usize;
        s.pos = 0;
        s.lead = true;
        let me = &self.sk.members[h];
        if !me.entity.first || me.order.is_some() {
            s.lead = false;
            let probe = State { lead: true, ..s };
            let v = self.view(h, &probe, round);
            s.lead = self.decide(h, &probe, &v).0.moves.has(Move::Block);
        }
        self.skip(&mut s);
        s
    }

    pub fn turn(&self, round: usize, s: &State) -> Turn {
        let i = self.actor(s);
        let me = &self.sk.members[i].entity;
        let v = self.view(i, s, round);
        let (act, aims) = self.decide(i, s, &v);
        let m = act.moves;
        // Each effect beyond the first, and handing a Set-up over, cost
        // a raise; so does each point an Eliminate's edge falls short
        // (the "raises" reading).
        let short = aims.elim.map_or(0, |j| {
            let j = j as usize;
            let e = if aims.man == Some(j as u8) {
                self.reopened(s, i, j)
            } else {
                self.edge(s, i, j)
            };
            (self.sk.members[j].significance as i64 - e).max(0) as u32
        });
        let mut needed = m.len() - 1 + u32::from(act.to != NONE) + short;
        if m.has(Move::Press) {
            needed += s.accel.iter().map(|&l| l as u32).sum::<u32>();
        }
        if m.has(Move::Accelerate) && s.pressed != 0 {
            needed += 1;
        }
        let total = needed + act.raises;
        let paid = total.saturating_sub(v.free);
        let effect_raises = act.raises + v.free.saturating_sub(total);
        let climax = m.has(Move::Climax);
        let spends = me.spends(climax, s.essence[i]);
        let gives = match self.sk.variants.setup_free {
            SetupFree::One => 1,
            SetupFree::PerRaise => 1 + effect_raises,
        };
        let cap = |x: u32| x.min(u8::MAX as u32) as u8;
        let mut t = Turn {
            actor: i as u8,
            act,
            aims,
            steps: cap(1 + effect_raises),
            used: cap(needed + effect_raises),
            paid: cap(paid),
            gives: cap(gives),
            dice: (me.pool.dice + spends as u32).min(MAX_DICE as u32) as u8,
            spends,
            targets: 0,
            resists: 0,
            tdice: [0; N],
            need: [0; N],
        };
        let targets = aims.per_line
            | aims.every
            | [aims.man, aims.dis, aims.elim]
                .iter()
                .flatten()
                .fold(0u16, |a, &j| a | 1 << j);
        for j in 0..self.n {
            if targets >> j & 1 == 0 {
                continue;
            }
            let them = &self.sk.members[j].entity;
            let resists = them.spends(climax, s.essence[j]);
            t.targets |= 1 << j;
            t.resists |= (resists as u16) << j;
            t.tdice[j] = (them.pool.dice + resists as u32).min(MAX_DICE as u32) as u8;
            let adv = if self.line(s, i, j) {
                self.edge(s, i, j)
            } else {
                0
            };
            let rest = self.base[i][j] - 2 * paid as i64;
            t.need[j] = (-edged(rest, adv)).clamp(-99, 99) as i16;
        }
        t
    }

    fn outcome(&self, winner: i64, round: usize, s: &State) -> Outcome {
        let mut o = [0; FIELDS];
        o[F_WINNER] = winner;
        o[F_ROUNDS] = round as i64;
        o[F_LADDER] = s.ladder as i64;
        let key = self.sk.key();
        for i in 0..self.n {
            let alive = s.alive >> i & 1 == 1;
            if !alive {
                o[F_ELIM + self.side[i] as usize] += 1;
            }
            o[f_survived(i)] = alive as i64;
            if self.side[i] == PCS && self.line(s, i, key) {
                o[f_edge(i)] = self.edge(s, i, key);
            }
        }
        o[F_LINES] = s.lines.count_ones() as i64;
        o[F_SPENT] = s.spent[0] as i64;
        o[F_SPENT + 1] = s.spent[1] as i64;
        o[F_GIVEN] = s.given as i64;
        o
    }

    fn end_round(&self, round: usize, mut s: State) -> After<State, Outcome> {
        let accelerated: i64 = s.accel.iter().map(|&l| l as i64).sum();
        let both = s.pressed != 0 && accelerated > 0;
        // Which of Press and Accelerate count, and the ladder's drop.
        let (press, accel, drop) = match (both, self.sk.variants.press_accelerate) {
            (false, _) => (true, true, i64::from(s.pressed == 0) + accelerated),
            (true, PressAccelerate::Cancel) => (false, false, 1),
            (true, PressAccelerate::LaterWins) if s.last_pa == 1 => (true, false, 0),
            (true, PressAccelerate::LaterWins) => (false, true, 1 + accelerated),
        };
        let holder = self.initiative(&s, press, accel);
        s.ladder = (s.ladder as i64 - drop).max(0) as u8;
        s.holder = holder as u8;
        s.was = s.lines | s.broke;
        for p in 0..PAIRS {
            if s.was >> p & 1 == 0 {
                s.edges[p] = 0;
            }
        }
        s.broke = 0;
        s.blocked = 0;
        s.ranks = [0; N];
        s.used = [0; N];
        s.pressed = 0;
        s.accel = [0; N];
        s.last_pa = 0;
        s.gave = [0; N];
        if round >= self.sk.round_cap as usize {
            return After::End(self.outcome(STALEMATE, round, &s));
        }
        After::Round(self.begin(round + 1, s))
    }

    /// The holder of next round's initiative.
    fn initiative(&self, s: &State, press: bool, accel: bool) -> usize {
        let holder = s.holder as usize;
        let alive = |i: usize| s.alive >> i & 1 == 1;
        let mut rank = s.ranks;
        for (i, r) in rank.iter_mut().enumerate().take(self.n) {
            if press && s.pressed >> i & 1 == 1 {
                *r = (*r).max(Move::Press.rank());
            }
            if accel && s.accel[i] > 0 {
                *r = (*r).max(Move::Accelerate.rank());
            }
            if !alive(i) {
                *r = 0;
            }
        }
        let order = self.order(s);
        let best = rank[..self.n].iter().copied().max().unwrap_or(0);
        if best == 0 {
            return if alive(holder) {
                holder
            } else {
                order
                    .iter()
                    .map(|&i| i as usize)
                    .find(|&i| alive(i))
                    .unwrap_or(holder)
            };
        }
        let mut tied = 0u16;
        for (i, &r) in rank.iter().enumerate().take(self.n) {
            tied |= u16::from(r == best) << i;
        }
        // A giver tied with the ally it handed its free raises to: the
        // ally takes it.
        for g in 0..self.n {
            let r = s.gave[g];
            if tied >> g & 1 == 1 && r != 0 && tied >> (r - 1) & 1 == 1 {
                tied &= !(1 << g);
            }
        }
        let narrow = |tied: &mut u16, score: &dyn Fn(usize) -> i64| {
            if tied.count_ones() > 1 {
                let top = (0..self.n)
                    .filter(|i| *tied >> i & 1 == 1)
                    .map(score)
                    .max()
                    .unwrap_or(0);
                for i in 0..self.n {
                    if score(i) != top {
                        *tied &= !(1 << i);
                    }
                }
            }
        };
        let used = |i: usize| s.used[i] as i64;
        let edge_score = |i: usize| self.edge_range(s, i).1.max(0);
        match self.sk.variants.tie {
            TieRule::Holder => {
                if tied >> holder & 1 == 1 {
                    return holder;
                }
                narrow(&mut tied, &used);
            }
            TieRule::Scene(Tie::Raises) => narrow(&mut tied, &used),
            TieRule::Scene(Tie::Edge) => narrow(&mut tied, &edge_score),
        }
        if tied >> holder & 1 == 1 {
            return holder;
        }
        order
            .iter()
            .map(|&i| i as usize)
            .find(|i| tied >> i & 1 == 1)
            .unwrap_or(holder)
    }

    /// Open the line between `i` and `j` at `e` (from `i`'s side).
    fn open(&self, s: &mut State, i: usize, j: usize, e: i64) {
        let p = self.pair(i, j);
        s.lines |= 1 << p;
        let e = if self.side[i] == PCS { e } else { -e };
        s.edges[p] = e.clamp(-999, 999) as i16;
    }

    fn eliminate(&self, s: &mut State, j: usize) {
        s.alive &= !(1 << j);
        s.free[j] = 0;
        for k in 0..self.n {
            if self.side[k] != self.side[j] {
                let p = self.pair(j, k);
                s.lines &= !(1 << p);
                s.was &= !(1 << p);
                s.broke &= !(1 << p);
                s.edges[p] = 0;
            }
        }
    }
}

impl Rounds for SkirmishRounds {
    type State = State;
    type Roll = Roll;
    type Outcome = Outcome;

    fn start(&self) -> State {
        let mut s = State {
            edges: [0; PAIRS],
            lines: 0,
            was: 0,
            alive: ((1u32 << self.n) - 1) as u16,
            essence: [0; N],
            free: [0; N],
            ladder: self.sk.ladder.clamp(0, 255) as u8,
            holder: self.sk.holder as u8,
            spent: [0; 2],
            given: 0,
            lead: true,
            pos: 0,
            blocked: 0,
            ranks: [0; N],
            used: [0; N],
            pressed: 0,
            accel: [0; N],
            last_pa: 0,
            gave: [0; N],
            broke: 0,
        };
        for (i, m) in self.sk.members.iter().enumerate() {
            s.essence[i] = m.entity.essence;
        }
        for &(i, j, e) in &self.sk.lines {
            self.open(&mut s, i, j, e);
        }
        self.begin(1, s)
    }

    fn law(&self, round: usize, s: &State, out: &mut Vec<(Roll, f64)>) {
        let t = self.turn(round, s);
        let idx: Vec<usize> = (0..self.n).filter(|j| t.targets >> j & 1 == 1).collect();
        let mut by_mask = vec![0.0f64; 1 << idx.len()];
        for r in 1..=8usize {
            let pr = self.pmf[t.dice as usize][r];
            if pr == 0.0 {
                continue;
            }
            let qs: Vec<f64> = idx
                .iter()
                .map(|&j| {
                    let x = (r as i64 - t.need[j] as i64).clamp(0, 8) as usize;
                    self.cdf[t.tdice[j] as usize][x]
                })
                .collect();
            for (m, slot) in by_mask.iter_mut().enumerate() {
                let mut p = pr;
                for (k, q) in qs.iter().enumerate() {
                    p *= if m >> k & 1 == 1 { *q } else { 1.0 - q };
                }
                *slot += p;
            }
        }
        for (m, &p) in by_mask.iter().enumerate() {
            if p > 0.0 {
                let beat = idx
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| m >> k & 1 == 1)
                    .fold(0u16, |a, (_, &j)| a | 1 << j);
                out.push((Roll { beat, turn: t }, p));
            }
        }
    }

    fn roll(&self, round: usize, s: &State, rng: &mut DiceRng) -> Roll {
        let t = self.turn(round, s);
        let top = rng.d8_keep_highest(t.dice as u32) as i16;
        let mut beat = 0u16;
        for j in 0..self.n {
            if t.targets >> j & 1 == 1 {
                let theirs = rng.d8_keep_highest(t.tdice[j] as u32) as i16;
                beat |= ((top - theirs >= t.need[j]) as u16) << j;
            }
        }
        Roll { beat, turn: t }
    }

    fn after(&self, round: usize, s: &State, roll: &Roll) -> After<State, Outcome> {
        let mut s = *s;
        let t = roll.turn;
        let i = t.actor as usize;
        let a = t.aims;
        let m = t.act.moves;
        if t.spends {
            s.essence[i] -= 1;
        }
        for j in 0..self.n {
            if t.resists >> j & 1 == 1 {
                s.essence[j] -= 1;
            }
        }
        s.free[i] = 0;
        let side = self.side[i] as usize;
        s.spent[side] = s.spent[side].saturating_add(t.paid);
        let beat = roll.beat & t.targets;
        let beats = |j: Option<u8>| j.is_some_and(|j| beat >> j & 1 == 1);
        let all = a.every != 0 && beat & a.every == a.every;
        let winner = |escape: bool| match (self.side[i] == GM, escape) {
            (false, false) => PCS_WIN,
            (true, false) => GM_WIN,
            (false, true) => PCS_ESCAPE,
            (true, true) => GM_ESCAPE,
        };
        if all && m.has(Move::Climax) {
            return After::End(self.outcome(winner(false), round, &s));
        }
        if all && m.has(Move::Anticlimax) {
            return After::End(self.outcome(winner(true), round, &s));
        }
        let mut rank = 0;
        let mut note = |mv: Move| rank = rank.max(mv.rank());
        if m.has(Move::Manoeuvre) && beats(a.man) {
            let j = a.man.expect("aimed") as usize;
            let e = self.reopened(&s, i, j);
            self.open(&mut s, i, j, e);
            note(Move::Manoeuvre);
        }
        let on_line = beat & a.per_line;
        let on_line = (0..self.n)
            .filter(|&j| on_line >> j & 1 == 1 && self.line(&s, i, j))
            .fold(0u16, |acc, j| acc | 1 << j);
        if m.has(Move::Edge) && on_line != 0 {
            for j in 0..self.n {
                if on_line >> j & 1 == 1 {
                    let e = self.edge(&s, i, j) + t.steps as i64;
                    self.open(&mut s, i, j, e);
                }
            }
            note(Move::Edge);
        }
        if m.has(Move::Setup) && on_line != 0 {
            let to = if t.act.to == NONE {
                i
            } else {
                s.gave[i] = t.act.to + 1;
                t.act.to as usize
            };
            s.free[to] = s.free[to].saturating_add(t.gives).min(15);
            if to != i || self.sk.variants.setup_free == SetupFree::PerRaise {
                s.given = s.given.saturating_add(t.gives);
            }
            note(Move::Setup);
        }
        if m.has(Move::Restrict) && on_line != 0 {
            // No number moves: a restriction only shapes what the
            // opponent may describe and roll, which the model does not
            // see. It ranks in the initiative hierarchy.
            note(Move::Restrict);
        }
        if m.has(Move::Disengage) && beats(a.dis) {
            let j = a.dis.expect("aimed") as usize;
            let p = self.pair(i, j);
            if s.lines >> p & 1 == 1 {
                s.lines &= !(1 << p);
                s.broke |= 1 << p;
            }
            note(Move::Disengage);
        }
        if m.has(Move::Eliminate) && beats(a.elim) {
            self.eliminate(&mut s, a.elim.expect("aimed") as usize);
            note(Move::Eliminate);
        }
        if all && m.has(Move::Press) {
            s.pressed |= 1 << i;
            s.last_pa = 1;
        }
        if all && m.has(Move::Accelerate) {
            s.accel[i] = s.accel[i].saturating_add(t.steps);
            s.last_pa = 2;
        }
        let blocked = beat & a.per_line;
        if m.has(Move::Block) && blocked != 0 {
            s.blocked |= blocked;
            for j in 0..self.n {
                if blocked >> j & 1 == 1 {
                    s.free[j] = 0;
                }
            }
            note(Move::Block);
        }
        s.ranks[i] = rank;
        s.used[i] = t.used;
        s.pos += 1;
        self.skip(&mut s);
        if s.pos as usize >= self.order(&s).len() {
            self.end_round(round, s)
        } else {
            After::Roll(s)
        }
    }
}
