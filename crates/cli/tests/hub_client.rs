//! `denkmeter hub` driven by a real Hub client from the package index: pydraughts' `HubEngine`
//! plays whole games through it against another Hub engine (`tools/hub/test_pydraughts.py`),
//! run as part of `cargo test`.
//!
//! It needs a Python with pydraughts 0.6.7, named by `DENKMETER_HUB_PYTHON`;
//! `scripts/test-env.sh` installs one in `tools/hub/.venv` and sets
//! `DENKMETER_REQUIRE_HUB_CLIENT=1`, which makes a missing client a failure instead of a skip.

use std::path::Path;
use std::process::Command;

#[test]
fn a_real_hub_client_plays_whole_games_through_denkmeter_hub() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let required = std::env::var("DENKMETER_REQUIRE_HUB_CLIENT").as_deref() == Ok("1");
    let Ok(python) = std::env::var("DENKMETER_HUB_PYTHON") else {
        assert!(
            !required,
            "DENKMETER_REQUIRE_HUB_CLIENT=1 but DENKMETER_HUB_PYTHON is not set"
        );
        eprintln!("skipped: no DENKMETER_HUB_PYTHON (run scripts/test.sh)");
        return;
    };
    let output = Command::new(&python)
        .arg(root.join("tools/hub/test_pydraughts.py"))
        .args([
            "--denkmeter",
            env!("CARGO_BIN_EXE_denkmeter"),
            "--timeout",
            "110",
        ])
        .current_dir(&root)
        .output()
        .unwrap_or_else(|e| panic!("{python} does not start: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Hub client's games failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("PASS"), "{stdout}\n{stderr}");
}
