//! From the command line to [`Question`]s: `key=value` words (a value may
//! be a range `A..B`, `A..B:S` or a list `a,b,c`, which sweeps the key),
//! a mechanic's name or one or more dice expressions, and `--compare`.

use anyhow::{Context, anyhow, bail};
use oddsmith::answer::Question;
use oddsmith::expr::Expr;
use oddsmith::systems::{self, Mechanic, ParamMap, ParamSpec, ParamValue, suggest_param};

use super::super::OddsArgs;

/// The most parameters one `odds` may sweep (a table or a grid).
const MAX_SWEPT: usize = 2;

/// Swept keys with their values, in the order given.
type Sweep = Vec<(String, Vec<ParamValue>)>;

/// One question with the name it is shown under.
pub struct Asked {
    /// `A`/`B` in a comparison, the expression in a list, else empty.
    pub label: String,
    pub question: Question,
}

/// `key=value`, when `text` is one (`key` a dotted name).
pub fn assignment(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once('=')?;
    let name_like = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    name_like.then_some((key, value))
}

/// A command-line value: an integer, a float, `true`/`false`, a TOML
/// array or inline table, else text (surrounding quotes removed).
pub fn value(text: &str) -> anyhow::Result<ParamValue> {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Ok(ParamValue::Int(i));
    }
    if let Ok(b) = t.parse::<bool>() {
        return Ok(ParamValue::Bool(b));
    }
    if t.starts_with('[') || t.starts_with('{') {
        let doc = toml_edit::Document::parse(format!("v = {t}"))
            .map_err(|e| anyhow!("{t} is not a TOML value: {}", e.message().trim()))?;
        let v = doc
            .as_table()
            .get("v")
            .and_then(|i| i.as_value())
            .context("not a value")?;
        return from_toml(v);
    }
    if let Ok(f) = t.parse::<f64>() {
        return Ok(ParamValue::Float(f));
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|s| s.strip_suffix(*q)))
        .unwrap_or(t);
    Ok(ParamValue::Str(unquoted.to_string()))
}

fn from_toml(v: &toml_edit::Value) -> anyhow::Result<ParamValue> {
    use toml_edit::Value;
    Ok(match v {
        Value::String(s) => ParamValue::Str(s.value().clone()),
        Value::Integer(i) => ParamValue::Int(*i.value()),
        Value::Float(f) => ParamValue::Float(*f.value()),
        Value::Boolean(b) => ParamValue::Bool(*b.value()),
        Value::Datetime(_) => bail!("no parameter takes dates"),
        Value::Array(a) => ParamValue::List(a.iter().map(from_toml).collect::<Result<_, _>>()?),
        Value::InlineTable(t) => ParamValue::Table(
            t.iter()
                .map(|(k, x)| Ok((k.to_string(), from_toml(x)?)))
                .collect::<anyhow::Result<_>>()?,
        ),
    })
}

/// The values a command-line value stands for: one, or several for a
/// range (`3..6`, inclusive, as `--raises` reads it; `0..12:3` steps by
/// 3) or a list (`a,b,c`; not inside a TOML array or table).
pub fn values(key: &str, text: &str) -> anyhow::Result<Vec<ParamValue>> {
    let t = text.trim();
    if let Some((lo, rest)) = t.split_once("..") {
        let (hi, step) = match rest.split_once(':') {
            Some((hi, step)) => (hi, Some(step)),
            None => (rest, None),
        };
        if let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>()) {
            let step = match step {
                None => 1,
                Some(s) => s
                    .trim()
                    .parse::<i64>()
                    .ok()
                    .filter(|s| *s > 0)
                    .ok_or_else(|| {
                        anyhow!("{key}={text}: the step after `:` is a whole number ≥ 1")
                    })?,
            };
            if lo > hi {
                bail!("{key}={text}: the range is empty; write it low..high (e.g. {hi}..{lo})");
            }
            let n = (hi - lo) / step + 1;
            if n > 1000 {
                bail!("{key}={text}: {n} values; at most 1000 (use a step, A..B:S)");
            }
            return Ok((0..n).map(|i| ParamValue::Int(lo + i * step)).collect());
        }
    }
    let structured = t.starts_with('[') || t.starts_with('{');
    if !structured && t.contains(',') {
        return t
            .split(',')
            .map(|part| {
                if part.trim().is_empty() {
                    bail!("{key}={text}: an empty item in the list")
                }
                value(part)
            })
            .collect();
    }
    Ok(vec![value(t)?])
}

