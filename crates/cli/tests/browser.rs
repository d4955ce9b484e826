//! The browser tests (`tests/browser/run.mjs`: playwright-core driving Debian's Chromium against
//! this binary's `serve`), run as part of `cargo test`.
//!
//! They need Node.js, `/usr/bin/chromium` and `npm ci` in `tests/browser`; `scripts/test-env.sh`
//! provides all three and sets `DENKMETER_REQUIRE_BROWSER=1`, which makes a missing piece a
//! failure instead of a skip.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::path::Path;
use std::process::Command;

#[path = "support/postgres.rs"]
mod postgres;

/// The checks of players: accounts, ratings, player pages, the leaderboard, challenges. They
/// run again on PostgreSQL, whose SQL differs most there.
const PLAYER_CHECKS: &str = "P,Q,R,S,T,U,V,W,X,Y";

/// Every check on SQLite, then the players' checks on PostgreSQL: one after the other, not
/// side by side, so that each has the machine's cores to itself.
#[test]
fn browser_tests_pass() {
    if !browser_present() {
        return;
    }
    run_checks(&[]);
    if let Some(database) = postgres::PostgresDatabase::create("browser") {
        run_checks(&["--only", PLAYER_CHECKS, "--database", &database.url]);
    }
}

/// Whether node, chromium and the driver are here; a failure if they must be
/// (`DENKMETER_REQUIRE_BROWSER=1`).
fn browser_present() -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("tests/browser");
    let required = std::env::var("DENKMETER_REQUIRE_BROWSER").as_deref() == Ok("1");
    let missing = [
        (
            dir.join("node_modules/playwright-core").exists(),
            "npm ci in tests/browser",
        ),
        (Path::new("/usr/bin/chromium").exists(), "/usr/bin/chromium"),
        (
            Command::new("node").arg("--version").output().is_ok(),
            "node",
        ),
    ]
    .into_iter()
    .filter(|(present, _)| !present)
    .map(|(_, what)| what)
    .collect::<Vec<_>>();
    if !missing.is_empty() {
        assert!(
            !required,
            "DENKMETER_REQUIRE_BROWSER=1 but missing: {missing:?}"
        );
        eprintln!("skipped: missing {missing:?} (run scripts/test.sh)");
        return false;
    }
    true
}

/// Runs `run.mjs` on this binary with `args`; every check must pass.
fn run_checks(args: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/browser");
    let output = Command::new("node")
        .arg(dir.join("run.mjs"))
        .arg(env!("CARGO_BIN_EXE_denkmeter"))
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser tests failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
