//! Best play: "this mechanic, these values, this metric → what does a
//! player who plays well get, and which options does it never need?"
//! One library question beside `tune`, asked by every face (the `best`
//! command, a scenario's `[best]`, the workbench, Python).
//!
//! The mechanic's decision process (`systems::best`) is solved exactly
//! (`exact::best`): one side's choice left open at every decision,
//! against the other side's given policy, maximising the metric in
//! expectation. The answer holds the value under best play and under the
//! given policy, the best policy as rules, the dominance of each group
//! of options, and the best policy written as the mechanic's own keys,
//! replayed through the mechanic's ordinary exact solver (so `run` and
//! `check` reproduce it).
//!
//! Against an opponent that plays best too ([`Opponent::Best`], where the
//! mechanic has a second deciding side, `systems::duel`): a zero-sum duel
//! for a metric the duel is played for, solved exactly (the sides decide
//! in turn); the answer is the game's value, both sides' policies, and
//! one-sided best play's value beside it.

pub mod report;
pub mod sweep;

use std::time::Instant;

use serde::Serialize;

use crate::exact::best::{BestLimits, Decision, Played, RuleBox, rules};
use crate::model::{Marginals, Mechanic, MetricKind, ParamError, ParamMap, ParamValue, Schema};
use crate::systems;

/// What is asked.
#[derive(Clone)]
pub struct BestQuestion {
    pub mechanic: &'static dyn Mechanic,
    /// Explicit values (the rest take their defaults).
    pub params: ParamMap,
    /// The metric to maximise (a probability, a mean, or a complement).
    pub metric: String,
    /// Also work out what forbidding each group of options costs (one
    /// more solve per group).
    pub dominance: bool,
    /// What the other side plays: its given policy, or best play too.
    pub opponent: Opponent,
}

/// What the other side plays (defined beside the duels, below the
/// scenario that reads it).
pub use crate::systems::duel::Opponent;

/// Why a question has no answer.
#[derive(Debug, thiserror::Error)]
pub enum BestError {
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The metric cannot be maximised: unknown, or not an expectation.
    #[error("{0}")]
    Metric(String),
    /// The mechanic has no exact best play, or these values are beyond
    /// the solver.
    #[error("{0}")]
    Unsolved(String),
}

/// Best play, as every face shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestAnswer {
    pub mechanic: String,
    pub metric: String,
    /// Whether the metric is a probability (printed as a percentage).
    pub probability: bool,
    /// What the deciding side chooses.
    pub decision: String,
    /// The metric under best play.
    pub best: f64,
    /// The metric under the policy the values give.
    pub given: f64,
    /// `best − given`: what the given policy leaves on the table.
    pub gap: f64,
    /// The best policy as rules, most visited first.
    pub rules: Vec<RuleAnswer>,
    /// Per option: its share of best play's decisions.
    pub options: Vec<OptionAnswer>,
    /// Per group of options: what forbidding it costs, and its use.
    pub dominance: Vec<DominanceAnswer>,
    /// The best policy as the mechanic's own keys (`key = value` lines of
    /// TOML), when its policy language can say it.
    pub policy: Option<String>,
    /// The written policy's value by the mechanic's own exact solver (as
    /// `run` and `check` find it): `best` when the policy says it all.
    pub replayed: Option<f64>,
    /// Why no policy is written, when none is.
    pub unwritten: Option<String>,
    /// Decisions per trial under best play.
    pub decisions: f64,
    /// States between rounds the solver walked, and rounds.
    pub states: usize,
    pub rounds: usize,
    pub seconds: f64,
    /// Against an opponent playing best too: `best` is the duel's value,
    /// `given` both given policies', `rules` the deciding side's policy
    /// in the duel, `policy` both sides' keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duel: Option<DuelAnswer>,
}

impl BestAnswer {
    /// A side's rules and dominance: A's (the deciding side's), or in a
    /// duel B's (`b`); B has none outside a duel.
    pub fn side(&self, b: bool) -> (&[RuleAnswer], &[DominanceAnswer]) {
        match (b, &self.duel) {
            (false, _) => (&self.rules, &self.dominance),
            (true, Some(d)) => (&d.rules, &d.dominance),
            (true, None) => (&[], &[]),
        }
    }

