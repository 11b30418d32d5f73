//! What a report says of a whole run (how many configs, by which method,
//! which metrics), folded config by config as the run streams, so no
//! output needs every config in memory to say it.

use crate::results::{ConfigResult, Method, Results};
use crate::systems::ParamValue;

/// How a column of swept values is typed, folded value by value: integers
/// stay integers, booleans booleans, anything else is text (as
/// [`ColumnKind::of`](crate::report::frames::ColumnKind::of) decides for a
/// whole column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    all_int: bool,
    all_bool: bool,
}

impl Default for Kind {
    fn default() -> Kind {
        Kind {
            all_int: true,
            all_bool: true,
        }
    }
}

impl Kind {
    fn add(&mut self, v: &ParamValue) {
        self.all_int &= matches!(v, ParamValue::Int(_));
        self.all_bool &= matches!(v, ParamValue::Bool(_));
    }

    /// The column kind of every value added.
    pub fn column(self) -> crate::report::frames::ColumnKind {
        use crate::report::frames::ColumnKind;
        if self.all_int {
            ColumnKind::Int
        } else if self.all_bool {
            ColumnKind::Bool
        } else {
            ColumnKind::Text
        }
    }
}

/// A whole run's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    pub configs: usize,
    /// Exact runs (one per config solved exactly).
    pub exact_runs: usize,
    /// Monte Carlo runs, and the fewest and most trials of any.
    pub mc_runs: usize,
    pub mc_trials: Option<(u64, u64)>,
    /// The most runs (methods) any config has.
    pub runs_per_config: usize,
    /// The first config's first run's metrics, in order.
    pub first_metrics: Option<Vec<String>>,
    /// Every metric any run has, in order of first appearance.
    pub metrics: Vec<String>,
    /// Rows of `summary.csv` (one per config and run) and how each swept
    /// column of them is typed.
    pub summary_rows: usize,
    pub summary_kinds: Vec<Kind>,
    /// Rows of `agreement.csv` (one per config and metric where both
    /// methods ran), and their swept columns' kinds.
    pub agreement_rows: usize,
    pub agreement_kinds: Vec<Kind>,
    /// The largest |z| of any agreement (0 without any).
    pub worst_z: f64,
    /// Each swept path's distinct values, in sweep order.
    pub axes: Vec<Vec<ParamValue>>,
    /// Whether `axes` is given (a sweep's grid) rather than folded.
    fixed_axes: bool,
}

impl Totals {
    /// Nothing yet, over `swept` axes; `axes`, when given, are their
    /// values in sweep order (a streamed run knows them from its sweep).
    pub fn new(swept: usize, axes: Option<Vec<Vec<ParamValue>>>) -> Totals {
        Totals {
            configs: 0,
            exact_runs: 0,
            mc_runs: 0,
            mc_trials: None,
            runs_per_config: 0,
            first_metrics: None,
            metrics: Vec::new(),
            summary_rows: 0,
            summary_kinds: vec![Kind::default(); swept],
            agreement_rows: 0,
            agreement_kinds: vec![Kind::default(); swept],
            worst_z: 0.0,
            fixed_axes: axes.is_some(),
            axes: axes.unwrap_or_else(|| vec![Vec::new(); swept]),
        }
    }

    /// The totals of a run held in memory.
    pub fn of(results: &Results) -> Totals {
        let mut t = Totals::new(results.swept.len(), None);
        for c in &results.configs {
            t.add(c);
        }
        t
    }

    /// Count config `c` in.
    pub fn add(&mut self, c: &ConfigResult) {
        self.configs += 1;
        self.runs_per_config = self.runs_per_config.max(c.runs.len());
        if self.first_metrics.is_none() {
            self.first_metrics = Some(
                c.runs
                    .first()
                    .map(|r| r.metrics.iter().map(|m| m.name.clone()).collect())
                    .unwrap_or_default(),
            );
        }
        for r in &c.runs {
            match r.method {
                Method::Exact => self.exact_runs += 1,
                Method::MonteCarlo => {
                    self.mc_runs += 1;
                    self.mc_trials = Some(match self.mc_trials {
                        Some((lo, hi)) => (lo.min(r.trials), hi.max(r.trials)),
                        None => (r.trials, r.trials),
                    });
                }
            }
            for m in &r.metrics {
                if !self.metrics.contains(&m.name) {
                    self.metrics.push(m.name.clone());
                }
            }
            self.summary_rows += 1;
            for (k, v) in self.summary_kinds.iter_mut().zip(&c.swept) {
                k.add(v);
            }
        }
        for a in &c.agreement {
            self.agreement_rows += 1;
            for (k, v) in self.agreement_kinds.iter_mut().zip(&c.swept) {
                k.add(v);
            }
            self.worst_z = self.worst_z.max(a.z.abs());
        }
        if !self.fixed_axes {
            for (vals, v) in self.axes.iter_mut().zip(&c.swept) {
                if !vals.contains(v) {
                    vals.push(v.clone());
                }
            }
        }
    }

    /// Configs of the run whose swept values `names` hold `filter`, in a
    /// whole sweep (every combination of the axes' values).
    pub fn matching(&self, names: &[String], filter: &[(String, ParamValue)]) -> usize {
        let mut n = 1;
        for (path, vals) in names.iter().zip(&self.axes) {
            match filter.iter().find(|(p, _)| p == path) {
                Some((_, v)) => {
                    if !vals.contains(v) {
                        return 0;
                    }
                }
                None => n *= vals.len(),
            }
        }
        if filter.iter().any(|(p, _)| !names.contains(p)) {
            return 0;
        }
        n
    }
}
