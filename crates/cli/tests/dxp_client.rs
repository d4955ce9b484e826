//! `denkmeter dxp` driven by a real DXP client from the package index: pydraughts'
//! `DXPEngine` plays a whole game as the initiator against `denkmeter dxp --listen`, refereeing
//! every move (`tools/dxp/test_pydraughts.py`), run as part of `cargo test`.
//!
//! It needs a Python with pydraughts 0.6.7, named by `DENKMETER_HUB_PYTHON` (the same one as
//! the Hub client's test); `DENKMETER_REQUIRE_HUB_CLIENT=1` makes a missing client a failure
//! instead of a skip.

use std::path::Path;
use std::process::Command;

#[test]
fn a_real_dxp_client_plays_a_whole_game_against_denkmeter_dxp() {
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
        .arg(root.join("tools/dxp/test_pydraughts.py"))
        .args([
            "--denkmeter",
            env!("CARGO_BIN_EXE_denkmeter"),
            "--timeout",
            "45",
        ])
        .current_dir(&root)
        .output()
        .unwrap_or_else(|e| panic!("{python} does not start: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the DXP client's game failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("PASS"), "{stdout}\n{stderr}");
}
