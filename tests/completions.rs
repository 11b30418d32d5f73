//! `oddsmith completions SHELL`: each shell gets a script, and the bash one,
//! loaded into a real bash, completes subcommands, options and their values.

mod common;

use std::process::Command;

use common::{oddsmith, stderr, stdout};

/// The words bash offers for the command line `line` (the cursor at its
/// end), asking the completion function that the script registers for
/// `oddsmith`, the way bash's own <TAB> does.
fn bash_completes(script: &std::path::Path, line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split(' ').collect();
    let cword = words.len() - 1;
    // `complete -p oddsmith` prints the registration (`complete -F _oddsmith
    // … oddsmith`): the function is read from there, not assumed. Bash
    // calls it with the command, the word being completed and the word
    // before it.
    let program = format!(
        r#"source "$1" || exit 3
spec=$(complete -p oddsmith) || exit 4
fn=$(sed -E 's/.* -F ([^ ]+) .*/\1/' <<<"$spec")
COMP_LINE={line:?}
COMP_POINT=${{#COMP_LINE}}
COMP_WORDS=({words})
COMP_CWORD={cword}
COMP_TYPE=9
COMP_KEY=9
"$fn" oddsmith {cur:?} {prev:?}
printf '%s\n' "${{COMPREPLY[@]}}""#,
        words = words
            .iter()
            .map(|w| format!("{w:?}"))
            .collect::<Vec<_>>()
            .join(" "),
        cur = words[cword],
        prev = words[cword - 1],
    );
    let out = Command::new("bash")
        .arg("--norc")
        .arg("--noprofile")
        .arg("-c")
        .arg(&program)
        .arg("bash")
        .arg(script)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash failed on {line:?} ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut words: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(String::from)
        .collect();
    words.sort();
    words
}

#[test]
fn bash_completion_completes_subcommands_options_and_values() {
    let out = oddsmith(&["completions", "bash"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("oddsmith.bash");
    std::fs::write(&script, &out.stdout).unwrap();

    // `oddsmith ru<TAB>`: only `run` starts with "ru" (`report` does not).
    assert_eq!(bash_completes(&script, "oddsmith ru"), ["run"]);
    // `oddsmith <TAB>` offers every subcommand, the two new ones included.
    let all = bash_completes(&script, "oddsmith ");
    for sub in [
        "run",
        "odds",
        "systems",
        "check",
        "report",
        "diff",
        "merge",
        "completions",
        "man",
    ] {
        assert!(all.iter().any(|w| w == sub), "{sub} not offered: {all:?}");
    }
    // An option of `run`, and the values of an enum-valued option.
    assert_eq!(bash_completes(&script, "oddsmith run --mo"), ["--mode"]);
    assert_eq!(
        bash_completes(&script, "oddsmith run --mode "),
        ["auto", "both", "exact", "mc"]
    );
    // Its options (`--help`) come along with the values of a positional.
    let shells: Vec<String> = bash_completes(&script, "oddsmith completions ")
        .into_iter()
        .filter(|w| !w.starts_with('-'))
        .collect();
    assert_eq!(shells, ["bash", "elvish", "fish", "powershell", "zsh"]);
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = oddsmith(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for word in ["oddsmith", "run", "systems", "--trials", "--mode"] {
            assert!(
                script.contains(word),
                "the {shell} script does not mention {word}"
            );
        }
    }
}

#[test]
fn an_unknown_shell_is_refused_with_the_allowed_ones() {
    let out = oddsmith(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("tcsh"), "{err}");
    assert!(err.contains("bash") && err.contains("elvish"), "{err}");
}