/// Fixed and swept values from `key=value` words, each key once.
pub fn settings(
    words: &[(String, String)],
    known: &dyn Fn(&str) -> anyhow::Result<()>,
) -> anyhow::Result<(ParamMap, Sweep)> {
    let mut fixed = ParamMap::new();
    let mut sweep: Sweep = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (key, text) in words {
        if seen.contains(&key.as_str()) {
            bail!(
                "{key} is given twice; give each key once (a scenario refuses it too). For several values write {key}=a,b,c or {key}=A..B"
            );
        }
        seen.push(key);
        known(key)?;
        let mut vs = values(key, text)?;
        if vs.len() == 1 {
            fixed.set(key.clone(), vs.remove(0));
        } else {
            sweep.push((key.clone(), vs));
        }
    }
    if sweep.len() > MAX_SWEPT {
        bail!(
            "{} parameters take several values ({}); `odds` sweeps at most {MAX_SWEPT} (a table or a grid): write a scenario with [sweep] for more",
            sweep.len(),
            sweep
                .iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok((fixed, sweep))
}

/// Refuse a key `m` does not have, with "did you mean".
fn known_key(m: &'static dyn Mechanic) -> impl Fn(&str) -> anyhow::Result<()> {
    move |key: &str| {
        let specs: &[ParamSpec] = m.params();
        let ok = specs.iter().any(|s| {
            s.path == key
                || s.path
                    .strip_suffix('*')
                    .is_some_and(|prefix| key.starts_with(prefix))
        });
        if ok {
            return Ok(());
        }
        bail!(
            "{key} is not a parameter of {}{}\n  {} takes: {}",
            m.name(),
            suggest_param(key, specs),
            m.name(),
            oddsmith::model::paths(specs)
        )
    }
}

/// Fixed values from `key=value` words (no ranges or lists), for a
/// command that answers one config (`oddsmith best`).
pub fn fixed(
    m: &'static dyn Mechanic,
    params: &[String],
    command: &str,
) -> anyhow::Result<ParamMap> {
    let (fixed, sweep) = settings(&pairs(m, params)?, &known_key(m))?;
    if let Some((key, _)) = sweep.first() {
        bail!(
            "{key}: `oddsmith {command}` answers one config; give one value per key (a scenario's [{command}] table sweeps)"
        );
    }
    Ok(fixed)
}

/// The `key=value` words of `params`, or an error naming a word that is
/// not one.
fn pairs(m: &'static dyn Mechanic, params: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    params
        .iter()
        .map(|p| {
            let (k, v) = assignment(p).with_context(|| {
                format!(
                    "{p:?} is not key=value; {} takes: {}",
                    m.name(),
                    oddsmith::model::paths(m.params())
                )
            })?;
            Ok((k.to_string(), v.to_string()))
        })
        .collect()
}

/// The questions a mechanic's command line asks: one, or two with
/// `--compare` (B is A with the compare's values on top).
pub fn mechanic(m: &'static dyn Mechanic, args: &OddsArgs) -> anyhow::Result<Vec<Asked>> {
    let known = known_key(m);
    let words = pairs(m, &args.params)?;
    let (fixed, sweep) = settings(&words, &known)?;
    let base = Question {
        mechanic: m,
        params: fixed,
        sweep,
        trials: args.trials,
        seed: args.seed,
        mode: args.mode(),
    };
    let Some(compare) = &args.compare else {
        return Ok(vec![Asked {
            label: String::new(),
            question: base,
        }]);
    };
    if !base.sweep.is_empty() {
        bail!("--compare compares two single configs; give one value per key (no ranges or lists)");
    }
    let changes = pairs(m, compare)?;
    let (more, swept) = settings(&changes, &known)?;
    if !swept.is_empty() {
        bail!("--compare takes one value per key (no ranges or lists)");
    }
    let mut b = base.clone();
    for (k, v) in more.iter() {
        b.params.set(k, v.clone());
    }
    Ok(vec![
        Asked {
            label: "A".into(),
            question: base,
        },
        Asked {
            label: "B".into(),
            question: b,
        },
    ])
}

/// An expression checked for the command line: its caret picture on a
/// parse error, a hint for a parameter without a value.
pub fn parse_expression(text: &str) -> anyhow::Result<Expr> {
    Expr::parse(text).map_err(|e| anyhow!("not a dice expression:\n{}", indented(&e.picture())))
}

/// The questions of one or more dice expressions: the words that are not
/// `name=value` form one expression (`odds 3d6 + 2` works unquoted), or,
/// when together they do not parse but each does alone, one each
/// (`odds "3d6 >= 14" "2d8+1 >= 14"`); `--compare EXPR` adds one more.
pub fn expressions(args: &OddsArgs) -> anyhow::Result<Vec<Asked>> {
    let mut words = vec![args.what.clone()];
    let mut vars: Vec<(String, String)> = Vec::new();
    for p in &args.params {
        match assignment(p) {
            Some((k, v)) => vars.push((
                format!("vars.{}", k.strip_prefix("vars.").unwrap_or(k)),
                v.to_string(),
            )),
            None => words.push(p.clone()),
        }
    }
    let joined = words.join(" ");
    let mut texts = match Expr::parse(&joined) {
        Ok(_) => vec![joined],
        Err(_) if words.len() > 1 && words.iter().all(|w| Expr::parse(w).is_ok()) => words,
        Err(e) => bail!("not a dice expression:\n{}", indented(&e.picture())),
    };
    if let Some(more) = &args.compare {
        if texts.len() > 1 {
            bail!(
                "--compare compares two questions; give one expression and --compare EXPR, or list the expressions without --compare"
            );
        }
        let more = more.join(" ");
        if assignment(&more).is_some() {
            bail!(
                "--compare after an expression takes another expression (e.g. --compare \"2d8+1 >= 14\"); key=value belongs to a mechanic's --compare"
            );
        }
        parse_expression(&more)?;
        texts.push(more);
    }
    let mut out = Vec::new();
    let several = texts.len() > 1;
    for (i, text) in texts.iter().enumerate() {
        let expr = parse_expression(text)?;
        let params = expr.params();
        let known = |key: &str| -> anyhow::Result<()> {
            let name = key.strip_prefix("vars.").unwrap_or(key);
            if params.iter().any(|p| p == name) || several {
                return Ok(());
            }
            bail!(
                "{name}={}: the expression has no {{{name}}}{}",
                vars.iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.as_str())
                    .unwrap_or_default(),
                if params.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; its parameters: {}",
                        params
                            .iter()
                            .map(|p| format!("{{{p}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            )
        };
        // With several expressions a value may fill any of them; one that
        // fills none is still a mistake.
        if several {
            for (k, v) in &vars {
                let name = k.strip_prefix("vars.").unwrap_or(k);
                let used = texts
                    .iter()
                    .any(|t| Expr::parse(t).is_ok_and(|e| e.params().iter().any(|p| p == name)));
                if !used {
                    bail!("{name}={v}: no expression has {{{name}}}");
                }
            }
        }
        let mine: Vec<(String, String)> = vars
            .iter()
            .filter(|(k, _)| {
                let name = k.strip_prefix("vars.").unwrap_or(k);
                !several || params.iter().any(|p| p == name)
            })
            .cloned()
            .collect();
        let (mut fixed, sweep) = settings(&mine, &known)?;
        if several && !sweep.is_empty() {
            bail!(
                "ranges and lists take one expression; with several, give each parameter one value"
            );
        }
        for (k, v) in fixed.clone().iter() {
            if !matches!(v, ParamValue::Int(_)) {
                bail!(
                    "{}={v}: a parameter's value is an integer",
                    k.strip_prefix("vars.").unwrap_or(k)
                );
            }
        }
        fixed.set("expr", ParamValue::Str(text.clone()));
        // Every parameter needs a value: say which, with the caret.
        let mut bound = std::collections::BTreeMap::new();
        for (k, v) in fixed.iter() {
            if let (Some(name), ParamValue::Int(n)) = (k.strip_prefix("vars."), v) {
                bound.insert(name.to_string(), *n);
            }
        }
        for (k, vs) in &sweep {
            if let Some(ParamValue::Int(n)) = vs.first() {
                bound.insert(k.strip_prefix("vars.").unwrap_or(k).to_string(), *n);
            }
        }
        expr.bind(&bound).map_err(|e| {
            let hint = if e.message.ends_with("has no value") {
                "\ngive it a value on the command line, e.g. n=4"
            } else {
                ""
            };
            anyhow!("cannot roll this:\n{}{hint}", indented(&e.picture()))
        })?;
        out.push(Asked {
            label: if args.compare.is_some() {
                ["A", "B"][i].to_string()
            } else if several {
                text.clone()
            } else {
                String::new()
            },
            question: Question {
                mechanic: systems::find("dice.roll").expect("dice.roll is registered"),
                params: fixed,
                sweep,
                trials: args.trials,
                seed: args.seed,
                mode: args.mode(),
            },
        });
    }
    Ok(out)
}

/// An expression's picture with its caret, indented so the error printer
/// keeps it under the line it belongs to (and the caret in its column).
fn indented(picture: &str) -> String {
    picture
        .lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_values() {
        assert_eq!(value("3").unwrap(), ParamValue::Int(3));
        assert_eq!(value("-2").unwrap(), ParamValue::Int(-2));
        assert_eq!(value("true").unwrap(), ParamValue::Bool(true));
        assert_eq!(
            value("d8 d6 d6").unwrap(),
            ParamValue::Str("d8 d6 d6".into())
        );
        assert_eq!(value("\"full\"").unwrap(), ParamValue::Str("full".into()));
        assert_eq!(
            value("[4, 3]").unwrap(),
            ParamValue::List(vec![ParamValue::Int(4), ParamValue::Int(3)])
        );
        assert!(value("[4,").is_err());
        assert_eq!(
            assignment("actor.pool=d8 d6"),
            Some(("actor.pool", "d8 d6"))
        );
        assert_eq!(assignment("n=4"), Some(("n", "4")));
        assert_eq!(assignment(">=10"), None);
        assert_eq!(assignment("3d6=10"), None);
    }

    #[test]
    fn ranges_and_lists() {
        let ints = |v: Vec<ParamValue>| -> Vec<i64> {
            v.into_iter()
                .map(|x| match x {
                    ParamValue::Int(i) => i,
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(ints(values("k", "3..6").unwrap()), [3, 4, 5, 6]);
        assert_eq!(ints(values("k", "0..10:5").unwrap()), [0, 5, 10]);
        assert_eq!(ints(values("k", "-2..-1").unwrap()), [-2, -1]);
        assert_eq!(ints(values("k", "4").unwrap()), [4]);
        assert_eq!(
            values("k", "greedy,always").unwrap(),
            [
                ParamValue::Str("greedy".into()),
                ParamValue::Str("always".into())
            ]
        );
        // A TOML array is one value, commas and all.
        assert_eq!(values("k", "[4, 3]").unwrap().len(), 1);
        // A die code with a range inside is one value.
        assert_eq!(values("k", "d{-1..1}").unwrap().len(), 1);
        assert!(values("k", "6..3").is_err());
        assert!(values("k", "1..6:0").is_err());
        assert!(values("k", "a,,b").is_err());
    }

    #[test]
    fn a_key_given_twice_is_refused() {
        let words = vec![
            ("a".to_string(), "1".to_string()),
            ("a".to_string(), "2".to_string()),
        ];
        let err = settings(&words, &|_| Ok(())).unwrap_err().to_string();
        assert!(err.contains("a is given twice"), "{err}");
    }
}
