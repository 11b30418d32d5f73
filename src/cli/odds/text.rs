//! The human face of an [`Answer`]: probabilities as percentages, odds
//! always as "1 in N" (how often the event happens, whatever its size,
//! so two answers side by side read the same way), every assumption
//! listed. Everything printed is read off the answer, so the text cannot
//! say other numbers than `--format json`.

use oddsmith::answer::{Answer, ConfigAnswer, FieldAnswer, MetricAnswer, Parameter};

/// Width of the longest bar in a distribution table.
const BAR: f64 = 30.0;
/// Most rows a distribution table shows; wider ranges are grouped.
const MAX_ROWS: usize = 120;

/// A probability as a percentage: four decimals, or three significant
/// digits below 0.0001%.
pub fn percent(p: f64) -> String {
    let x = p * 100.0;
    if x != 0.0 && x.abs() < 1e-4 {
        format!("{x:.3e}%")
    } else {
        format!("{x:.4}%")
    }
}

/// A plain number: six decimals, or three significant digits when tiny.
pub fn number(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-4 {
        format!("{x:.3e}")
    } else {
        format!("{x:.6}")
    }
}

/// How often an event happens, always in the same words: "1 in N" (N =
/// 1/p), "never"/"always" for an exact 0 or 1, and for an estimate that
/// saw none or only, the trial count.
pub fn once_in(p: f64, trials: u64) -> String {
    if p.is_nan() {
        return String::new();
    }
    if p <= 0.0 {
        return if trials == 0 {
            "never".into()
        } else {
            format!("none in {} trials", grouped(trials as f64))
        };
    }
    // An exact 1 summed from parts may fall a rounding short of it.
    if p >= 1.0 || (trials == 0 && p > 1.0 - 1e-12) {
        return if trials == 0 {
            "always".into()
        } else {
            format!("all of {} trials", grouped(trials as f64))
        };
    }
    let n = 1.0 / p;
    let n = if n < 10.0 {
        format!("{n:.2}")
    } else if n < 100.0 {
        format!("{n:.1}")
    } else if n < 1e12 {
        grouped(n)
    } else {
        format!("{n:.2e}")
    };
    format!("1 in {n}")
}

