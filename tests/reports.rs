//! The committed reports under `reports/` are exactly what the shipped
//! scenarios produce, and the HTML report renders in a headless browser
//! with no network.

mod common;

use std::path::{Path, PathBuf};

use common::*;

fn shipped_scenarios() -> Vec<PathBuf> {
    let mut list: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    list.sort();
    list
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            for f in files_under(&e.path()) {
                out.push(format!("{}/{f}", e.file_name().to_string_lossy()));
            }
        } else {
            out.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    out.sort();
    out
}

#[test]
fn regenerating_the_committed_reports_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("reports");
    let mut args = vec![
        "check".to_string(),
        "--quiet".into(),
        "--report".into(),
        fresh.display().to_string(),
    ];
    args.extend(shipped_scenarios().iter().map(|p| p.display().to_string()));
    let o = oddsmith(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        o.status.code(),
        Some(0),
        "the shipped scenarios' assertions must hold:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    let committed = root().join("reports");
    assert_eq!(
        files_under(&fresh),
        files_under(&committed),
        "the set of report files differs; regenerate with `oddsmith check scenarios/*.toml --report reports`"
    );
    for f in files_under(&fresh) {
        let same =
            std::fs::read(fresh.join(&f)).unwrap() == std::fs::read(committed.join(&f)).unwrap();
        assert!(
            same,
            "reports/{f} is stale; regenerate with `oddsmith check scenarios/*.toml --report reports`"
        );
    }
    // Every shipped scenario has at least one chart (a tune and best
    // play draw their own) and one assertion.
    for s in shipped_scenarios() {
        let text = std::fs::read_to_string(&s).unwrap();
        assert!(
            (text.contains("[[chart]]") || text.contains("\n[tune]") || text.contains("\n[best]"))
                && text.contains("[[expect]]"),
            "{} needs a chart and an assertion",
            s.display()
        );
    }
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH")?
                .to_str()?
                .split(':')
                .map(|d| Path::new(d).join(name))
                .find(|p| p.is_file())
        })
}

#[test]
fn html_report_renders_in_headless_chromium_without_network() {
    let Some(browser) = chromium() else {
        // CI installs Chromium first (.ci/run), so there this is a real failure.
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium is required in CI: apt-get install chromium"
        );
        // Written to the real stderr, not through `eprintln!`, which the
        // test harness captures and shows only for failing tests: a skip
        // must be visible in a passing run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\nnote: html_report_renders_in_headless_chromium_without_network SKIPPED: Chromium is not installed (apt-get install chromium); CI runs it\n"
        );
        return;
    };
    let report = root().join("reports/gateway-raises/report.html");
    let html = std::fs::read_to_string(&report).unwrap();
    // Self-contained: nothing to fetch. (The SVG namespace is a name, not
    // an address, and is never fetched.)
    let stripped = html.replace("http://www.w3.org/2000/svg", "");
    for needle in [
        "http://", "https://", "src=", "href=", "url(", "<script", "<link", "@import",
    ] {
        assert!(
            !stripped.contains(needle),
            "report.html refers outside itself: {needle}"
        );
    }
    assert!(html.contains("<svg"), "charts are inline SVG");
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    let o = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            // No name resolves: the page must render with no network at all.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--hide-scrollbars",
            "--window-size=1300,1800",
            &format!("--user-data-dir={}", dir.path().join("profile").display()),
            &format!("--screenshot={}", shot.display()),
            &format!("file://{}", report.display()),
        ])
        .output()
        .unwrap();
    assert!(
        shot.exists(),
        "no screenshot: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let img = image::open(&shot).unwrap().to_rgb8();
    let pixels = (img.width() * img.height()) as usize;
    let ink = img
        .pixels()
        .filter(|p| p.0.iter().any(|c| *c < 200))
        .count();
    let mut colours: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    colours.sort();
    colours.dedup();
    // A blank or error page is nearly all one colour; the report has text,
    // tables and viridis charts.
    assert!(ink * 50 > pixels, "only {ink} of {pixels} pixels are drawn");
    assert!(
        colours.len() > 100,
        "only {} distinct colours",
        colours.len()
    );
    // Viridis purple from the charts is on screen.
    assert!(
        img.pixels()
            .any(|p| p.0[2] > 70 && p.0[0] < 90 && p.0[1] < 30),
        "no chart colours on screen"
    );
}
