//! Best play over a scenario's sweep: a scenario with `[best]` asks the
//! one best-play question ([`super::best`]) of every config, in parallel,
//! and its `[[expect]]` gates bound the answers ([`gates`]).

use std::time::Instant;

use rayon::prelude::*;

use super::{BestAnswer, BestError, BestQuestion, Opponent, best};
use crate::scenario::{BestGate, BestOf, Scenario, ScenarioError};
use crate::systems::ParamValue;

/// One config's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct BestRow {
    /// Position in the sweep.
    pub row: usize,
    /// Swept values, in axis order.
    pub swept: Vec<ParamValue>,
    pub answer: BestAnswer,
}

impl BestRow {
    /// `ladder = 4, initiative = random` (empty with no sweep).
    pub fn point(&self, swept: &[String]) -> String {
        point(swept, &self.swept)
    }
}

/// Swept paths with their values, as messages and reports name a config.
pub fn point(paths: &[String], values: &[ParamValue]) -> String {
    paths
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{p} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Best play in every config of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct BestRun {
    pub name: String,
    pub mechanic: String,
    /// What the deciding side chooses.
    pub decision: String,
    pub metric: String,
    pub probability: bool,
    /// What the other side plays: with [`Opponent::Best`], every row's
    /// answer is a duel's (its `duel` holds B's side).
    pub opponent: Opponent,
    /// What the opposing side chooses, in a duel (empty otherwise).
    pub opposing: String,
    pub swept: Vec<String>,
    pub rows: Vec<BestRow>,
    pub seconds: f64,
}

impl BestRun {
    /// A value of the metric: a percentage for a probability.
    pub fn show(&self, x: f64) -> String {
        value_text(x, self.probability)
    }

    /// What forbidding an option costs: "0" only when nothing.
    pub fn loss(&self, x: f64) -> String {
        loss_text(
            x,
            self.probability,
            if self.probability { " points" } else { "" },
        )
    }

    /// A share of decisions: "0" only when never.
    pub fn usage(&self, x: f64) -> String {
        usage_text(x)
    }

    /// A difference of the metric: points for a probability.
    pub fn diff(&self, x: f64) -> String {
        diff_text(x, self.probability)
    }
}

/// A value of the metric: a percentage for a probability (the report
/// and `oddsmith best`'s text).
pub fn value_text(x: f64, probability: bool) -> String {
    if probability {
        format!("{:.2}%", 100.0 * x)
    } else {
        format!("{x:.4}")
    }
}

/// A difference of the metric: points for a probability.
pub fn diff_text(x: f64, probability: bool) -> String {
    if probability {
        format!("{:+.2} points", 100.0 * x)
    } else {
        format!("{x:+.4}")
    }
}

/// What forbidding an option costs, `unit` after points of a
/// probability: "0" only when nothing (the report's tables and the
/// chart's bar labels, which leave the unit to the axis).
pub fn loss_text(x: f64, probability: bool, unit: &str) -> String {
    if x.abs() < 1e-12 {
        "0".into()
    } else if probability && x < 5e-5 {
        format!("< 0.01{unit}")
    } else if probability {
        format!("{:.2}{unit}", 100.0 * x)
    } else {
        format!("{x:.4}")
    }
}

/// A share of decisions: "0" only when never.
pub fn usage_text(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x < 5e-4 {
        "< 0.1%".into()
    } else {
        format!("{:.1}%", 100.0 * x)
    }
}

/// Solve best play in every config of `scenario` (which must have
/// `[best]`). A config best play cannot solve is an error naming the file,
/// the line of `[best]` and the config.
pub fn best_scenario(scenario: &Scenario) -> Result<BestRun, ScenarioError> {
    let started = Instant::now();
    let Some(spec) = &scenario.best else {
        return Err(ScenarioError::Invalid {
            path: scenario.path.clone(),
            line: 1,
            key: "best".into(),
            message: "is missing: only a scenario with a [best] table asks for best play".into(),
        });
    };
    let swept = scenario.swept_names();
    let rows = (0..scenario.config_count())
        .into_par_iter()
        .map(|i| {
            let config = scenario.config(i);
            let q = BestQuestion {
                mechanic: scenario.mechanic,
                params: config.values,
                metric: spec.metric.clone(),
                dominance: spec.dominance,
                opponent: spec.opponent,
            };
            let row = BestRow {
                row: i,
                swept: config.swept,
                answer: best(&q).map_err(|e| (i, e))?,
            };
            Ok(row)
        })
        .collect::<Result<Vec<_>, (usize, BestError)>>()
        .map_err(|(i, e)| {
            let point = point(&swept, &scenario.config(i).swept);
            ScenarioError::Invalid {
                path: scenario.path.clone(),
                line: spec.line,
                key: "best".into(),
                message: if point.is_empty() {
                    e.to_string()
                } else {
                    format!("{e} (in the config where {point})")
                },
            }
        })?;
    let first = rows.first().map(|r| &r.answer);
    Ok(BestRun {
        name: scenario.name.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        decision: first.map(|a| a.decision.clone()).unwrap_or_default(),
        metric: spec.metric.clone(),
        probability: first.is_some_and(|a| a.probability),
        opponent: spec.opponent,
        opposing: first
            .and_then(|a| a.duel.as_ref())
            .map(|d| d.decision.clone())
            .unwrap_or_default(),
        swept,
        rows,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One gate's verdict: the configs it covers that break it.
#[derive(Clone, Debug, PartialEq)]
pub struct BestVerdict {
    pub gate: BestGate,
    /// Configs checked.
    pub checked: usize,
    /// Each failing config: its point, and the value found.
    pub failures: Vec<(String, f64)>,
}

impl BestVerdict {
    pub fn failed(&self) -> bool {
        !self.failures.is_empty()
    }
}

/// Check every gate against `run`. A gate naming an option best play does
/// not have is an error naming the file, line and the options there are.
pub fn gates(
    scenario: &Scenario,
    run: &BestRun,
    gates: &[BestGate],
) -> Result<Vec<BestVerdict>, ScenarioError> {
    let mut out = Vec::new();
    for gate in gates {
        let mut checked = 0;
        let mut failures = Vec::new();
        for r in &run.rows {
            let selected = gate.filter.iter().all(|(path, v)| {
                run.swept
                    .iter()
                    .position(|p| p == path)
                    .is_none_or(|i| &r.swept[i] == v)
            });
            if !selected {
                continue;
            }
            checked += 1;
            let a = &r.answer;
            let value = match (gate.of, &gate.option) {
                (BestOf::Best, _) => a.best,
                (BestOf::Given, _) => a.given,
                (BestOf::Gap, _) => a.gap,
                (BestOf::OneSided, _) => a.duel.as_ref().map_or(a.best, |d| d.one_sided),
                (BestOf::TakenBack, _) => a.duel.as_ref().map_or(0.0, |d| d.taken_back),
                (of, Some(option)) => {
                    // The parser allows side = "b" only in a duel.
                    let table = match (&a.duel, gate.b_side) {
                        (Some(d), true) => &d.dominance,
                        _ => &a.dominance,
                    };
                    let Some(d) = table.iter().find(|d| d.option == *option) else {
                        let allowed: Vec<&str> = table.iter().map(|d| d.option.as_str()).collect();
                        return Err(ScenarioError::Invalid {
                            path: scenario.path.clone(),
                            line: gate.line,
                            key: "expect.option".into(),
                            message: format!(
                                "\"{option}\" is not an option of {}best play in {}; allowed: {}",
                                if gate.b_side { "B's " } else { "" },
                                run.mechanic,
                                allowed.join(", ")
                            ),
                        });
                    };
                    if of == BestOf::Loss { d.loss } else { d.usage }
                }
                (_, None) => unreachable!("the parser requires an option for loss and usage"),
            };
            if !gate.holds(value) {
                failures.push((r.point(&run.swept), value));
            }
        }
        out.push(BestVerdict {
            gate: gate.clone(),
            checked,
            failures,
        });
    }
    Ok(out)
}

/// One line per gate, e.g. `✓ why: gap ≤ 0.02 (3 configs)`.
pub fn gate_line(v: &BestVerdict) -> String {
    let g = &v.gate;
    let what = match &g.why {
        Some(why) => format!("{why}: {}", g.describe()),
        None => g.describe(),
    };
    let where_ = crate::scenario::where_clause(&g.filter);
    let plural = |n: usize| if n == 1 { "config" } else { "configs" };
    let result = if v.failed() {
        let list: Vec<String> = v
            .failures
            .iter()
            .map(|(point, x)| {
                let x = match g.of {
                    BestOf::Usage => format!("{:.2}%", 100.0 * x),
                    _ => format!("{x:.6}"),
                };
                if point.is_empty() {
                    x
                } else {
                    format!("{point}: {x}")
                }
            })
            .collect();
        format!(
            "FAILS in {} of {} {} ({})",
            v.failures.len(),
            v.checked,
            plural(v.checked),
            list.join("; ")
        )
    } else {
        format!("holds ({} {})", v.checked, plural(v.checked))
    };
    format!("{what}{where_}: {result}")
}