    /// A side's rules and dominance to fill in: `None` for B outside a
    /// duel.
    pub fn side_mut(
        &mut self,
        b: bool,
    ) -> Option<(&mut Vec<RuleAnswer>, &mut Vec<DominanceAnswer>)> {
        match (b, &mut self.duel) {
            (false, _) => Some((&mut self.rules, &mut self.dominance)),
            (true, Some(d)) => Some((&mut d.rules, &mut d.dominance)),
            (true, None) => None,
        }
    }
}

/// What a duel adds to the answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuelAnswer {
    /// What the opposing side chooses.
    pub decision: String,
    /// The deciding side's best against the opposing side's given policy
    /// (one-sided best play): at least the duel's value.
    pub one_sided: f64,
    /// `one_sided − best`: what the opponent's best play takes back.
    pub taken_back: f64,
    /// The opposing side's best policy as rules, most visited first.
    pub rules: Vec<RuleAnswer>,
    /// Its decisions per trial.
    pub decisions: f64,
    /// Per group of the opposing side's options: the duel's value with
    /// it forbidden (A still playing best), `loss` what B's best play
    /// loses (`without − best`: what A gains), and B's use of it.
    pub dominance: Vec<DominanceAnswer>,
}

/// One rule of the best policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleAnswer {
    /// The situation, in the designer's terms ("ladder ≥ 4 and edge ≥ 0").
    pub when: String,
    /// What best play does there.
    pub choice: String,
    /// The rule's share of best play's decisions.
    pub share: f64,
    /// The share of those decisions where best play takes `choice` (below
    /// 1 when it depends on something the rule cannot see).
    pub agree: f64,
}

/// One option's use under best play.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionAnswer {
    pub option: String,
    pub share: f64,
}

/// What forbidding one group of options costs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DominanceAnswer {
    /// The group ("setup", "2 raises").
    pub option: String,
    /// Best play's value without it.
    pub without: f64,
    /// `best − without`: 0 means best play never needs it.
    pub loss: f64,
    /// Its share of best play's decisions.
    pub usage: f64,
}

/// An outcome's value under a metric.
pub type Reward = Box<dyn Fn(&[i64]) -> f64 + Sync>;

/// The value of an outcome under `metric`: what best play maximises in
/// expectation. A standard deviation is no expectation, so it is refused.
pub fn reward(schema: &Schema, metric: &str) -> Result<(Reward, bool), String> {
    let (name, flip) = match schema.complement_of(metric) {
        Some(of) => (of, true),
        None => (metric.to_string(), false),
    };
    let Some(spec) = schema.metrics.iter().find(|m| m.name == name) else {
        return Err(format!(
            "metric `{metric}` is not a metric of this mechanic; allowed: {}",
            schema.metric_names().join(", ")
        ));
    };
    let base: Reward = match spec.kind {
        MetricKind::Prob { field, pred } => {
            Box::new(move |o| f64::from(u8::from(pred.holds(o[field]))))
        }
        MetricKind::Both { first, second } => Box::new(move |o| {
            f64::from(u8::from(
                first.1.holds(o[first.0]) && second.1.holds(o[second.0]),
            ))
        }),
        MetricKind::Mean { field } => Box::new(move |o| o[field] as f64),
        MetricKind::Sd { .. } => {
            return Err(format!(
                "metric `{metric}` is a standard deviation, which is no expectation of one trial; best play maximises a probability or a mean"
            ));
        }
    };
    let probability = spec.kind.is_probability();
    if flip {
        Ok((Box::new(move |o| 1.0 - base(o)), probability))
    } else {
        Ok((base, probability))
    }
}

