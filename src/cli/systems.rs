//! `oddsmith systems [SYSTEM|MECHANIC]`: mechanics, their parameters,
//! fields and metrics.

use crate::cli::stdout::outln;
use anyhow::bail;
use oddsmith::systems::{self, FieldKind, Mechanic};

use super::Outcome;

/// The system of a mechanic: `cortex` of `cortex.basic`.
fn system(m: &dyn Mechanic) -> &str {
    m.name().split('.').next().unwrap_or_default()
}

/// The mechanics `filter` names: one mechanic by its full name, every
/// mechanic of a system by the system's name, all when there is no filter.
fn chosen(filter: Option<&str>) -> anyhow::Result<Vec<&'static dyn Mechanic>> {
    let all = systems::registry();
    let Some(f) = filter.map(|f| f.trim().to_ascii_lowercase()) else {
        return Ok(all.to_vec());
    };
    let picked: Vec<&'static dyn Mechanic> = all
        .iter()
        .copied()
        .filter(|m| m.name() == f || system(*m) == f)
        .collect();
    if picked.is_empty() {
        let mut names: Vec<&str> = all.iter().map(|m| system(*m)).collect();
        names.dedup();
        bail!(
            "`{f}` is neither a system nor a mechanic; allowed: {}, or a mechanic: {}",
            names.join(", "),
            all.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(picked)
}

pub fn systems(filter: Option<&str>) -> anyhow::Result<Outcome> {
    let chosen = chosen(filter)?;
    if filter.is_none() {
        // An index first: the full listing runs to hundreds of lines.
        outln!("mechanics (`oddsmith systems SYSTEM` or `oddsmith systems MECHANIC` shows fewer):");
        for m in &chosen {
            outln!("  {:<24} {}", m.name(), m.summary());
        }
        outln!();
    }
    for m in chosen {
        outln!(
            "{}  ({})",
            m.name(),
            if m.has_exact() {
                "exact + monte carlo"
            } else {
                "monte carlo"
            }
        );
        outln!("  {}", m.summary());
        outln!("  parameters:");
        for p in m.params() {
            outln!("    {:<34} {}", p.path, p.kind.allowed());
            outln!("    {:<34} default {}. {}", "", p.default, p.doc);
        }
        let schema = m.schema();
        outln!("  outcome fields:");
        for f in &schema.fields {
            let kind = match &f.kind {
                FieldKind::Bool => "bool".to_string(),
                FieldKind::Int => "integer".to_string(),
                FieldKind::Category(labels) => labels.join(" | "),
            };
            outln!("    {:<20} {:<10} {}", f.name, kind, f.doc);
        }
        outln!("  headline metrics:");
        for metric in &schema.metrics {
            outln!("    {:<20} {}", metric.name, metric.doc);
        }
        // Complements are not columns of the shipped tables, but every
        // metric-taking place (odds, [[expect]], [[chart]]) knows them.
        for c in schema.complements() {
            outln!("    {:<20} 1 − {} (derived).", c.name, c.of);
        }
        outln!();
    }
    Ok(Outcome::Fine)
}
