//! Walker's alias method: a finite law drawn with one 64-bit word, for the
//! samplers that draw a whole roll's summary or outcome at once from its
//! exact law (CGG's risk roll and action, Cortex's basic action), and for
//! every multi-round mechanic's roll drawn from its law
//! (`model::law_table`, cached per state by `sim::Chain`).
//!
//! [`vose`] builds the columns; [`Alias`] keeps them as plain columns,
//! while a sampler with its own packing (Cortex's, a power-of-two table
//! indexed by a word's top bits) packs what [`vose`] returns.
//!
//! The word times the number of columns picks a column (the high 64 bits
//! of the product) and, in its low 64 bits, a uniform fraction that
//! chooses between the column's own value and its alias. Both parts are
//! exact to within `columns / 2^64`, far below any Monte Carlo error.

use crate::dice::DiceRng;

/// One column: its own value below `threshold`, else the alias.
#[derive(Clone, Copy, Debug)]
struct Column<V> {
    threshold: u64,
    own: V,
    alias: V,
}

/// A law over values of `V` (`u32` unless a sampler packs more into a
/// value), ready to draw from.
#[derive(Clone, Debug)]
pub struct Alias<V = u32> {
    columns: Vec<Column<V>>,
}

impl<V: Copy> Alias<V> {
    /// The law giving `value` weight `weight` (weights need not sum to 1;
    /// zero weights are dropped). Panics on an empty or massless law.
    pub fn new(law: impl IntoIterator<Item = (V, f64)>) -> Alias<V> {
        let law: Vec<(V, f64)> = law.into_iter().filter(|(_, w)| *w > 0.0).collect();
        let mass: f64 = law.iter().map(|(_, w)| w).sum();
        assert!(!law.is_empty() && mass > 0.0, "an alias table needs mass");
        let n = law.len();
        let mut scaled: Vec<f64> = law.iter().map(|(_, w)| w * n as f64 / mass).collect();
        let alias = vose(&mut scaled);
        let columns = (0..n)
            .map(|i| Column {
                threshold: fraction(scaled[i]),
                own: law[i].0,
                alias: law[alias[i]].0,
            })
            .collect();
        Alias { columns }
    }

    /// The value `word` (uniform over 64 bits) draws.
    #[inline(always)]
    pub fn pick(&self, word: u64) -> V {
        let m = word as u128 * self.columns.len() as u128;
        let c = self.columns[(m >> 64) as usize];
        if (m as u64) < c.threshold {
            c.own
        } else {
            c.alias
        }
    }

    /// The columns as (threshold, own value, alias), in the order
    /// [`Alias::pick`] indexes them: for a sampler that lays several
    /// tables out in one flat array (`sim::Chain`'s) and picks as `pick`.
    pub fn columns(&self) -> impl ExactSizeIterator<Item = (u64, V, V)> + '_ {
        self.columns.iter().map(|c| (c.threshold, c.own, c.alias))
    }

    /// One draw: one fresh word from the generator.
    #[inline(always)]
    pub fn draw(&self, rng: &mut DiceRng) -> V {
        self.pick(rng.next_u64())
    }
}

impl Alias<u32> {
    /// `trials` draws counted by value: `counts[v]` of them drew `v`. For
    /// samplers whose trial is one draw of a key (below `keys`), expanded
    /// into fields once per chunk.
    pub fn count(&self, rng: &mut DiceRng, trials: u64, keys: usize) -> Vec<u64> {
        let mut counts = vec![0u64; keys];
        // A copy of the generator on this frame keeps its state in
        // registers through the loop.
        rng.on_this_frame(|rng| {
            for _ in 0..trials {
                counts[self.draw(rng) as usize] += 1;
            }
        });
        counts
    }
}

/// Vose's construction of an alias table. `scaled` holds each column's
/// weight scaled to a mean of 1; on return it holds the share of each
/// column that draws the column's own index, and the returned vector the
/// index drawn otherwise. A light column is topped up from a heavy one;
/// what is left at the end is full up to rounding: its share becomes 1
/// and its alias itself.
pub fn vose(scaled: &mut [f64]) -> Vec<usize> {
    let n = scaled.len();
    let mut alias: Vec<usize> = (0..n).collect();
    let (mut light, mut heavy): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| scaled[i] < 1.0);
    while let (Some(&l), Some(&h)) = (light.last(), heavy.last()) {
        light.pop();
        alias[l] = h;
        scaled[h] -= 1.0 - scaled[l];
        if scaled[h] < 1.0 {
            heavy.pop();
            light.push(h);
        }
    }
    for i in light.into_iter().chain(heavy) {
        scaled[i] = 1.0;
        alias[i] = i;
    }
    alias
}

/// `p` in [0, 1] as a threshold on a 64-bit fraction.
fn fraction(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else {
        // The cast saturates; 2^64 · p is exact to f64's precision.
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probability each value is drawn, summed over every column
    /// exactly (no sampling).
    fn law_of(a: &Alias) -> std::collections::BTreeMap<u32, f64> {
        let n = a.columns.len() as f64;
        let mut out = std::collections::BTreeMap::new();
        for c in &a.columns {
            let own = c.threshold as f64 / 18_446_744_073_709_551_616.0;
            *out.entry(c.own).or_insert(0.0) += own / n;
            *out.entry(c.alias).or_insert(0.0) += (1.0 - own) / n;
        }
        out
    }

    #[test]
    fn the_columns_hold_the_law() {
        let laws: [&[(u32, f64)]; 4] = [
            &[(7, 1.0)],
            &[(0, 1.0), (1, 1.0), (2, 2.0)],
            &[(3, 0.001), (9, 0.5), (4, 0.0), (5, 0.499)],
            &[
                (1, 1.0 / 3.0),
                (2, 1.0 / 7.0),
                (3, 1.0 - 1.0 / 3.0 - 1.0 / 7.0),
            ],
        ];
        for law in laws {
            let got = law_of(&Alias::new(law.iter().copied()));
            let mass: f64 = law.iter().map(|(_, w)| w).sum();
            for &(v, w) in law {
                let p = got.get(&v).copied().unwrap_or(0.0);
                assert!((p - w / mass).abs() < 1e-12, "{law:?}: {v} drawn {p}");
            }
        }
    }

    #[test]
    fn draws_follow_the_law() {
        let a = Alias::new([(0, 0.1), (1, 0.2), (2, 0.3), (3, 0.4)]);
        let (mut rng, mut again) = (DiceRng::from_u64(5), DiceRng::from_u64(5));
        let n = 400_000;
        let mut seen = vec![0u64; 4];
        for _ in 0..n {
            seen[a.draw(&mut rng) as usize] += 1;
        }
        // `count` draws the same values from the same stream.
        assert_eq!(a.count(&mut again, n, 4), seen);
        assert_eq!(again.next_u64(), rng.next_u64());
        for (v, &k) in seen.iter().enumerate() {
            let p = 0.1 * (v + 1) as f64;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!((k as f64 - n as f64 * p).abs() < 5.0 * sd, "{v}: {k}");
        }
    }
}
