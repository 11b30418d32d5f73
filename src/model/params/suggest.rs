//! "Did you mean …?" for a misspelt name: the closest known one, when it
//! is close enough to be a slip of the keyboard.

/// ` (did you mean `x`?)` when a known name is close to `got`.
pub fn suggest<'a>(got: &str, known: impl Iterator<Item = &'a str>) -> String {
    known
        .map(|k| (edit_distance(got, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

/// ` (did you mean `x`?)` for a key no parameter has: the nearest path
/// (or last segment of one: `pol` for `actor.pool`), else a parameter
/// whose doc uses the word (`helper` finds `actor.aid`, "An aiding
/// helper's pool").
pub fn suggest_param(got: &str, specs: &[super::ParamSpec]) -> String {
    let by_name = suggest(got, specs.iter().map(|s| s.path));
    if !by_name.is_empty() {
        return by_name;
    }
    let last = got.rsplit('.').next().unwrap_or(got);
    let by_segment = specs
        .iter()
        .filter_map(|s| {
            let seg = s.path.rsplit('.').next()?;
            let d = edit_distance(last, seg);
            (d <= 1.max(seg.len() / 4)).then_some((d, s.path))
        })
        .min();
    if let Some((_, path)) = by_segment {
        return format!(" (did you mean `{path}`?)");
    }
    let lower = last.to_lowercase();
    let word = stem(&lower);
    if word.len() < 3 {
        return String::new();
    }
    let hits: Vec<&str> = specs
        .iter()
        .filter(|s| {
            s.doc
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| stem(&w.to_lowercase()) == word)
        })
        .map(|s| s.path)
        .take(3)
        .collect();
    match hits.as_slice() {
        [] => String::new(),
        [one] => format!(" (did you mean `{one}`? its doc speaks of \"{last}\")"),
        many => format!(
            " (did you mean one of {}? their docs speak of \"{last}\")",
            many.iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A word without its possessive or plural ending, for loose matching.
fn stem(w: &str) -> &str {
    let w = w.strip_suffix("'s").unwrap_or(w);
    let w = w
        .strip_suffix("es")
        .filter(|s| s.len() >= 3 && s.ends_with('s'))
        .unwrap_or(w);
    w.strip_suffix('s').filter(|s| s.len() >= 3).unwrap_or(w)
}

/// Levenshtein distance between two short strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_far_ones_not() {
        let known = ["difficulty", "favouring", "opposing"];
        assert_eq!(
            suggest("dificulty", known.into_iter()),
            " (did you mean `difficulty`?)"
        );
        assert_eq!(suggest("weight", known.into_iter()), "");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn words_in_a_doc_find_a_parameter() {
        use super::super::{Lit, ParamKind, ParamSpec};
        static SPECS: [ParamSpec; 2] = [
            ParamSpec {
                path: "actor.aid",
                kind: ParamKind::Bool,
                default: Lit::Absent,
                doc: "An aiding helper's pool: its highest die is added.",
            },
            ParamSpec {
                path: "actor.pool",
                kind: ParamKind::Bool,
                default: Lit::Absent,
                doc: "The actor's dice.",
            },
        ];
        assert_eq!(
            suggest_param("helper", &SPECS),
            " (did you mean `actor.aid`? its doc speaks of \"helper\")"
        );
        assert_eq!(
            suggest_param("helpers", &SPECS),
            suggest_param("helper", &SPECS).replace("\"helper\"", "\"helpers\"")
        );
        assert_eq!(
            suggest_param("actor.pol", &SPECS),
            " (did you mean `actor.pool`?)"
        );
        assert_eq!(
            suggest_param("pool", &SPECS),
            " (did you mean `actor.pool`?)"
        );
        assert_eq!(suggest_param("weather", &SPECS), "");
    }
}
