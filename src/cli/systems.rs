//! `oddsmith systems`: every mechanic, its parameters, fields and metrics.

use oddsmith::systems::{self, FieldKind};

use super::Outcome;

pub fn systems() -> anyhow::Result<Outcome> {
    for m in systems::registry() {
        println!(
            "{}  ({})",
            m.name(),
            if m.has_exact() {
                "exact + monte carlo"
            } else {
                "monte carlo"
            }
        );
        println!("  {}", m.summary());
        println!("  parameters:");
        for p in m.params() {
            println!("    {:<34} {}", p.path, p.kind.allowed());
            println!("    {:<34} default {}. {}", "", p.default, p.doc);
        }
        let schema = m.schema();
        println!("  outcome fields:");
        for f in &schema.fields {
            let kind = match &f.kind {
                FieldKind::Bool => "bool".to_string(),
                FieldKind::Int => "integer".to_string(),
                FieldKind::Category(labels) => labels.join(" | "),
            };
            println!("    {:<20} {:<10} {}", f.name, kind, f.doc);
        }
        println!("  headline metrics:");
        for metric in &schema.metrics {
            println!("    {:<20} {}", metric.name, metric.doc);
        }
        println!();
    }
    Ok(Outcome::Fine)
}
