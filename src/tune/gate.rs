//! The gate of a tune scenario: each `[[expect]] knob_between = [a, b]`
//! against the knob values found. A row that found no value, or whose
//! value cannot be told apart from one outside the bounds, fails it.

use super::Tuned;
use crate::scenario::KnobGate;

/// One gate's verdict: the rows it covers that break it.
#[derive(Clone, Debug, PartialEq)]
pub struct GateVerdict {
    pub gate: KnobGate,
    /// Rows checked.
    pub checked: usize,
    /// Each failing row: its combination, and the knob found (or "none").
    pub failures: Vec<(String, String)>,
}

impl GateVerdict {
    pub fn failed(&self) -> bool {
        !self.failures.is_empty()
    }
}

/// Check every gate against `tuned`.
pub fn gates(tuned: &Tuned, gates: &[KnobGate]) -> Vec<GateVerdict> {
    gates
        .iter()
        .map(|gate| {
            let mut checked = 0;
            let mut failures = Vec::new();
            for r in &tuned.rows {
                let selected = gate.filter.iter().all(|(path, v)| {
                    tuned
                        .swept
                        .iter()
                        .position(|p| p == path)
                        .is_none_or(|i| &r.swept[i] == v)
                });
                if !selected {
                    continue;
                }
                checked += 1;
                let holds = r
                    .knob
                    .is_some_and(|k| (gate.low..=gate.high).contains(&tuned.knob.numbers[k]));
                if !holds {
                    let point = tuned
                        .swept
                        .iter()
                        .zip(&r.swept)
                        .map(|(p, v)| format!("{p} = {v}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let found = r.knob.map_or("none".to_string(), |k| tuned.label(k));
                    failures.push((point, found));
                }
            }
            GateVerdict {
                gate: gate.clone(),
                checked,
                failures,
            }
        })
        .collect()
}
