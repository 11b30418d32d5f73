//! The manual's examples are tests: every ```console block of README.md and
//! docs/**/*.md runs under trycmd, and each `$ oddsmith …` line in it must
//! print exactly the lines that follow it (stdout and stderr together;
//! `[..]` stands for the rest of a line, a lone `...` line for any lines,
//! and a `? failed` or `? 2` line after the command for an exit that is
//! not 0). A block that cannot run in a test (a long run, a Slurm submit)
//! is fenced ```console,ignore and counted as skipped.
//!
//! Each Markdown file's examples run in order, in a working directory of
//! their own holding a copy of the repository's `scenarios/`, so an example
//! may read `scenarios/dice-roll.toml` and write `--out out/x` for a later
//! example to read, without touching the repository.
//!
//! When the binary's output changed on purpose, `TRYCMD=overwrite cargo
//! test --release --test docs` writes what it now prints into the manual.

mod markdown;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use markdown::{code_blocks, manual_files, root};

/// The manual has at least this many examples that run: fewer means a
/// chapter lost its examples or they were all marked `ignore`.
const MIN_EXAMPLES: usize = 40;

/// The repository's directories copied into each file's working directory.
const INPUTS: &[&str] = &["scenarios"];

/// One Markdown file's examples.
struct FileExamples {
    /// The file, relative to the root.
    path: PathBuf,
    /// Blocks that run, and their commands.
    blocks: usize,
    commands: usize,
    /// Blocks marked `ignore`.
    skipped: usize,
}

/// Read every file's examples; anything trycmd would misread (or silently
/// pass over) is a problem, returned with its file and line.
fn survey() -> (Vec<FileExamples>, Vec<String>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for path in manual_files() {
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        let mut file = FileExamples {
            path: path.clone(),
            blocks: 0,
            commands: 0,
            skipped: 0,
        };
        for block in code_blocks(&text) {
            let at = format!("{}:{}", path.display(), block.line);
            match block.lang() {
                "console" | "trycmd" => {
                    if !block.flush_backticks {
                        problems.push(format!(
                            "{at}: a ```{} block must be fenced with backticks at the start \
                             of a line (not indented, in a list or a quote, nor with ~~~): \
                             trycmd reads only those, and would skip it silently",
                            block.info
                        ));
                        continue;
                    }
                    if block.has_flag("ignore") {
                        file.skipped += 1;
                        continue;
                    }
                    file.blocks += 1;
                    file.commands += check_commands(&at, &block.body, &mut problems);
                }
                // trycmd runs a bare ``` fence as a block of commands.
                "" if block.flush_backticks => problems.push(format!(
                    "{at}: a code block without a language: trycmd would run it as \
                     commands; label it (```text, ```sh, ```toml …)"
                )),
                _ => {}
            }
        }
        files.push(file);
    }
    (files, problems)
}

/// The number of commands in a block's `body`; a block that does not open
/// with `$ `, or a command that is not `oddsmith`, is a problem.
fn check_commands(at: &str, body: &str, problems: &mut Vec<String>) -> usize {
    if !body.starts_with("$ ") {
        problems.push(format!(
            "{at}: a ```console block opens with `$ oddsmith …`; \
             mark an example that shows no command ```console,ignore"
        ));
        return 0;
    }
    let mut commands = 0;
    for line in body.lines().filter_map(|l| l.strip_prefix("$ ")) {
        commands += 1;
        // `NAME=value oddsmith …` sets a variable for the command.
        let program = line
            .split_whitespace()
            .find(|w| !w.contains('='))
            .unwrap_or_default();
        if program != "oddsmith" {
            problems.push(format!(
                "{at}: `$ {line}`: only oddsmith runs in the docs test; \
                 fence an example of another command ```console,ignore (or ```sh)"
            ));
        }
    }
    commands
}

/// Copy the directory `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A line on the terminal even when the test passes (the test harness
/// captures `println!`, not writes to stderr itself).
fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    writeln!(err, "{text}").unwrap();
}

#[test]
fn the_manuals_examples_print_what_the_manual_shows() {
    let (files, problems) = survey();
    let blocks: usize = files.iter().map(|f| f.blocks).sum();
    let commands: usize = files.iter().map(|f| f.commands).sum();
    let skipped: usize = files.iter().map(|f| f.skipped).sum();
    let with_examples = files.iter().filter(|f| f.blocks > 0).count();
    say(&format!(
        "docs examples: running {blocks} examples ({commands} commands) from {with_examples} \
         of {} Markdown files; skipped {skipped} (```console,ignore)",
        files.len()
    ));
    for f in files.iter().filter(|f| f.blocks + f.skipped > 0) {
        say(&format!(
            "  {:<40} {:>3} run, {:>2} skipped",
            f.path.display(),
            f.blocks,
            f.skipped
        ));
    }
    assert!(
        problems.is_empty(),
        "examples trycmd would misread:\n{}",
        problems.join("\n")
    );

    // Each file is copied to the same path under a temporary root, and its
    // working directory is the `.in` folder beside it (trycmd's
    // convention): `docs/src/dice.md` runs in `docs/src/dice.in/`.
    let sandbox = tempfile::tempdir().unwrap();
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("oddsmith", Path::new(env!("CARGO_BIN_EXE_oddsmith")))
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(300));
    let mut copies = Vec::new();
    for f in files.iter().filter(|f| f.blocks > 0) {
        let case = sandbox.path().join(&f.path);
        std::fs::create_dir_all(case.parent().unwrap()).unwrap();
        std::fs::copy(root().join(&f.path), &case).unwrap();
        let cwd = case.with_extension("in");
        std::fs::create_dir(&cwd).unwrap();
        for dir in INPUTS {
            copy_dir(&root().join(dir), &cwd.join(dir));
        }
        cases.case(&case);
        copies.push((case, &f.path));
    }
    cases.run();

    // `TRYCMD=overwrite` rewrote the copies: carry the new output back.
    if std::env::var("TRYCMD").as_deref() == Ok("overwrite") {
        for (case, original) in copies {
            let new = std::fs::read_to_string(&case).unwrap();
            let original = root().join(original);
            if std::fs::read_to_string(&original).unwrap() != new {
                std::fs::write(&original, new).unwrap();
                say(&format!("overwrote the examples of {}", original.display()));
            }
        }
    }

    say(&format!(
        "docs examples: {blocks} examples ran and printed what the manual shows; \
         {skipped} skipped"
    ));
    assert!(
        blocks >= MIN_EXAMPLES,
        "the manual has {blocks} examples that run, fewer than {MIN_EXAMPLES}"
    );
}
