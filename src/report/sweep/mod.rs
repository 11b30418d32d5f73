//! A whole run as its outputs read it, whatever its size: the totals the
//! report states (how many configs, by which method), the configs in
//! sweep order for the summary tables, and the few configs the report
//! shows, charts or names, read back by their swept values.
//!
//! A run of `oddsmith run` or `check` keeps its configs in a [`Store`] on
//! disk as they arrive, so its memory does not grow with the sweep; a run
//! rebuilt in memory (a merge of shards, `oddsmith report`) reads the
//! same way from its [`Results`].

mod store;
pub(crate) mod summary;
mod totals;
pub(crate) mod wanted;

pub use store::Store;
pub use totals::{Kind, Totals};

use super::{OutputError, Verdict};
use crate::results::{ConfigResult, Results};
use crate::scenario::Scenario;
use crate::systems::ParamValue;

/// A sweep's axes: each swept path and its values, the last varying
/// fastest, so a config's values follow from its index.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub names: Vec<String>,
    pub values: Vec<Vec<ParamValue>>,
}

impl Grid {
    /// The grid of `scenario`'s `[sweep]`.
    pub fn of(scenario: &Scenario) -> Grid {
        Grid {
            names: scenario.sweep.iter().map(|a| a.path.clone()).collect(),
            values: scenario.sweep.iter().map(|a| a.values.clone()).collect(),
        }
    }

    /// Configs in the sweep.
    pub fn len(&self) -> usize {
        self.values.iter().map(Vec::len).product()
    }

    /// Whether the sweep has no config (never: an empty axis is refused).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Configs between two neighbours along axis `axis`.
    pub fn stride(&self, axis: usize) -> usize {
        self.values[axis + 1..].iter().map(Vec::len).product()
    }

    /// The position of config `index`'s value among axis `axis`'s values.
    pub fn digit(&self, index: usize, axis: usize) -> usize {
        (index / self.stride(axis)) % self.values[axis].len()
    }

    /// The swept values of config `index`, as
    /// [`Scenario::config`](crate::scenario::Scenario::config) gives them.
    pub fn swept_at(&self, index: usize) -> Vec<ParamValue> {
        let mut rest = index;
        let mut swept = vec![ParamValue::Int(0); self.values.len()];
        for (i, values) in self.values.iter().enumerate().rev() {
            swept[i] = values[rest % values.len()].clone();
            rest /= values.len();
        }
        swept
    }

    /// A `where` as (axis, value position) pairs; `None` when it names a
    /// value or path the sweep does not have (it picks no config).
    pub fn filter(&self, filter: &[(String, ParamValue)]) -> Option<Vec<(usize, usize)>> {
        filter
            .iter()
            .map(|(path, v)| {
                let axis = self.names.iter().position(|p| p == path)?;
                let at = self.values[axis].iter().position(|x| x == v)?;
                Some((axis, at))
            })
            .collect()
    }

    /// Whether config `index` has every value of `filter` (from
    /// [`Grid::filter`]).
    pub fn holds(&self, index: usize, filter: &[(usize, usize)]) -> bool {
        filter
            .iter()
            .all(|&(axis, at)| self.digit(index, axis) == at)
    }
}

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
