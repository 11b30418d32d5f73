//! A checked scene, and one play of it: every statement rolled, then made
//! true tier by tier, heaviest first, skipping conflicts; luck spent and
//! earned.
//!
//! A statement's successes are drawn with one word from an alias table of
//! their exact law ([`Roll::law`], built once per scene). What a played
//! scene reports is a function of what each statement rolled and which
//! came true, so the simulator counts that pair as one key, and works each
//! key's fields out once per run of trials ([`Table::decode`]).

use super::super::roll::{self, MAX_ROLLS, Roll, Rolls};
use super::spec::{LUCK_CAP, MAX_STATEMENTS};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::{FieldSpec, MetricSpec, Pred, Schema, Trial};

/// Bits of the largest key a scene is counted by: 3 a statement (2 for
/// its successes, 1 for coming true), so scenes of up to 5 statements are
/// counted by key in at most 2^15 counters; larger ones field by field.
const KEY_BITS: usize = 15;

/// One statement, ready to roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub player: usize,
    /// Tier: 0 for first statements, 1 for second, 2 for third.
    pub tier: usize,
    pub roll: Roll,
    pub support: i64,
    /// Earlier statements (by index) whose coming true changes this one's
    /// successes by +1 or −1.
    pub support_refs: Vec<(usize, i64)>,
    /// Favouring (plus the bid under `variant.weight_luck`): weight per
    /// success, and the first tie-break.
    pub weight_per_success: u64,
    pub bid: i64,
    pub drive: bool,
    /// Bit `j` set: this statement conflicts with statement `j`.
    pub conflicts: u32,
}

/// The statements of one tier, in entry order, and whether two of them
/// conflict: only then does the order they are made true in matter.
#[derive(Clone, Debug)]
struct Tier {
    entries: Vec<usize>,
    contested: bool,
}

/// A fully checked scene.
#[derive(Clone, Debug)]
pub struct Table {
    pub names: Vec<String>,
    pub start_luck: Vec<i64>,
    /// Every statement, player by player, in statement order.
    pub entries: Vec<Entry>,
    pub rolls: Rolls,
    /// Each statement's law of successes, as its roll and `rolls` give it.
    laws: Vec<Alias>,
    /// The tiers that have statements, in order.
    tiers: Vec<Tier>,
    /// Each player's statements (entries are player by player).
    by_player: Vec<std::ops::Range<usize>>,
}

/// Two scenes are the same when their players and statements are: the
/// laws and tiers are built from those.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        (&self.names, &self.start_luck, &self.entries, self.rolls)
            == (&other.names, &other.start_luck, &other.entries, other.rolls)
    }
}

impl Eq for Table {}

/// One played scene: its rolls and what they made true.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Successes each statement rolled.
    pub rolled: Vec<u32>,
    /// Successes of each statement, after support.
    pub successes: Vec<u32>,
    pub weights: Vec<u64>,
    /// Bit `i` set: statement `i` came true.
    pub made_true: u32,
    /// Each player's failures and luck after the scene.
    pub failures: Vec<i64>,
    pub luck: Vec<i64>,
    /// Scratch: the statements of one tier in resolution order.
    order: Vec<usize>,
}

impl Table {
    /// A scene of these players (names, starting luck) and statements.
    pub fn new(
        names: Vec<String>,
        start_luck: Vec<i64>,
        entries: Vec<Entry>,
        rolls: Rolls,
    ) -> Table {
        let laws = entries.iter().map(|e| e.roll.law(rolls)).collect();
        let tiers = (0..MAX_STATEMENTS)
            .map(|tier| {
                let of: Vec<usize> = (0..entries.len())
                    .filter(|&i| entries[i].tier == tier)
                    .collect();
                let mask = of.iter().fold(0u32, |m, &i| m | 1 << i);
                let contested = of.iter().any(|&i| entries[i].conflicts & mask != 0);
                Tier {
                    entries: of,
                    contested,
                }
            })
            .filter(|t| !t.entries.is_empty())
            .collect();
        let by_player = (0..names.len())
            .map(|p| {
                let first = entries.iter().position(|e| e.player == p).unwrap_or(0);
                let count = entries.iter().filter(|e| e.player == p).count();
                first..first + count
            })
            .collect();
        Table {
            names,
            start_luck,
            entries,
            rolls,
            laws,
            tiers,
            by_player,
        }
    }

    /// Roll and resolve one scene into `t`.
    pub fn play(&self, rng: &mut DiceRng, t: &mut Played) {
        self.resolve(rng, t, |i, rng| self.laws[i].draw(rng));
        self.settle(t, &self.start_luck);
    }

