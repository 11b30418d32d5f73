//! A whole run as its outputs read it, whatever its size: the totals the
//! report states (how many configs, by which method), the configs in
//! sweep order for the summary tables, and the few configs the report
//! shows, charts or names, read back by their swept values.
//!
//! A run of `oddsmith run` or `check` keeps its configs in a [`Store`] on
//! disk as they arrive, so its memory does not grow with the sweep; a run
//! rebuilt in memory (a merge of shards, `oddsmith diff`) reads the
//! same way from its [`Results`].

mod store;
pub(crate) mod summary;
pub(crate) mod wanted;

pub use super::grid::Grid;
pub use super::totals::{Kind, Totals};
pub use store::Store;

use super::{OutputError, Verdict};
use crate::results::{ConfigResult, Results};
use crate::scenario::Scenario;

/// A whole run, as the files of its output read it.
pub struct Sweep<'a> {
    /// The run's name, settings and timings; its configs are every config
    /// when the run is in memory, none when they are in `store`.
    pub head: &'a Results,
    pub totals: Totals,
    stored: Option<(&'a mut Store, Grid)>,
}

impl<'a> Sweep<'a> {
    /// A run held whole in memory.
    pub fn in_memory(results: &'a Results) -> Sweep<'a> {
        Sweep {
            head: results,
            totals: Totals::of(results),
            stored: None,
        }
    }

    /// A run whose configs are in `store`, over `grid`.
    pub fn stored(
        head: &'a Results,
        totals: Totals,
        store: &'a mut Store,
        grid: Grid,
    ) -> Sweep<'a> {
        Sweep {
            head,
            totals,
            stored: Some((store, grid)),
        }
    }

    /// Every config whose index `want` accepts, in sweep order.
    pub fn each(
        &mut self,
        want: &mut dyn FnMut(usize) -> bool,
        each: &mut dyn FnMut(&ConfigResult) -> Result<(), OutputError>,
    ) -> Result<(), OutputError> {
        match &mut self.stored {
            Some((store, grid)) => store.scan(grid, want, &mut |c| each(&c)),
            None => self
                .head
                .configs
                .iter()
                .filter(|c| want(c.index))
                .try_for_each(each),
        }
    }

    /// The run with only the configs its report reads (the charts', the
    /// tables', those the assertions name), given its verdicts.
    pub fn read_back(
        &mut self,
        scenario: &Scenario,
        verdicts: &[Verdict],
    ) -> Result<std::borrow::Cow<'a, Results>, OutputError> {
        if self.stored.is_none() {
            return Ok(std::borrow::Cow::Borrowed(self.head));
        }
        let grid = Grid::of(scenario);
        let wanted = wanted::Wanted::new(scenario, &grid, &self.totals, verdicts);
        // The store kept distributions only where `keeps_fields` asked.
        let mut configs = Vec::new();
        self.each(&mut |i| wanted.wants(i), &mut |c| {
            configs.push(c.clone());
            Ok(())
        })?;
        let mut results = self.head.clone();
        results.configs = configs;
        Ok(std::borrow::Cow::Owned(results))
    }
}

#[cfg(test)]
mod tests;
