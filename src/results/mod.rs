//! The run's result types: what a run found, per config and method. The run
//! driver (`run`) produces these, the report modules consume them, and
//! neither imports the other.

mod support;

pub use support::{complete as complete_support, complete_one as complete_support_of};

use crate::model::{Marginals, MetricSpec, Outcomes, ParamValue, Schema, Tally, Weight};
use crate::stats;

/// Which method answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Exact where the mechanic has a solver, Monte Carlo elsewhere.
    Auto,
    /// Exact only; an error where no solver exists.
    Exact,
    /// Monte Carlo only.
    #[serde(rename = "mc")]
    MonteCarlo,
    /// Both, with an agreement check.
    Both,
}

/// A word that names no [`Mode`]; the message lists the four.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a mode; allowed: auto (exact where a solver covers the values, else Monte Carlo), exact (exact only; an error where no solver does), mc (Monte Carlo only), both (exact and Monte Carlo, each checked against the other)"
)]
pub struct UnknownMode(pub String);

impl std::str::FromStr for Mode {
    type Err = UnknownMode;

    /// `run --mode`'s words, which every face (`odds`, the workbench,
    /// Python) takes: auto, exact, mc, both.
    fn from_str(word: &str) -> Result<Mode, UnknownMode> {
        Mode::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, m)| *m)
            .ok_or_else(|| UnknownMode(word.to_string()))
    }
}

impl Mode {
    /// Each mode's word, as `run --mode` takes it, in the order help lists them.
    pub const WORDS: [(&'static str, Mode); 4] = [
        ("auto", Mode::Auto),
        ("exact", Mode::Exact),
        ("mc", Mode::MonteCarlo),
        ("both", Mode::Both),
    ];

    /// The mode's word: `auto`, `exact`, `mc` or `both`.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Exact => "exact",
            Mode::MonteCarlo => "mc",
            Mode::Both => "both",
        }
    }

    /// Whether a config is simulated, given whether it was solved exactly.
    pub fn simulates(self, solved: bool) -> bool {
        match self {
            Mode::Exact => false,
            Mode::Auto => !solved,
            Mode::MonteCarlo | Mode::Both => true,
        }
    }
}

/// How a number was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Exact,
    MonteCarlo,
}

impl Method {
    /// The name used in every output: `exact` or `monte-carlo`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::MonteCarlo => "monte-carlo",
        }
    }
}

/// A headline metric's value (with its 95% interval for Monte Carlo).
#[derive(Clone, Debug, PartialEq)]
pub struct MetricRow {
    pub name: String,
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    /// Standard error (Monte Carlo only).
    pub se: Option<f64>,
}

/// The probability of one value of one outcome field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldRow {
    pub field: String,
    pub value: i64,
    pub label: String,
    pub probability: f64,
    /// Trials that gave this value (Monte Carlo only).
    pub count: Option<u64>,
    /// Wilson 95% interval (Monte Carlo only).
    pub interval: Option<(f64, f64)>,
}

/// One method's answer for one config.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub method: Method,
    /// Trials run (0 for exact).
    pub trials: u64,
    pub metrics: Vec<MetricRow>,
    pub dist: Vec<FieldRow>,
}

impl Run {
    /// The metric called `name`: the run's own, or a complement derived
    /// from it (`p_fail` = 1 − `p_success`, its interval mirrored), which
    /// the scenario's checks allow only for yes/no metrics
    /// ([`Schema::complements`]).
    pub fn metric(&self, name: &str) -> Option<MetricRow> {
        if let Some(m) = self.metrics.iter().find(|m| m.name == name) {
            return Some(m.clone());
        }
        let of = self
            .metrics
            .iter()
            .find(|m| crate::systems::complement_name(&m.name).as_deref() == Some(name))?;
        Some(MetricRow {
            name: name.to_string(),
            value: 1.0 - of.value,
            interval: of.interval.map(|(lo, hi)| (1.0 - hi, 1.0 - lo)),
            se: of.se,
        })
    }
}

/// Exact against Monte Carlo for one metric of one config.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    pub metric: String,
    pub exact: f64,
    pub estimate: f64,
    /// Standard error the exact distribution predicts for the estimate.
    pub se: f64,
    pub z: f64,
}

/// Everything found for one config.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigResult {
    pub index: usize,
    /// Swept values in axis order.
    pub swept: Vec<ParamValue>,
    pub runs: Vec<Run>,
    pub agreement: Vec<Agreement>,
}

impl ConfigResult {
    /// Everything known about config `index`: the exact and/or Monte Carlo
    /// runs, and their agreement when both exist.
    /// The first row whose value lies outside its field's bounds (its
    /// kind's, or the range its mechanic declares): field, value, bounds.
    pub fn outside_bounds(&self, schema: &Schema) -> Option<(String, i64, (i64, i64))> {
        self.runs.iter().flat_map(|r| &r.dist).find_map(|row| {
            let spec = schema.fields.iter().find(|f| f.name == row.field)?;
            let (lo, hi) = spec.bounds()?;
            (!(lo..=hi).contains(&row.value)).then(|| (row.field.clone(), row.value, (lo, hi)))
        })
    }

