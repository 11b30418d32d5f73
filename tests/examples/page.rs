//! The examples page of the manual against this suite: every test the
//! page names exists here and every test here is on the page, each row's
//! status agrees with its test's name, and each text's counts add up.
//!
//! The page, `docs/src/examples.md`, has one section (`## `) per text,
//! a line `Found N: reproduced a, differ by design b, not modelled c,
//! pending d.` and a table whose rows end `| status | test or reason |`.
//! A section with neither (notes) is not a text's. The suite is every
//! `#[test]` in `tests/examples/*.rs` but this file's,
//! whatever modules there are (a module added later joins by itself).

use std::collections::BTreeSet;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names of the `#[test]` functions in `text`.
fn tests_in(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut armed = false;
    for line in text.lines().map(str::trim) {
        if line == "#[test]" {
            armed = true;
            continue;
        }
        match line.strip_prefix("fn ") {
            Some(rest) if armed => {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
                armed = false;
            }
            _ => {}
        }
    }
    names
}

/// Every example test of the suite, with the file it is in.
fn suite() -> Vec<(String, String)> {
    let dir = root().join("tests/examples");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && file != "page.rs" {
            let text = std::fs::read_to_string(&path).unwrap();
            out.extend(tests_in(&text).into_iter().map(|t| (t, file.clone())));
        }
    }
    out
}

/// How the page says an example fares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Reproduced,
    Differs,
    NotModelled,
    Pending,
}

impl Status {
    fn of(cell: &str) -> Option<Status> {
        match cell {
            "reproduced" => Some(Status::Reproduced),
            "differs" => Some(Status::Differs),
            "not modelled" => Some(Status::NotModelled),
            _ if cell.starts_with("pending") => Some(Status::Pending),
            _ => None,
        }
    }
}

/// One text's section: its heading, its stated counts and its rows
/// (status, the test names in the last cell).
struct Section {
    title: String,
    stated: Option<[usize; 5]>,
    rows: Vec<(Status, Vec<String>, String)>,
}

/// The test names in `cell`: the identifiers written in backticks (a
/// backticked key such as `variant.failure = "half"` is not one).
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_string)
        .collect()
}

/// `Found 3: reproduced 1, differ by design 1, not modelled 1, pending 0.`
fn counts(line: &str) -> Option<[usize; 5]> {
    let rest = line.strip_prefix("Found ")?;
    let numbers: Vec<usize> = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let labels = ["reproduced", "differ by design", "not modelled", "pending"];
    assert!(
        labels.iter().all(|l| rest.contains(l)) && numbers.len() == 5,
        "a counts line names found, {labels:?}: {line}"
    );
    Some([numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]])
}

/// The sections of `page` that list examples (a section of notes, with
/// neither counts nor rows, is left out).
fn sections(page: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in page.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            out.push(Section {
                title: title.to_string(),
                stated: None,
                rows: Vec::new(),
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            continue;
        };
        if let Some(c) = counts(line) {
            assert!(
                section.stated.is_none(),
                "{}: two counts lines",
                section.title
            );
            section.stated = Some(c);
        } else if line.starts_with('|') {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let [.., status, last] = cells[..] else {
                panic!("{}: a row of fewer than two cells: {line}", section.title)
            };
            if let Some(s) = Status::of(status) {
                section.rows.push((s, backticked(last), line.to_string()));
            } else {
                // The header and its rule only.
                assert!(
                    status == "Status" || status.chars().all(|c| c == '-' || c == ':'),
                    "{}: unknown status {status:?} in {line}",
                    section.title
                );
            }
        }
    }
    out.retain(|s| s.stated.is_some() || !s.rows.is_empty());
    out
}

fn page_text() -> String {
    let path = root().join("docs/src/examples.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn page_and_suite_name_the_same_tests() {
    let page = sections(&page_text());
    let on_page: Vec<String> = page
        .iter()
        .flat_map(|s| s.rows.iter().flat_map(|(_, names, _)| names.clone()))
        .collect();
    let unique: BTreeSet<&String> = on_page.iter().collect();
    assert_eq!(unique.len(), on_page.len(), "a test named on two rows");
    let suite = suite();
    let in_suite: BTreeSet<&String> = suite.iter().map(|(t, _)| t).collect();
    assert_eq!(in_suite.len(), suite.len(), "two example tests of one name");
    for (test, file) in &suite {
        assert!(
            unique.contains(test),
            "`{test}` ({file}) is not on the examples page"
        );
    }
    for test in &unique {
        assert!(
            in_suite.contains(test),
            "the examples page names `{test}`, which is no test in tests/examples"
        );
    }
}

#[test]
fn every_file_of_the_suite_is_a_module_of_main() {
    // A module file left out of `main.rs` would be counted here but never
    // run (as `gateway.rs` would be, joining without its `mod` line).
    let main = std::fs::read_to_string(root().join("tests/examples/main.rs")).unwrap();
    for entry in std::fs::read_dir(root().join("tests/examples")).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rs") && stem != "main" {
            assert!(
                main.lines().any(|l| l.trim() == format!("mod {stem};")),
                "tests/examples/{stem}.rs is not declared in main.rs (`mod {stem};`)"
            );
        }
    }
}

#[test]
fn every_row_agrees_with_its_tests_and_the_counts_add_up() {
    let page = sections(&page_text());
    assert!(page.len() >= 5, "one section per text");
    for s in &page {
        let stated = s
            .stated
            .unwrap_or_else(|| panic!("{}: no `Found N: …` line", s.title));
        let count = |st: Status| s.rows.iter().filter(|(x, ..)| *x == st).count();
        let seen = [
            s.rows.len(),
            count(Status::Reproduced),
            count(Status::Differs),
            count(Status::NotModelled),
            count(Status::Pending),
        ];
        assert_eq!(stated, seen, "{}: counts stated against rows", s.title);
        assert_eq!(
            stated[0],
            stated[1..].iter().sum::<usize>(),
            "{}: found is the sum",
            s.title
        );
        for (status, names, row) in &s.rows {
            match status {
                Status::Reproduced | Status::Differs => {
                    assert!(!names.is_empty(), "{}: no test for {row}", s.title);
                    for n in names {
                        assert_eq!(
                            n.contains("_differs_"),
                            *status == Status::Differs,
                            "{}: `{n}` and its status in {row}",
                            s.title
                        );
                    }
                }
                Status::NotModelled | Status::Pending => assert!(
                    names.is_empty(),
                    "{}: a row without a test names one: {row}",
                    s.title
                ),
            }
        }
    }
}

#[test]
fn the_reader_of_the_page_parses_what_it_should() {
    let page = "## A\n\nFound 3: reproduced 1, differ by design 1, not modelled 0, pending 1.\n\n\
                | Where | Says | Status | Test or reason |\n|---|---|---|---|\n\
                | §1 | x | reproduced | `a_one` |\n| §2 | y | differs | `b_differs_c`: `v.k = \"x\"` |\n\
                | §3 | z | pending: other work | not yet |\n";
    let s = sections(page);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].stated, Some([3, 1, 1, 0, 1]));
    let names: Vec<&Vec<String>> = s[0].rows.iter().map(|(_, n, _)| n).collect();
    assert_eq!(
        names,
        [
            &vec!["a_one".to_string()],
            &vec!["b_differs_c".to_string()],
            &vec![]
        ]
    );
    let text = "#[test]\n/// doc\nfn first() {}\nfn helper() {}\n#[test]\nfn second_one() {}";
    assert_eq!(tests_in(text), ["first", "second_one"]);
}
