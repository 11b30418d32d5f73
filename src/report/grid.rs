//! A sweep's grid: its axes in order, the last varying fastest, so a
//! config's swept values, and whether a `where` picks it, follow from its
//! index alone.

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