    /// Successes of statement `i` that rolled `rolled`, after its support
    /// and the earlier statements in `made_true` that support or hinder it.
    #[inline(always)]
    fn successes(&self, i: usize, rolled: u32, made_true: u32) -> u32 {
        let e = &self.entries[i];
        let mut support = e.support;
        for &(j, change) in &e.support_refs {
            if made_true >> j & 1 != 0 {
                support += change;
            }
        }
        roll::supported(rolled, support)
    }

    /// Roll every statement, then make them true tier by tier: each
    /// tier's successes and weights once the earlier tiers are settled,
    /// then its statements heaviest first, skipping conflicts.
    #[inline(always)]
    fn resolve(
        &self,
        rng: &mut DiceRng,
        t: &mut Played,
        mut roll: impl FnMut(usize, &mut DiceRng) -> u32,
    ) -> bool {
        let n = self.entries.len();
        if t.rolled.len() != n {
            t.rolled.resize(n, 0);
            t.successes.resize(n, 0);
            t.weights.resize(n, 0);
        }
        // Slices of one known length, so the loops below check no bounds
        // through the vectors again.
        let entries = &self.entries[..n];
        for (i, r) in t.rolled[..n].iter_mut().enumerate() {
            *r = roll(i, rng);
        }
        t.made_true = 0;
        let mut coins = false;
        for tier in &self.tiers {
            // Support comes only from earlier tiers, all settled by now.
            let before = t.made_true;
            let (rolled, successes, weights) =
                (&t.rolled[..n], &mut t.successes[..n], &mut t.weights[..n]);
            let mut made_true = before;
            for &i in &tier.entries {
                let s = self.successes(i, rolled[i], before);
                let w = s as u64 * entries[i].weight_per_success;
                successes[i] = s;
                weights[i] = w;
                // No two statements of the tier conflict: each comes true
                // when it has weight and no earlier tier's true statement
                // conflicts with it, whatever the order.
                if w > 0 && entries[i].conflicts & before == 0 {
                    made_true |= 1 << i;
                }
            }
            if tier.contested {
                coins |= self.contest(rng, t, &tier.entries);
            } else {
                t.made_true = made_true;
            }
        }
        coins
    }

    /// Resolve into `t` a scene whose statements rolled `rolled` (a
    /// campaign draws them itself). True when a fair coin settled a
    /// conflict: what came true then depends on more than the rolls.
    pub fn resolve_rolled(&self, rng: &mut DiceRng, t: &mut Played, rolled: &[u32]) -> bool {
        self.resolve(rng, t, |i, _| rolled[i])
    }

    /// A tier where some statements conflict: those with weight made true
    /// heaviest first (equal weight: higher favouring first, then a fair
    /// coin), skipping any that conflicts with one already true. True when
    /// the coin was flipped (two or more had weight).
    fn contest(&self, rng: &mut DiceRng, t: &mut Played, tier: &[usize]) -> bool {
        t.order.clear();
        t.order
            .extend(tier.iter().copied().filter(|&i| t.weights[i] > 0));
        // A uniform shuffle, then a stable sort: statements equal in
        // weight and favouring keep a fair random order (the coin).
        for k in (1..t.order.len()).rev() {
            let j = rng.die(k as u32 + 1) as usize - 1;
            t.order.swap(k, j);
        }
        let (weights, entries) = (&t.weights, &self.entries);
        t.order.sort_by(|&a, &b| {
            (weights[b], entries[b].weight_per_success)
                .cmp(&(weights[a], entries[a].weight_per_success))
        });
        for &i in &t.order {
            if self.entries[i].conflicts & t.made_true == 0 {
                t.made_true |= 1 << i;
            }
        }
        t.order.len() > 1
    }

    /// Each player's failures and luck from `start`, once the statements
    /// are resolved: bids are paid on true statements, drives earn their
    /// failures, and then the cap applies.
    #[inline]
    fn settle(&self, t: &mut Played, start: &[i64]) {
        let players = self.names.len();
        if t.luck.len() != players {
            t.failures.resize(players, 0);
            t.luck.resize(players, 0);
        }
        for (p, &start) in start[..players].iter().enumerate() {
            let (failed, change) = self.change(t, p);
            t.failures[p] = failed;
            t.luck[p] = (start + change).min(LUCK_CAP);
        }
    }