    pub fn new(
        index: usize,
        swept: Vec<ParamValue>,
        schema: &Schema,
        exact: Option<&Marginals>,
        tally: Option<&Tally>,
    ) -> ConfigResult {
        let mut runs = Vec::new();
        if let Some(m) = exact {
            runs.push(run_of(schema, m));
        }
        if let Some(t) = tally {
            runs.push(run_of(schema, t));
        }
        let agreement = match (exact, tally) {
            (Some(m), Some(t)) => agree(schema, m, t),
            _ => Vec::new(),
        };
        ConfigResult {
            index,
            swept,
            runs,
            agreement,
        }
    }

    /// [`ConfigResult::new`] with its support completed (see
    /// [`complete_support_of`]): a config's result as every table of a
    /// run shows it, made in one place.
    pub fn of(
        index: usize,
        swept: Vec<ParamValue>,
        schema: &Schema,
        exact: Option<&Marginals>,
        tally: Option<&Tally>,
    ) -> ConfigResult {
        let mut result = ConfigResult::new(index, swept, schema, exact, tally);
        support::complete_one(&mut result, schema);
        result
    }
}

/// The results of one scenario run.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub name: String,
    pub description: Option<String>,
    pub mechanic: String,
    /// Swept paths, as written in `[sweep]`.
    pub swept: Vec<String>,
    pub seed: u64,
    pub trials: u64,
    pub mode: Mode,
    pub precision: Option<f64>,
    pub configs: Vec<ConfigResult>,
    pub exact_seconds: f64,
    pub mc_seconds: f64,
}

impl Results {
    /// Configs where some metric's |z| exceeds `limit`, with those metrics.
    pub fn disagreements(&self, limit: f64) -> Vec<(&ConfigResult, Vec<&Agreement>)> {
        self.configs
            .iter()
            .filter_map(|c| {
                let bad: Vec<&Agreement> = c
                    .agreement
                    .iter()
                    .filter(|a| a.z.is_nan() || a.z.abs() > limit)
                    .collect();
                (!bad.is_empty()).then_some((c, bad))
            })
            .collect()
    }
}

/// How one method reads its table of outcomes into a [`Run`]: counts as a
/// Monte Carlo estimate, probabilities as an exact answer. The rest of a
/// run (a row per value of every field, a metric per spec) is [`run_of`],
/// written once for both.
trait Reads: Weight {
    const METHOD: Method;
    /// The trials a run reports (0 for exact).
    fn trials(t: &Outcomes<Self>) -> u64;
    /// The metric `spec`, read from `t`.
    fn metric(spec: &MetricSpec, t: &Outcomes<Self>) -> MetricRow;
    /// A value of weight `w` in a run of `trials` trials: its probability,
    /// count and interval.
    fn cells(w: Self, trials: u64) -> Cells;
}

/// A field row's probability, count and interval.
type Cells = (f64, Option<u64>, Option<(f64, f64)>);

impl Method {
    /// The cells of a value no trial reached and no solver weighed, for a
    /// run of `trials` trials (support completion).
    pub(crate) fn unreached(self, trials: u64) -> Cells {
        match self {
            Method::Exact => f64::cells(0.0, trials),
            Method::MonteCarlo => u64::cells(0, trials),
        }
    }
}

impl Reads for f64 {
    const METHOD: Method = Method::Exact;

    fn trials(_: &Marginals) -> u64 {
        0
    }

    fn metric(spec: &MetricSpec, m: &Marginals) -> MetricRow {
        MetricRow {
            name: spec.name.clone(),
            value: stats::exact_value(spec, m).value,
            interval: None,
            se: None,
        }
    }

    fn cells(p: f64, _: u64) -> Cells {
        (p, None, None)
    }
}

impl Reads for u64 {
    const METHOD: Method = Method::MonteCarlo;

    fn trials(t: &Tally) -> u64 {
        t.trials()
    }

    fn metric(spec: &MetricSpec, t: &Tally) -> MetricRow {
        let e = stats::estimate(spec, t);
        MetricRow {
            name: spec.name.clone(),
            value: e.value,
            interval: Some((e.lo, e.hi)),
            se: Some(e.se),
        }
    }

    fn cells(count: u64, n: u64) -> Cells {
        // 0 of 0 trials is no evidence, not NaN.
        let p = if count == 0 {
            0.0
        } else {
            count as f64 / n as f64
        };
        (p, Some(count), Some(stats::wilson(count, n)))
    }
}

/// One method's run from its table: every metric, and a row per value of
/// every field.
fn run_of<W: Reads>(schema: &Schema, t: &Outcomes<W>) -> Run {
    let metrics = schema
        .metrics
        .iter()
        .map(|spec| W::metric(spec, t))
        .collect();
    let mut dist = Vec::new();
    for (f, spec) in schema.fields.iter().enumerate() {
        for (value, w) in t.weights(f) {
            let (probability, count, interval) = W::cells(w, W::trials(t));
            dist.push(FieldRow {
                field: spec.name.clone(),
                value,
                label: spec.label(value),
                probability,
                count,
                interval,
            });
        }
    }
    Run {
        method: W::METHOD,
        trials: W::trials(t),
        metrics,
        dist,
    }
}

fn agree(schema: &Schema, m: &Marginals, t: &Tally) -> Vec<Agreement> {
    schema
        .metrics
        .iter()
        .map(|spec| {
            let exact = stats::exact_value(spec, m);
            let est = stats::estimate(spec, t);
            Agreement {
                metric: spec.name.clone(),
                exact: exact.value,
                estimate: est.value,
                se: exact.se(est.trials),
                z: stats::z_score(&exact, &est),
            }
        })
        .collect()
}
