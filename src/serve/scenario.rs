//! `POST /api/scenario`: the scenario file that reproduces the page's
//! question with `oddsmith run` (same mechanic, values, sweep, trials and
//! seed, so the same numbers), with an `[[expect]]` stub to fill in.

use oddsmith::answer::Question;
use oddsmith::run::Mode;
use oddsmith::systems::ParamValue;

/// A TOML key: bare when it can be, else quoted (dotted paths are quoted,
/// as the shipped scenarios write them).
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        quoted(k)
    }
}

/// A TOML basic string (JSON's escapes are TOML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A value as TOML writes it.
pub fn value(v: &ParamValue) -> String {
    match v {
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Float(f) if f.is_finite() => {
            let s = f.to_string();
            if s.contains(['.', 'e', 'E']) {
                s
            } else {
                format!("{s}.0")
            }
        }
        ParamValue::Float(f) => (if f.is_nan() {
            "nan"
        } else if *f > 0.0 {
            "inf"
        } else {
            "-inf"
        })
        .into(),
        ParamValue::Bool(b) => b.to_string(),
        ParamValue::Str(s) => quoted(s),
        ParamValue::List(items) => format!(
            "[{}]",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        ParamValue::Table(entries) => format!(
            "{{ {} }}",
            entries
                .iter()
                .map(|(k, x)| format!("{} = {}", key(k), value(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The scenario for `q`; the stub asserts on `metric`, around the value
/// the page showed (and whether it is a probability) when there is one.
pub fn toml(q: &Question, metric: &str, shown: Option<(f64, bool)>) -> String {
    let name = q.mechanic.name();
    let mut out = String::new();
    out.push_str(&format!(
        "# Saved from the oddsmith workbench. Run it with\n#   oddsmith run THIS.toml --out results\n# and check its [[expect]] with `oddsmith check THIS.toml`.{}\n",
        match q.mode {
            Mode::Auto => String::new(),
            m => format!("\n# The page asked with mode {}: add --mode {}.", m.word(), m.word()),
        }
    ));
    out.push_str(&format!(
        "name = {}\n",
        quoted(&format!("{name} from the workbench"))
    ));
    out.push_str(&format!("mechanic = {}\n", quoted(name)));
    out.push_str(&format!("seed = {}\ntrials = {}\n", q.seed, q.trials));
    out.push_str("\n[params]\n");
    for (k, v) in q.params.iter() {
        out.push_str(&format!("{} = {}\n", key(k), value(v)));
    }
    if !q.sweep.is_empty() {
        out.push_str("\n[sweep]\n");
        for (k, vs) in &q.sweep {
            out.push_str(&format!(
                "{} = [{}]\n",
                key(k),
                vs.iter().map(value).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    out.push_str(
        "\n[[expect]]\nwhy = \"Say what the design needs here, then tighten the bounds\"\n",
    );
    match shown {
        Some((v, probability)) => {
            let (lo, hi) = if probability {
                ((v - 0.05).max(0.0), (v + 0.05).min(1.0))
            } else {
                (v - v.abs() * 0.1 - 0.5, v + v.abs() * 0.1 + 0.5)
            };
            out.push_str(&format!(
                "metric = {}\n# The workbench showed {v:.6}.\nbetween = [{}, {}]\n",
                quoted(metric),
                round(lo),
                round(hi)
            ));
        }
        None => out.push_str(&format!(
            "metric = {}\n# Add where = {{ … }} to pick a config, and the bounds.\nat_least = 0.0\n",
            quoted(metric)
        )),
    }
    out
}

/// Four decimals, always with a point (a TOML float).
fn round(x: f64) -> String {
    format!("{:.4}", x)
}