/// The metric's value in an exact answer.
fn metric_of(m: &Marginals, schema: &Schema, metric: &str) -> Option<f64> {
    let (name, flip) = match schema.complement_of(metric) {
        Some(of) => (of, true),
        None => (metric.to_string(), false),
    };
    let spec = schema.metrics.iter().find(|x| x.name == name)?;
    let total = m.total();
    let v = match spec.kind {
        MetricKind::Prob { field, pred } => m.share(field, pred) / total,
        MetricKind::Both { first, second } => m.share_both(first, second)? / total,
        MetricKind::Mean { field } => {
            m.weights(field).map(|(v, w)| v as f64 * w).sum::<f64>() / total
        }
        MetricKind::Sd { .. } => return None,
    };
    Some(if flip { 1.0 - v } else { v })
}

/// One option's row of a solve's dominance, as answered.
fn dominance_answer(d: &crate::exact::best::Dominance) -> DominanceAnswer {
    DominanceAnswer {
        option: d.tag.clone(),
        without: d.without,
        loss: d.loss,
        usage: d.usage,
    }
}

/// Ask.
pub fn best(q: &BestQuestion) -> Result<BestAnswer, BestError> {
    let started = Instant::now();
    let name = q.mechanic.name();
    q.mechanic.check(&q.params)?;
    // Before the schema: a mechanic best play does not cover says so
    // whatever its values (some need keys no default gives).
    if systems::best::decision(name).is_none() {
        return Err(BestError::Unsolved(systems::best::why_not(name)));
    }
    let schema = q.mechanic.schema_of(&q.params)?;
    let Some(process) = systems::best::process(name, &q.params) else {
        return Err(BestError::Unsolved(systems::best::why_not(name)));
    };
    let (reward, probability) = reward(&schema, &q.metric).map_err(BestError::Metric)?;
    let duel = q.opponent == Opponent::Best;
    let process = if duel {
        let Some(opposed) = systems::duel::process(name, &q.params) else {
            return Err(BestError::Unsolved(systems::duel::why_not(name)));
        };
        let allowed = systems::duel::zero_sum(name);
        if !allowed.contains(&q.metric.as_str()) {
            return Err(BestError::Metric(format!(
                "metric `{}` is not zero-sum in {name} (what one side gains the other loses), so a duel (both sides best) cannot be played for it; allowed in a duel: {}",
                q.metric,
                allowed.join(", ")
            )));
        }
        drop(process);
        opposed?
    } else {
        process?
    };
    let limits = BestLimits::default();
    let played = if duel {
        process.play_duel(&*reward, q.dominance, limits)
    } else {
        process.play(&*reward, q.dominance, limits)
    };
    let played = played.map_err(|e| {
        BestError::Unsolved(format!(
            "{name} has no exact best play for these values: {e}"
        ))
    })?;
    let Played {
        solved,
        rules: boxes,
        written,
        opposing_rules,
    } = played;
    let rules = shown(&boxes, &solved.decisions, &solved.features, &solved.options);
    let duel = solved.one_sided.map(|one_sided| DuelAnswer {
        decision: systems::duel::opposing(name)
            .unwrap_or_default()
            .to_string(),
        one_sided,
        taken_back: one_sided - solved.value,
        rules: shown(
            &opposing_rules,
            &solved.opposing,
            &solved.features,
            &solved.opposing_options,
        ),
        decisions: solved.opposing.iter().map(|d| d.visits).sum(),
        dominance: solved
            .opposing_dominance
            .iter()
            .map(dominance_answer)
            .collect(),
    });
    let mut options: Vec<OptionAnswer> = solved
        .options
        .iter()
        .zip(&solved.usage)
        .map(|(o, &share)| OptionAnswer {
            option: o.clone(),
            share,
        })
        .collect();
    options.sort_by(|a, b| b.share.total_cmp(&a.share));
    let dominance = solved.dominance.iter().map(dominance_answer).collect();
    let (policy, replayed, unwritten) = match written {
        Some(keys) => {
            let replayed = replay(q, &keys, &schema)?;
            (Some(toml_lines(&keys)), replayed, None)
        }
        None => (None, None, Some(systems::best::unwritten(name))),
    };
    Ok(BestAnswer {
        mechanic: name.to_string(),
        metric: q.metric.clone(),
        probability,
        decision: systems::best::decision(name)
            .unwrap_or_default()
            .to_string(),
        best: solved.value,
        given: solved.given,
        gap: solved.value - solved.given,
        rules,
        options,
        dominance,
        policy,
        replayed,
        unwritten,
        decisions: solved.visits,
        states: solved.states,
        rounds: solved.rounds,
        seconds: started.elapsed().as_secs_f64(),
        duel,
    })
}

