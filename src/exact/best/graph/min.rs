//! The opposing side's decisions in a duel, valued apart from the
//! deciding side's ([`Graph::value`](super::Graph)), so a one-sided walk
//! runs the code it always ran.

use super::Graph;

impl<S> Graph<S> {
    /// The value of the opposing side's decision `i` (in a duel): the
    /// least of its options and its place in the menu when `duel`, else
    /// the given law. Apart from [`Graph::value`], so a one-sided walk
    /// runs the code it always ran.
    #[inline(never)]
    pub(super) fn value_min(
        &self,
        i: usize,
        vals: &[f64],
        next: &[f64],
        end: &[f64],
        duel: bool,
        found: &mut Vec<(usize, f64)>,
    ) -> (f64, u16) {
        let sum = |law: usize| self.expect(law, vals, next, end);
        let (a, b) = (self.span[i] as usize, self.span[i + 1] as usize);
        if !duel {
            return (sum(a), 0);
        }
        // Ties go to the option listed first, as at the other side's.
        found.clear();
        let mut low = f64::INFINITY;
        for l in a + 1..b {
            let v = sum(l);
            low = low.min(v);
            found.push((l, v));
        }
        let eps = 1e-12 * low.abs().max(1.0);
        let (l, _) = *found
            .iter()
            .find(|(_, v)| *v <= low + eps)
            .expect("an option");
        (low, (l - a) as u16)
    }
}
