//! Which configs a report reads back from a streamed run: those its
//! charts draw, its at-least tables and headline table show, and its
//! assertions name. Each is picked by swept values alone (a chart's or an
//! assertion's `where`, the headline table's sample), or by index (a
//! finding's configs), so the choice is made before reading anything.

use crate::report::balance::Verdict;
use crate::report::grid::Grid;
use crate::report::headline;
use crate::report::totals::Totals;
use crate::scenario::Scenario;

/// An assertion's `where` names its configs (in the headline table, the
/// at-least tables) when it picks out at most this many; the broadest
/// either reads ([`headline`]'s 24, [`crate::report::tails::NAMED`]).
const NAMED: usize = 24;

/// The configs a report of a run reads.
pub struct Wanted<'a> {
    grid: &'a Grid,
    all: bool,
    filters: Vec<Vec<(usize, usize)>>,
    indices: Vec<usize>,
    /// Per axis, whether each value is in the headline table's sample.
    sample: Option<Vec<Vec<bool>>>,
}

impl<'a> Wanted<'a> {
    /// What a report of `scenario`'s run over `grid`, with `totals` and
    /// `verdicts`, reads.
    pub fn new(
        scenario: &Scenario,
        grid: &'a Grid,
        totals: &Totals,
        verdicts: &[Verdict],
    ) -> Wanted<'a> {
        let mut filters: Vec<Vec<(usize, usize)>> = scenario
            .charts
            .iter()
            .filter_map(|c| grid.filter(&c.filter))
            .collect();
        filters.extend(
            scenario
                .expectations
                .iter()
                .filter(|e| {
                    !e.filter.is_empty() && totals.matching(&grid.names, &e.filter) <= NAMED
                })
                .filter_map(|e| grid.filter(&e.filter)),
        );
        let picks = headline::picks(&grid.names, totals, verdicts, &mut |filter| match grid
            .filter(filter)
        {
            Some(f) => (0..grid.len()).filter(|&i| grid.holds(i, &f)).collect(),
            None => Vec::new(),
        });
        Wanted {
            grid,
            all: picks.all,
            filters,
            indices: picks.named,
            sample: (!picks.all).then(|| {
                grid.values
                    .iter()
                    .zip(&picks.kept)
                    .map(|(vals, kept)| vals.iter().map(|v| kept.contains(v)).collect())
                    .collect()
            }),
        }
    }

    /// Whether the report reads config `index`.
    pub fn wants(&self, index: usize) -> bool {
        self.all
            || self.indices.binary_search(&index).is_ok()
            || self.filters.iter().any(|f| self.grid.holds(index, f))
            || self.sample.as_ref().is_some_and(|kept| {
                kept.iter()
                    .enumerate()
                    .all(|(axis, ks)| ks[self.grid.digit(index, axis)])
            })
    }
}
