//! A checked scene, and one play of it: every statement rolled, then made
//! true tier by tier, heaviest first, skipping conflicts; luck spent and
//! earned.

use super::super::roll::{self, MAX_ROLLS, Roll, Rolls};
use super::spec::{LUCK_CAP, MAX_STATEMENTS};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::systems::{FieldSpec, MetricSpec, Pred, Schema, Trial};

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

/// A fully checked scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub names: Vec<String>,
    pub start_luck: Vec<i64>,
    /// Every statement, player by player, in statement order.
    pub entries: Vec<Entry>,
    pub rolls: Rolls,
}

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
    /// Roll and resolve one scene into `t`.
    pub fn play(&self, rng: &mut DiceRng, t: &mut Played) {
        let n = self.entries.len();
        t.rolled.clear();
        t.rolled
            .extend(self.entries.iter().map(|e| e.roll.sample(rng, self.rolls)));
        t.successes.clear();
        t.successes.resize(n, 0);
        t.weights.clear();
        t.weights.resize(n, 0);
        t.made_true = 0;
        for tier in 0..MAX_STATEMENTS {
            // Support from earlier tiers is known once they are resolved.
            for (i, e) in self.entries.iter().enumerate() {
                if e.tier == tier {
                    let from_refs: i64 = e
                        .support_refs
                        .iter()
                        .filter(|(j, _)| t.made_true & (1 << j) != 0)
                        .map(|(_, d)| d)
                        .sum();
                    let s = roll::supported(t.rolled[i], e.support + from_refs);
                    t.successes[i] = s;
                    t.weights[i] = s as u64 * e.weight_per_success;
                }
            }
            t.order.clear();
            t.order
                .extend((0..n).filter(|&i| self.entries[i].tier == tier && t.weights[i] > 0));
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
        }
        t.failures.clear();
        t.failures.resize(self.names.len(), 0);
        t.luck.clear();
        t.luck.extend_from_slice(&self.start_luck);
        for (i, e) in self.entries.iter().enumerate() {
            let failures = (MAX_ROLLS - t.successes[i]) as i64;
            t.failures[e.player] += failures;
            if t.made_true & (1 << i) != 0 {
                t.luck[e.player] -= e.bid;
            }
        }
        // Bids are paid first, then drives earn their failures, capped.
        for (i, e) in self.entries.iter().enumerate() {
            if e.drive {
                t.luck[e.player] += (MAX_ROLLS - t.successes[i]) as i64;
            }
        }
        for l in &mut t.luck {
            *l = (*l).min(LUCK_CAP);
        }
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
        let mut trial = Played::default();
        let mut out = Vec::new();
        for _ in 0..trials {
            self.play(rng, &mut trial);
            self.fields(&trial, &mut out);
            tally.record_outcome(&out);
        }
    }
}