    /// Player `p`'s failures in the resolved scene `t`, and its luck
    /// change before the cap: failures on drives earned, less bids paid on
    /// statements that came true.
    #[inline(always)]
    pub fn change(&self, t: &Played, p: usize) -> (i64, i64) {
        let (mut failed, mut change) = (0, 0);
        for i in self.by_player[p].clone() {
            let (e, f) = (&self.entries[i], (MAX_ROLLS - t.successes[i]) as i64);
            failed += f;
            change -= if t.made_true >> i & 1 != 0 { e.bid } else { 0 };
            change += if e.drive { f } else { 0 };
        }
        (failed, change)
    }

    /// The key of a resolved scene: each statement's rolled successes (two
    /// bits each), then which came true.
    #[inline(always)]
    fn key(&self, t: &Played) -> usize {
        let n = self.entries.len();
        let rolled = (0..n).fold(0, |k, i| k | (t.rolled[i] as usize) << (2 * i));
        rolled | (t.made_true as usize) << (2 * n)
    }

    /// The scene a key stands for, settled into `t`.
    fn decode(&self, key: usize, t: &mut Played) {
        let n = self.entries.len();
        t.made_true = (key >> (2 * n)) as u32;
        t.rolled.clear();
        t.rolled.extend((0..n).map(|i| (key >> (2 * i) & 3) as u32));
        t.successes.clear();
        t.weights.clear();
        for i in 0..n {
            let s = self.successes(i, t.rolled[i], t.made_true);
            t.successes.push(s);
            t.weights
                .push(s as u64 * self.entries[i].weight_per_success);
        }
        self.settle(t, &self.start_luck);
    }

    /// The outcome fields of a trial, in [`schema`] order.
    fn fields(&self, t: &Played, out: &mut Vec<i64>) {
        out.clear();
        for p in 0..self.names.len() {
            for (i, e) in self.entries.iter().enumerate() {
                if e.player == p {
                    out.push((t.made_true >> i & 1) as i64);
                    out.push(t.successes[i] as i64);
                }
            }
            out.push(t.failures[p]);
            out.push(t.luck[p]);
        }
    }

    /// The statement name `player.n` of entry `i`.
    fn label(&self, i: usize) -> String {
        let e = &self.entries[i];
        format!("{}.{}", self.names[e.player], e.tier + 1)
    }

    /// Outcome fields and metrics named for this scene's players.
    pub fn schema(&self) -> Schema {
        let mut fields = Vec::new();
        let mut metrics = Vec::new();
        let mut extra = Vec::new();
        for (p, name) in self.names.iter().enumerate() {
            for (i, e) in self.entries.iter().enumerate() {
                if e.player == p {
                    let label = self.label(i);
                    metrics.push(MetricSpec::prob(
                        format!("p_true.{label}"),
                        fields.len(),
                        Pred::Eq(1),
                        "Probability the statement comes true.",
                    ));
                    fields.push(FieldSpec::bool(
                        format!("{label}.true"),
                        "The statement came true.",
                    ));
                    fields.push(FieldSpec::int(
                        format!("{label}.successes"),
                        "Its successes, after support.",
                    ));
                }
            }
            extra.push(MetricSpec::mean(
                format!("mean_failures.{name}"),
                fields.len(),
                "Mean failures of the player over the scene.",
            ));
            fields.push(FieldSpec::int(
                format!("{name}.failures"),
                "The player's failures over all its statements.",
            ));
            extra.push(MetricSpec::mean(
                format!("mean_luck.{name}"),
                fields.len(),
                "Mean luck of the player after the scene.",
            ));
            fields.push(FieldSpec::int(
                format!("{name}.luck"),
                "The player's luck after the scene (at most 10).",
            ));
        }
        metrics.extend(extra);
        Schema { fields, metrics }
    }
}

impl Trial for Table {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut t = Played::default();
        let mut out = Vec::new();
        let bits = 3 * self.entries.len();
        if bits > KEY_BITS {
            for _ in 0..trials {
                self.play(rng, &mut t);
                self.fields(&t, &mut out);
                tally.record_outcome(&out);
            }
            return;
        }
        let mut counts = vec![0u64; 1 << bits];
        for _ in 0..trials {
            self.resolve(rng, &mut t, |i, rng| self.laws[i].draw(rng));
            counts[self.key(&t)] += 1;
        }
        for (key, &n) in counts.iter().enumerate() {
            if n > 0 {
                self.decode(key, &mut t);
                self.fields(&t, &mut out);
                tally.record_outcomes(&out, n);
            }
        }
    }
}