/// A whole number with thousands separators: 4096 → "4,096".
pub fn grouped(n: f64) -> String {
    let digits = format!("{:.0}", n.round());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A metric's value as printed: a percentage for a probability.
pub fn shown(m: &MetricAnswer, v: f64) -> String {
    if m.probability { percent(v) } else { number(v) }
}

/// The heading lines: mechanic, expression reading, parameters, method.
pub fn heading(a: &Answer, out: &mut String) {
    let c = &a.configs[0];
    if a.mechanic == "dice.roll" {
        let expr = a
            .parameters
            .iter()
            .find(|p| p.key == "expr")
            .map(|p| p.value.as_str())
            .unwrap_or_default();
        out.push_str(&format!("{expr}\n"));
        let vars: Vec<String> = a
            .parameters
            .iter()
            .filter(|p| p.key.starts_with("vars."))
            .map(|p| format!("{} = {}", &p.key[5..], p.value))
            .collect();
        if !vars.is_empty() {
            out.push_str(&format!("with {}\n", vars.join(", ")));
        }
        if a.swept.is_empty()
            && let Some(r) = &c.reading
        {
            out.push_str(&format!("read as: {r}\n"));
        }
    } else {
        out.push_str(&format!("{}: {}\n", a.mechanic, a.summary));
        parameters(&a.parameters, out);
    }
    method(a, out);
}

/// Every parameter, one a line, defaults marked.
pub fn parameters(ps: &[Parameter], out: &mut String) {
    out.push_str("parameters (every one; \"default\" marks those not given):\n");
    let width = ps.iter().map(|p| p.key.chars().count()).max().unwrap_or(0);
    for p in ps {
        let mark = if p.is_default() { "  (default)" } else { "" };
        out.push_str(&format!("  {:<width$} = {}{mark}\n", p.key, p.value));
    }
}

/// How the numbers were found, and why not exactly when they were not.
pub fn method(a: &Answer, out: &mut String) {
    let inexact: Vec<&ConfigAnswer> = a.configs.iter().filter(|c| c.inexact.is_some()).collect();
    let checked = a
        .configs
        .iter()
        .flat_map(|c| c.metrics.first().and_then(|m| m.check.as_ref()))
        .next();
    if inexact.is_empty() {
        match checked {
            None => out.push_str("method: exact\n"),
            Some(k) => out.push_str(&format!(
                "method: exact, checked against {} Monte Carlo trials (seed {})\n",
                grouped(k.trials as f64),
                a.seed
            )),
        }
        return;
    }
    let c = inexact[0];
    let scope = if a.configs.len() == 1 {
        String::new()
    } else if inexact.len() == a.configs.len() {
        " per config".into()
    } else {
        format!(" for {} of {} configs", inexact.len(), a.configs.len())
    };
    let trials = a
        .configs
        .iter()
        .find(|c| c.method == "monte-carlo")
        .map(|c| c.trials)
        .unwrap_or_default();
    out.push_str(&format!(
        "method: Monte Carlo, {} trials{scope} (seed {}); no exact answer: {}\n        (--trials N trades time for precision)\n",
        grouped(trials as f64),
        a.seed,
        c.inexact.as_deref().unwrap_or_default()
    ));
}

/// One config's metrics and distributions.
pub fn single(c: &ConfigAnswer, out: &mut String) {
    let mc = c.method == "monte-carlo";
    let checked = c.metrics.iter().any(|m| m.check.is_some());
    let name_w = c
        .metrics
        .iter()
        .map(|m| m.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    out.push('\n');
    out.push_str(&format!(
        "{:<name_w$} {:>12} {:>16}",
        "metric", "value", "odds"
    ));
    if mc {
        out.push_str(&format!("  {:>27}", "95% interval"));
    }
    if checked {
        out.push_str(&format!(
            "  {:>32} {:>7}",
            "monte carlo [95% interval]", "z"
        ));
    }
    out.push('\n');
    for m in &c.metrics {
        out.push_str(&format!(
            "{:<name_w$} {:>12} {:>16}",
            m.name,
            shown(m, m.value),
            if m.probability {
                once_in(m.value, c.trials)
            } else {
                String::new()
            }
        ));
        if mc && let Some((lo, hi)) = m.interval {
            out.push_str(&format!(
                "  {:>27}",
                format!("[{}, {}]", shown(m, lo), shown(m, hi))
            ));
        }
        if let Some(k) = &m.check {
            out.push_str(&format!(
                "  {:>32} {:>7.2}",
                format!(
                    "{} [{}, {}]",
                    shown(m, k.estimate),
                    shown(m, k.interval.0),
                    shown(m, k.interval.1)
                ),
                k.z
            ));
        }
        out.push('\n');
    }
    for f in &c.fields {
        out.push('\n');
        table(f, c.trials, out);
    }
}

/// One field's distribution: value, P(=), P(≥), P(≤), how often, a bar.
/// A field with more than [`MAX_ROWS`] values is shown in equal ranges of
/// values (`2970..2999`), each row's "=" the probability of its range.
pub fn table(f: &FieldAnswer, trials: u64, out: &mut String) {
    out.push_str(&format!("{}: {}\n", f.name, f.doc));
    // (label, =, ≥, ≤)
    let rows: Vec<(String, f64, f64, f64)> = if f.rows.len() > MAX_ROWS {
        let (lo, hi) = (f.rows[0].value, f.rows[f.rows.len() - 1].value);
        let width = ((hi - lo) as usize / MAX_ROWS + 1) as i64;
        let mut grouped: Vec<(i64, f64, f64, f64)> = Vec::new();
        for r in &f.rows {
            let start = lo + (r.value - lo) / width * width;
            match grouped.last_mut() {
                Some(last) if last.0 == start => {
                    last.1 += r.p;
                    last.3 = r.p_at_most;
                }
                _ => grouped.push((start, r.p, r.p_at_least, r.p_at_most)),
            }
        }
        out.push_str(&format!("(in ranges of {width} values)\n"));
        grouped
            .into_iter()
            .map(|(s, p, ge, le)| (format!("{s}..{}", s + width - 1), p, ge, le))
            .collect()
    } else {
        f.rows
            .iter()
            .map(|r| (r.label.clone(), r.p, r.p_at_least, r.p_at_most))
            .collect()
    };
    let width = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(1)
        .max(5);
    // Only an ordered field's values have tails worth a column.
    let tails = |ge: &str, le: &str| {
        if f.ordered {
            format!(" {ge:>12} {le:>12}")
        } else {
            String::new()
        }
    };
    out.push_str(&format!(
        "{:>width$} {:>12}{} {:>16}\n",
        "value",
        "=",
        tails("≥", "≤"),
        "= odds"
    ));
    let top = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    for (label, p, ge, le) in &rows {
        let bar = if top > 0.0 {
            "█".repeat((p / top * BAR).round() as usize)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{label:>width$} {:>12}{} {:>16}  {bar}\n",
            percent(*p),
            tails(&percent(*ge), &percent(*le)),
            once_in(*p, trials)
        ));
    }
}

/// A sweep of one key: one row per value; of two: a grid per metric.
pub fn sweep(a: &Answer, out: &mut String) {
    let first = &a.configs[0];
    // The schema's metrics; complements are one minus them.
    let metrics: Vec<&MetricAnswer> = first
        .metrics
        .iter()
        .filter(|m| m.complement_of.is_none())
        .collect();
    if a.swept.len() == 1 {
        let key = &a.swept[0];
        let kw = a
            .configs
            .iter()
            .map(|c| c.swept[0].chars().count())
            .max()
            .unwrap_or(1)
            .max(key.chars().count());
        out.push('\n');
        out.push_str(&format!("{:>3}  {:>kw$}", "#", key));
        let widths: Vec<usize> = metrics.iter().map(|m| m.name.len().max(11)).collect();
        for (m, w) in metrics.iter().zip(&widths) {
            out.push_str(&format!("  {:>w$}", m.name));
        }
        out.push('\n');
        for c in &a.configs {
            out.push_str(&format!("{:>3}  {:>kw$}", c.index, c.swept[0]));
            for (m, w) in metrics.iter().zip(&widths) {
                let v = c
                    .metric(&m.name)
                    .map(|x| shown(x, x.value))
                    .unwrap_or_default();
                out.push_str(&format!("  {v:>w$}"));
            }
            out.push('\n');
        }
    } else {
        let (rows_key, cols_key) = (&a.swept[0], &a.swept[1]);
        let cols: Vec<&String> = {
            let mut v: Vec<&String> = Vec::new();
            for c in &a.configs {
                if !v.contains(&&c.swept[1]) {
                    v.push(&c.swept[1]);
                }
            }
            v
        };
        let rw = a
            .configs
            .iter()
            .map(|c| c.swept[0].chars().count())
            .max()
            .unwrap_or(1)
            .max(rows_key.chars().count());
        for m in &metrics {
            out.push('\n');
            out.push_str(&format!(
                "{}: rows {rows_key}, columns {cols_key}\n",
                m.name
            ));
            let cw = cols
                .iter()
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(1)
                .max(10);
            out.push_str(&format!("{:>rw$}", ""));
            for c in &cols {
                out.push_str(&format!("  {c:>cw$}"));
            }
            out.push('\n');
            for row in a.configs.chunks(cols.len()) {
                out.push_str(&format!("{:>rw$}", row[0].swept[0]));
                for c in row {
                    let v = c
                        .metric(&m.name)
                        .map(|x| shown(x, x.value))
                        .unwrap_or_default();
                    out.push_str(&format!("  {v:>cw$}"));
                }
                out.push('\n');
            }
        }
        out.push_str(&format!(
            "\nconfig numbers (as `run` numbers a [sweep] of {rows_key} then {cols_key}): row × {} + column, from 0\n",
            cols.len()
        ));
    }
}

/// Several expressions: one row each, with their headline metrics, and
/// which is likelier when they are comparisons.
pub fn list(answers: &[(String, Answer)], out: &mut String) {
    let ew = answers
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(10)
        .max(10);
    let mut names: Vec<String> = Vec::new();
    for (_, a) in answers {
        for m in &a.configs[0].metrics {
            if m.complement_of.is_none() && !names.contains(&m.name) {
                names.push(m.name.clone());
            }
        }
    }
    out.push_str(&format!("{:<ew$}", "expression"));
    for n in &names {
        out.push_str(&format!("  {n:>11}"));
    }
    out.push_str("  method\n");
    for (label, a) in answers {
        let c = &a.configs[0];
        out.push_str(&format!("{label:<ew$}"));
        for n in &names {
            let v = c.metric(n).map(|m| shown(m, m.value)).unwrap_or_default();
            out.push_str(&format!("  {v:>11}"));
        }
        out.push_str(&format!("  {}\n", c.method));
    }
    for (label, a) in answers {
        if let Some(r) = &a.configs[0].reading {
            out.push_str(&format!("\n{label}\n  read as: {r}"));
        }
    }
    out.push('\n');
    let headline = |a: &Answer| a.configs[0].metrics.first().cloned();
    let all_p_true = answers
        .iter()
        .all(|(_, a)| headline(a).is_some_and(|m| m.name == "p_true"));
    if all_p_true && answers.len() >= 2 {
        let mut by: Vec<(&String, f64)> = answers
            .iter()
            .map(|(l, a)| (l, headline(a).map(|m| m.value).unwrap_or(f64::NAN)))
            .collect();
        by.sort_by(|x, y| y.1.total_cmp(&x.1));
        let gap = (by[0].1 - by[1].1) * 100.0;
        if gap == 0.0 {
            out.push_str(&format!(
                "\n{} and {} are equally likely\n",
                by[0].0, by[1].0
            ));
        } else {
            out.push_str(&format!(
                "\nmost likely: {} ({}), {:.4} percentage points above {}\n",
                by[0].0,
                percent(by[0].1),
                gap,
                by[1].0
            ));
        }
    }
}

/// Two answers side by side: each metric, the difference (percentage
/// points for probabilities) and the ratio; then the main field's
/// =/≥/≤ table of both.
pub fn compare(a: &Answer, b: &Answer, changes: &[String], out: &mut String) {
    let (ca, cb) = (&a.configs[0], &b.configs[0]);
    out.push_str(&format!("B: as A, with {}\n", changes.join(", ")));
    let name_w = ca
        .metrics
        .iter()
        .map(|m| m.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    out.push_str(&format!(
        "\n{:<name_w$} {:>12} {:>12} {:>14} {:>8}\n",
        "metric", "A", "B", "B − A", "B / A"
    ));
    for m in &ca.metrics {
        let Some(n) = cb.metric(&m.name) else {
            continue;
        };
        let diff = n.value - m.value;
        let diff = if m.probability {
            format!("{:+.4} pp", diff * 100.0)
        } else {
            format!("{diff:+.6}")
        };
        let ratio = if m.value != 0.0 {
            format!("{:.3}×", n.value / m.value)
        } else {
            "—".into()
        };
        out.push_str(&format!(
            "{:<name_w$} {:>12} {:>12} {:>14} {:>8}\n",
            m.name,
            shown(m, m.value),
            shown(n, n.value),
            diff,
            ratio
        ));
    }
    let (Some(fa), Some(fb)) = (ca.fields.first(), cb.fields.first()) else {
        return;
    };
    out.push_str(&format!("\n{}: {}\n", fa.name, fa.doc));
    let mut values: Vec<(i64, String)> = fa
        .rows
        .iter()
        .chain(&fb.rows)
        .map(|r| (r.value, r.label.clone()))
        .collect();
    values.sort_by_key(|v| v.0);
    values.dedup_by_key(|v| v.0);
    if values.len() > MAX_ROWS {
        out.push_str(&format!(
            "({} values: too many to set side by side; see each with `odds` alone or --format json)\n",
            values.len()
        ));
        return;
    }
    let width = values
        .iter()
        .map(|v| v.1.chars().count())
        .max()
        .unwrap_or(1)
        .max(5);
    let ordered = fa.ordered && fb.ordered;
    if ordered {
        out.push_str(&format!(
            "{:>width$} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n",
            "value", "= A", "= B", "≥ A", "≥ B", "≤ A", "≤ B"
        ));
    } else {
        out.push_str(&format!(
            "{:>width$} {:>11} {:>11}\n",
            "value", "= A", "= B"
        ));
    }
    let at = |f: &FieldAnswer, v: i64| -> (f64, f64, f64) {
        match f.rows.iter().position(|r| r.value == v) {
            Some(i) => (f.rows[i].p, f.rows[i].p_at_least, f.rows[i].p_at_most),
            None => {
                // No row: P(=) is 0, and the tails are those of the
                // nearest value on each side.
                let ge = f
                    .rows
                    .iter()
                    .find(|r| r.value > v)
                    .map(|r| r.p_at_least)
                    .unwrap_or(0.0);
                let le = f
                    .rows
                    .iter()
                    .rev()
                    .find(|r| r.value < v)
                    .map(|r| r.p_at_most)
                    .unwrap_or(0.0);
                (0.0, ge, le)
            }
        }
    };
    for (v, label) in &values {
        let (pa, ga, la) = at(fa, *v);
        let (pb, gb, lb) = at(fb, *v);
        if !ordered {
            out.push_str(&format!(
                "{label:>width$} {:>11} {:>11}\n",
                percent(pa),
                percent(pb)
            ));
            continue;
        }
        out.push_str(&format!(
            "{label:>width$} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n",
            percent(pa),
            percent(pb),
            percent(ga),
            percent(gb),
            percent(la),
            percent(lb)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_and_odds_read_one_way() {
        assert_eq!(percent(0.5), "50.0000%");
        assert_eq!(percent(1.0 / 32768.0), "0.0031%");
        assert_eq!(percent(1e-9), "1.000e-7%");
        assert_eq!(percent(0.0), "0.0000%");
        assert_eq!(once_in(0.25, 0), "1 in 4.00");
        // Near-certain events keep the same wording.
        assert_eq!(once_in(0.837384, 0), "1 in 1.19");
        assert_eq!(once_in(1.0 / 4096.0, 0), "1 in 4,096");
        assert_eq!(once_in(0.0, 0), "never");
        assert_eq!(once_in(0.0, 1000), "none in 1,000 trials");
        assert_eq!(once_in(1.0, 0), "always");
    }
}
