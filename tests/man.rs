//! `oddsmith man`: roff that groff renders into a page with the
//! subcommands, and a page per subcommand with its options.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{oddsmith, stderr, stdout};

/// `roff` rendered by `groff -man -Tutf8` as plain text (no bold or
/// underline escapes), with groff's warnings; `None` when groff is absent.
fn groff(roff: &[u8]) -> Option<(String, String)> {
    let child = Command::new("groff")
        // -ww: every warning; -P -cbou: plain characters, no escapes;
        // -rHY=0 -dAD=l: no hyphens or justification to split words.
        .args(["-man", "-Tutf8", "-ww", "-P", "-cbou", "-rHY=0", "-dAD=l"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // CI installs groff (`.ci/run`): there, a missing groff is a
            // broken setup, not a reason to skip.
            assert!(
                std::env::var_os("CI").is_none(),
                "groff is missing on CI: .ci/run should have installed groff-base"
            );
            eprintln!(
                "SKIPPED: groff is not installed, so the man page is not rendered \
                 (apt-get install groff-base)"
            );
            return None;
        }
        Err(e) => panic!("groff does not start: {e}"),
    };
    child.stdin.take().unwrap().write_all(roff).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "groff failed: {}", out.status);
    Some((
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The page's text with runs of spaces collapsed (groff justifies lines).
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_man_page_renders_with_groff() {
    let out = oddsmith(&["man"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let roff = stdout(&out);
    assert!(
        roff.starts_with(".ie \\n(.g .ds Aq"),
        "not roff: {roff:.80}"
    );
    assert!(roff.contains(".TH oddsmith 1"), "no title line");

    let Some((page, warnings)) = groff(&out.stdout) else {
        return;
    };
    assert_eq!(warnings, "", "groff warned");
    let text = squeezed(&page);
    assert!(text.starts_with("oddsmith(1)"), "{text:.200}");
    for heading in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "SUBCOMMANDS",
        "VERSION",
    ] {
        assert!(
            page.lines().any(|l| l == heading),
            "no {heading} section in:\n{page}"
        );
    }
    assert!(
        text.contains("oddsmith - Exact and Monte Carlo odds for tabletop dice mechanics"),
        "{text}"
    );
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
        assert!(
            text.contains(&format!("oddsmith-{sub}(1)")),
            "subcommand {sub} missing from:\n{page}"
        );
    }
    assert!(
        text.contains(&format!("v{}", env!("CARGO_PKG_VERSION"))),
        "no version"
    );
}

#[test]
fn a_subcommand_page_lists_its_options() {
    let out = oddsmith(&["man", "run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(".TH oddsmith-run 1"));
    let Some((page, warnings)) = groff(&out.stdout) else {
        return;
    };
    assert_eq!(warnings, "", "groff warned");
    let text = squeezed(&page);
    assert!(
        text.contains("SYNOPSIS oddsmith run [--mode] [--trials] [--seed]"),
        "{text}"
    );
    assert!(text.contains("<-o|--out> <SCENARIO> DESCRIPTION"), "{text}");
    for option in [
        "--mode",
        "--trials",
        "--seed",
        "--precision",
        "--shard",
        "--quiet",
    ] {
        assert!(text.contains(option), "{option} missing from:\n{page}");
    }
    assert!(
        text.contains("exit 1 if any metric disagrees by more than 5 standard errors"),
        "{text}"
    );
    // The help's `…` reaches the page as an ellipsis, not as raw bytes.
    let merge = oddsmith(&["man", "merge"]);
    assert!(stdout(&merge).contains(r"\[u2026]"));
    let (page, warnings) = groff(&merge.stdout).unwrap();
    assert_eq!(warnings, "", "groff warned");
    assert!(
        squeezed(&page).contains("(`oddsmith run \u{2026} --shard I/N`"),
        "{page}"
    );
}

#[test]
fn an_unknown_subcommand_page_is_refused_with_the_allowed_ones() {
    let out = oddsmith(&["man", "rum"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("error: `rum` is not a subcommand; allowed: run, odds, systems"),
        "{err}"
    );
}
