#!/usr/bin/env bash
# Every test, on a fresh machine: sets up PostgreSQL, Chromium and the browser-test driver
# (scripts/test-env.sh), then runs the whole Rust test suite in release mode, which includes the
# API tests on SQLite and PostgreSQL and the browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/test-env.sh
cargo test --release --workspace "$@"
