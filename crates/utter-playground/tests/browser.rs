//! Headless Chromium drives both pages: the review report (`utter snapshot
//! --format html`, `utter diff --format html`) of the card agent, and the
//! playground built for WebAssembly. The browser side is
//! `playground/tests/browser.test.mjs` (Node.js, playwright-core).
//!
//! It needs Chromium, Node.js, `npm ci --prefix playground/tests` and the
//! `wasm32-unknown-unknown` target. Without them it says what is missing
//! and passes, unless `UTTER_BROWSER_TESTS=require` (CI sets it): then a
//! missing piece fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use utter_compiler::snapshot::{self, diff::diff};
use utter_compiler::{Agent, OpenOptions, Registry};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// What the test needs and this machine lacks, each with how to get it.
fn missing() -> Vec<String> {
    let mut missing = Vec::new();
    if !chromium().is_file() {
        missing.push("Chromium (apt-get install chromium, or CHROMIUM=<path>)".to_owned());
    }
    if Command::new("node").arg("--version").output().is_err() {
        missing.push("Node.js".to_owned());
    }
    if !repo()
        .join("playground/tests/node_modules/playwright-core")
        .is_dir()
    {
        missing.push("playwright-core (npm ci --prefix playground/tests)".to_owned());
    }
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !targets.lines().any(|t| t == "wasm32-unknown-unknown") {
        missing.push(
            "the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)"
                .to_owned(),
        );
    }
    missing
}

fn open(dir: &Path) -> Registry {
    let agent = Agent::open(dir, OpenOptions::default()).expect("the agent reads");
    let (_, registry) = agent.into_registry();
    registry.expect("the agent has no errors")
}

/// A copy of the card agent with one wording changed, for the diff page.
fn edited_copy(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            edited_copy(&entry.path(), &target);
        } else {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            // A changed sentence, a long text with a word longer than a
            // cell is wide, and a changed condition: what the layout test
            // needs side by side.
            let edited = text
                .replace(
                    "Standard replacement is free.",
                    "Standard replacement costs nothing today.",
                )
                .replace(
                    "No fee for cards reported stolen.",
                    "No fee applies to cards reported stolen; details at https://example.com/cards/replacement/stolen-or-lost/terms-and-conditions-of-the-replacement-service-for-every-card-we-issue",
                )
                .replace(
                    "Okay, I have not ordered a new card.",
                    "Okay, I have not ordered a new card for you, and nothing was charged.",
                );
            std::fs::write(target, edited).unwrap();
        }
    }
}

#[test]
fn both_pages_work_in_headless_chromium() {
    let missing = missing();
    if !missing.is_empty() {
        assert!(
            std::env::var("UTTER_BROWSER_TESTS").as_deref() != Ok("require"),
            "the browser tests are required and this machine lacks: {}",
            missing.join("; ")
        );
        eprintln!(
            "browser tests skipped; this machine lacks: {}",
            missing.join("; ")
        );
        return;
    }
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    // The pages under test: the card agent's report, and a diff of it.
    let card = repo().join("examples/card-agent");
    let registry = open(&card);
    let views = snapshot::responses(&registry, snapshot::Options::default());
    let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
    assert!(names.len() > 10);
    let report = work.join("report.html");
    std::fs::write(
        &report,
        snapshot::html::report(
            &registry,
            snapshot::Options::default(),
            &snapshot::html::Provenance {
                agents: vec!["examples/card-agent".to_owned()],
                date: Some("2026-12-07".to_owned()),
            },
        ),
    )
    .unwrap();
    let edited = work.join("edited-agent");
    std::fs::create_dir_all(&edited).unwrap();
    edited_copy(&card, &edited);
    let changes = diff(&registry, &open(&edited), snapshot::Options::default());
    assert!(!changes.is_empty());
    let diff_page = work.join("diff.html");
    let about = snapshot::html::Provenance {
        agents: vec!["examples/card-agent".to_owned(), "edited-agent".to_owned()],
        date: Some("2026-12-07".to_owned()),
    };
    std::fs::write(&diff_page, snapshot::html::diff_report(&changes, &about)).unwrap();

    // The playground, built as its documented command builds it (in a
    // target folder of its own: this test's build holds the usual one).
    let site = work.join("site");
    let built = Command::new("bash")
        .arg(repo().join("playground/build.sh"))
        .arg(&site)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("wasm-target"),
        )
        .status()
        .expect("bash runs");
    assert!(built.success(), "playground/build.sh failed");
    wasm_size_as_documented(&site.join("utter_playground.wasm"));

    // The layout test's screenshots (docs/images takes them from here:
    // bash playground/screenshots.sh).
    let shots = work.join("shots");
    std::fs::create_dir_all(&shots).unwrap();
    let output = Command::new("node")
        .args(["--test", "playground/tests/"])
        .current_dir(repo())
        .env("CHROMIUM", chromium())
        .env("SITE", &site)
        .env("REPORT", &report)
        .env("DIFF", &diff_page)
        .env("SHOTS", &shots)
        .env("REPORT_RESPONSES", serde_json::to_string(&names).unwrap())
        .env("REPORT_FINGERPRINT", registry.wording_fingerprint())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    eprintln!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the browser tests failed");
    // As many passed as the file declares: none skipped or lost.
    let declared = std::fs::read_to_string(repo().join("playground/tests/browser.test.mjs"))
        .unwrap()
        .matches("\ntest(\"")
        .count();
    assert!(declared >= 13, "{declared} browser tests declared");
    assert!(
        stdout.contains(&format!("# pass {declared}\n")) && stdout.contains("# fail 0"),
        "every one of the {declared} browser tests ran"
    );
}

/// docs/playground.md's size of the module is the size of the build it
/// describes (within 15%: toolchains differ a little; a stale figure
/// differs more).
fn wasm_size_as_documented(wasm: &Path) {
    let built = std::fs::metadata(wasm).expect("the module was built").len();
    let doc = std::fs::read_to_string(repo().join("docs/playground.md")).unwrap();
    let row = doc
        .lines()
        .find(|l| l.starts_with("| `utter_playground.wasm` |"))
        .expect("docs/playground.md gives the module's size");
    let documented: u64 = row
        .split('|')
        .nth(2)
        .and_then(|cell| cell.split(" bytes").next())
        .map(|n| n.trim().replace(',', ""))
        .and_then(|n| n.parse().ok())
        .expect("a size in bytes");
    let off = built.abs_diff(documented) as f64 / documented as f64;
    assert!(
        off <= 0.15,
        "docs/playground.md says {documented} bytes; the build is {built} bytes: update the figure"
    );
}
