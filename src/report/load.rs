//! Reading a finished run back from its directory: `scenario.toml` (the
//! copy written beside the outputs), `results.parquet` and
//! `manifest.json`. Metrics, intervals and agreement are recomputed from
//! the stored distributions and counts, exactly as the run computed them.

use std::collections::BTreeMap;
use std::path::Path;

use polars::prelude::*;

use super::OutputError;
use crate::dist::Marginals;
use crate::results::Results;
use crate::results::{ConfigResult, Mode};
use crate::scenario::{Scenario, ScenarioError};
use crate::sim::Tally;

/// Why a run directory cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("{path}: {message}")]
    Bad { path: String, message: String },
}

fn bad(path: &Path, message: impl Into<String>) -> LoadError {
    LoadError::Bad {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// One stored row of the long table.
struct Row {
    field: String,
    value: i64,
    probability: f64,
    count: Option<u64>,
    trials: u64,
}

/// The scenario and results of the run in `dir`.
pub fn load(dir: &Path) -> Result<(Scenario, Results), LoadError> {
    let mut scenario = Scenario::load(&dir.join("scenario.toml"))?;
    let manifest_path = dir.join("manifest.json");
    let manifest: serde_json::Value = std::fs::read(&manifest_path)
        .map_err(|e| {
            bad(
                &manifest_path,
                format!("cannot read: {e}; is this an oddsmith output directory?"),
            )
        })
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| bad(&manifest_path, e.to_string())))?;
    // Reports name the scenario by the file it was run from, not the copy.
    if let Some(original) = manifest["scenario"]["path"].as_str() {
        scenario.path = original.into();
    }
    let parquet = dir.join("results.parquet");
    let file =
        std::fs::File::open(&parquet).map_err(|e| bad(&parquet, format!("cannot read: {e}")))?;
    let df = ParquetReader::new(file)
        .finish()
        .map_err(|e| bad(&parquet, e.to_string()))?;
    let col = |name: &str| df.column(name).map_err(|e| bad(&parquet, e.to_string()));
    let (ids, methods, fields) = (
        col("config_id")?.u64(),
        col("method")?.str(),
        col("field")?.str(),
    );
    let (values, probs, counts, trials) = (
        col("value")?.i64(),
        col("probability")?.f64(),
        col("count")?.u64(),
        col("trials")?.u64(),
    );
    let schema_err = |e: PolarsError| bad(&parquet, format!("unexpected column type: {e}"));
    let (ids, methods, fields) = (
        ids.map_err(schema_err)?,
        methods.map_err(schema_err)?,
        fields.map_err(schema_err)?,
    );
    let (values, probs, counts, trials) = (
        values.map_err(schema_err)?,
        probs.map_err(schema_err)?,
        counts.map_err(schema_err)?,
        trials.map_err(schema_err)?,
    );

    let mut by_run: BTreeMap<(u64, String), Vec<Row>> = BTreeMap::new();
    for i in 0..df.height() {
        let (Some(id), Some(method), Some(field), Some(value), Some(p), Some(n)) = (
            ids.get(i),
            methods.get(i),
            fields.get(i),
            values.get(i),
            probs.get(i),
            trials.get(i),
        ) else {
            return Err(bad(&parquet, format!("row {i} has a missing value")));
        };
        by_run
            .entry((id, method.to_string()))
            .or_default()
            .push(Row {
                field: field.to_string(),
                value,
                probability: p,
                count: counts.get(i),
                trials: n,
            });
    }

    let models = scenario.models()?;
    let mut configs = Vec::with_capacity(models.len());
    for (config, model) in &models {
        let schema = model.schema();
        let index_of = |name: &str| {
            schema
                .fields
                .iter()
                .position(|f| f.name == name)
                .ok_or_else(|| {
                    bad(
                        &parquet,
                        format!(
                            "field `{name}` is not an outcome of {}",
                            scenario.mechanic.name()
                        ),
                    )
                })
        };
        let exact = match by_run.get(&(config.index as u64, "exact".into())) {
            Some(rows) => {
                let mut m = Marginals::new(schema.fields.len());
                for r in rows {
                    m.add(index_of(&r.field)?, r.value, r.probability);
                }
                Some(m)
            }
            None => None,
        };
        let tally = match by_run.get(&(config.index as u64, "monte-carlo".into())) {
            Some(rows) => {
                let n = rows.first().map(|r| r.trials).unwrap_or(0);
                let mut triples = Vec::with_capacity(rows.len());
                for r in rows {
                    let c = r
                        .count
                        .ok_or_else(|| bad(&parquet, "a Monte Carlo row has no count"))?;
                    triples.push((index_of(&r.field)?, r.value, c));
                }
                Some(Tally::from_counts(schema.fields.len(), n, triples))
            }
            None => None,
        };
        if exact.is_none() && tally.is_none() {
            return Err(bad(
                &parquet,
                format!(
                    "config {} has no results; the file does not match scenario.toml",
                    config.index
                ),
            ));
        }
        configs.push(ConfigResult::new(
            config.index,
            config.swept.clone(),
            schema,
            exact.as_ref(),
            tally.as_ref(),
        ));
    }

    let schemas: Vec<&crate::systems::Schema> = models.iter().map(|(_, m)| m.schema()).collect();
    super::complete_support(&mut configs, &schemas);

    let mode: Mode = serde_json::from_value(manifest["mode"].clone())
        .map_err(|e| bad(&manifest_path, format!("mode: {e}")))?;
    let results = Results {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        swept: scenario
            .swept_paths()
            .into_iter()
            .map(String::from)
            .collect(),
        seed: manifest["seed"].as_u64().unwrap_or_default(),
        trials: manifest["trials"].as_u64().unwrap_or_default(),
        mode,
        precision: manifest["precision"].as_f64(),
        configs,
        exact_seconds: manifest["exact_seconds"].as_f64().unwrap_or_default(),
        mc_seconds: manifest["monte_carlo_seconds"].as_f64().unwrap_or_default(),
    };
    Ok((scenario, results))
}
