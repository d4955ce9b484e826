//! Denkmeter's draughts engine protocols driven by real clients from the package index, run as
//! part of `cargo test`: pydraughts' `HubEngine` plays whole games through `denkmeter hub`
//! against another Hub engine (`tools/hub/test_pydraughts.py`), and pydraughts' `DXPEngine`
//! plays a whole game as the initiator against `denkmeter dxp --listen`
//! (`tools/dxp/test_pydraughts.py`), pydraughts refereeing every move. The peer-match
//! harness's shared part is checked against the binary too (`tools/peers/test_common.py`).
//!
//! They need a Python with pydraughts 0.6.7, named by `DENKMETER_HUB_PYTHON`;
//! `scripts/test-env.sh` installs one in `tools/hub/.venv` and sets
//! `DENKMETER_REQUIRE_HUB_CLIENT=1`, which makes a missing client a failure instead of a skip.

use std::path::Path;
use std::process::Command;

/// Runs a client script against this build's binary with a watchdog of `timeout` seconds;
/// it must pass. Skipped (unless required) without a Python that has pydraughts.
fn client_passes(script: &str, timeout: &str) {
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
        .arg(root.join(script))
        .args([
            "--denkmeter",
            env!("CARGO_BIN_EXE_denkmeter"),
            "--timeout",
            timeout,
        ])
        .current_dir(&root)
        .output()
        .unwrap_or_else(|e| panic!("{python} does not start: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("PASS"), "{stdout}\n{stderr}");
}

#[test]
fn a_real_hub_client_plays_whole_games_through_denkmeter_hub() {
    client_passes("tools/hub/test_pydraughts.py", "110");
}

#[test]
fn a_real_dxp_client_plays_a_whole_game_against_denkmeter_dxp() {
    client_passes("tools/dxp/test_pydraughts.py", "45");
}

/// The peer-match harness (`tools/peers/`, standard library only in its shared part) reads
/// this build's move lists: numbers, and what each capture takes (`moves --captured`).
#[test]
fn the_peer_harness_reads_denkmeters_moves() {
    client_passes("tools/peers/test_common.py", "60");
}
