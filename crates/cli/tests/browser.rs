//! The browser tests (`tests/browser/run.mjs`: playwright-core driving Debian's Chromium against
//! this binary's `serve`), run as part of `cargo test`.
//!
//! They need Node.js, `/usr/bin/chromium` and `npm ci` in `tests/browser`; `scripts/test-env.sh`
//! provides all three and sets `DENKMETER_REQUIRE_BROWSER=1`, which makes a missing piece a
//! failure instead of a skip.

use std::path::Path;
use std::process::Command;

#[test]
fn browser_tests_pass() {
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
        return;
    }
    let output = Command::new("node")
        .arg(dir.join("run.mjs"))
        .arg(env!("CARGO_BIN_EXE_denkmeter"))
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