/// A side's best policy as rules in the designer's terms, most visited
/// first: each rule says only what tells it from situations where best
/// play chooses otherwise (the last features dropped first), and two
/// rules that then read alike are one.
fn shown(
    boxes: &[RuleBox],
    decisions: &[Decision],
    features: &[&'static str],
    options: &[String],
) -> Vec<RuleAnswer> {
    let seen = rules::spans(decisions, features.len());
    let visits = decisions
        .iter()
        .map(|d| d.visits)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let typed: Vec<(Vec<(i64, i64)>, usize)> =
        boxes.iter().map(|b| (b.ranges.clone(), b.option)).collect();
    let order: Vec<usize> = (0..features.len()).rev().collect();
    let wide = rules::widen(&typed, &seen, &order);
    let mut shown: Vec<RuleAnswer> = Vec::new();
    for (b, ranges) in boxes.iter().zip(wide) {
        let when = rules::condition(
            &rules::Box {
                ranges,
                ..b.clone()
            },
            features,
            &seen,
        );
        let choice = options[b.option].clone();
        let share = b.visits / visits;
        match shown
            .iter_mut()
            .find(|r| r.when == when && r.choice == choice)
        {
            Some(r) => {
                r.agree = (r.agree * r.share + b.agree * share)
                    / (r.share + share).max(f64::MIN_POSITIVE);
                r.share += share;
            }
            None => shown.push(RuleAnswer {
                when,
                choice,
                share,
                agree: b.agree,
            }),
        }
    }
    shown.sort_by(|a, b| b.share.total_cmp(&a.share));
    shown
}

/// The values with the best policy written in.
pub fn with_policy(params: &ParamMap, mechanic: &str, keys: &[(String, ParamValue)]) -> ParamMap {
    let mut values = params.clone();
    for k in systems::best::replaces(mechanic) {
        values.remove(k);
    }
    for (k, v) in keys {
        values.set(k.clone(), v.clone());
    }
    values
}

/// The written policy's value by the mechanic's own exact solver.
fn replay(
    q: &BestQuestion,
    keys: &[(String, ParamValue)],
    schema: &Schema,
) -> Result<Option<f64>, BestError> {
    let mut values = q.params.clone();
    if q.opponent == Opponent::Best {
        // Both sides' policies are written: the second side's given
        // keys go too.
        for k in systems::duel::replaces(q.mechanic.name()) {
            values.remove(k);
        }
    }
    let values = with_policy(&values, q.mechanic.name(), keys);
    q.mechanic.check(&values)?;
    let model = q.mechanic.prepare(&values)?;
    Ok(model.exact().and_then(|m| metric_of(&m, schema, &q.metric)))
}

/// `key = value` lines, as a scenario's `[params]` writes them.
pub fn toml_lines(keys: &[(String, ParamValue)]) -> String {
    keys.iter()
        .map(|(k, v)| {
            let key = if k.contains('.') {
                format!("\"{k}\"")
            } else {
                k.clone()
            };
            format!("{key} = {}", toml_value(v))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn toml_value(v: &ParamValue) -> String {
    match v {
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Float(x) => format!("{x:?}"),
        ParamValue::Bool(b) => b.to_string(),
        ParamValue::Str(s) => format!("{s:?}"),
        ParamValue::List(items) => format!(
            "[{}]",
            items.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        ParamValue::Table(entries) => format!(
            "{{ {} }}",
            entries
                .iter()
                .map(|(k, x)| format!("{k} = {}", toml_value(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests;
