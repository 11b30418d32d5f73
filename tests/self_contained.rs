//! The repository stands on its own: no tracked file sends a reader to a
//! folder beside it, or to a rules or design document that is not in the
//! repository. The rules as modelled live in the book (docs/src/); source
//! comments cite them as `rules §N.M`, the numbered sections of each
//! system chapter's "rules as modelled".

use std::path::{Path, PathBuf};
use std::process::Command;

/// The tracked files (`git ls-files`), or every file but build output when
/// this is not a git checkout.
fn tracked_files(root: &Path) -> Vec<PathBuf> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output();
    match out {
        Ok(out) if out.status.success() => out
            .stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
            .collect(),
        _ => {
            let mut files = Vec::new();
            walk(root, Path::new(""), &mut files);
            files
        }
    }
}

fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(root.join(rel)).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if rel.as_os_str().is_empty() && (name == "target" || name == ".git") {
            continue;
        }
        let path = rel.join(&name);
        if entry.file_type().unwrap().is_dir() {
            walk(root, &path, out);
        } else {
            out.push(path);
        }
    }
}

/// What a line must not say, lower-cased. Spelt in pieces so that this
/// file does not match itself.
fn needles() -> Vec<String> {
    vec![
        ["shared", " folder"].concat(),
        ["shared", " directory"].concat(),
        ["../", "shared"].concat(),
        ["/work/", "shared"].concat(),
        ["rules", ".md"].concat(),
        ["design", ".md"].concat(),
    ]
}

#[test]
fn no_file_points_outside_the_repository() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = tracked_files(&root);
    assert!(!files.is_empty());
    let needles = needles();
    let mut hits = Vec::new();
    for file in &files {
        // A document of that name inside the repository may be cited.
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue; // binary (charts, Parquet) or gone from the work tree
        };
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for needle in &needles {
                if lower.contains(needle.as_str()) && !in_repository(&root, needle) {
                    hits.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                    break;
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "{} lines in {} files point outside the repository (cite the book's \
         chapter, docs/src/…, instead):\n{}",
        hits.len(),
        {
            let mut f: Vec<&str> = hits.iter().map(|h| h.split(':').next().unwrap()).collect();
            f.dedup();
            f.len()
        },
        hits.join("\n")
    );
}

/// Whether a document the needle names exists in the repository's root
/// (then citing it is fine).
fn in_repository(root: &Path, needle: &str) -> bool {
    needle.ends_with(".md")
        && std::fs::read_dir(root)
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().to_lowercase() == needle)
}
