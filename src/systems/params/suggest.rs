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
}
