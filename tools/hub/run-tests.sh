#!/usr/bin/env bash
# `denkmeter hub` against a real Hub client: creates a virtual environment in the target
# directory, installs pydraughts 0.6.7 there if it is missing, builds the binary (debug, unless
# PROFILE=release) and runs tools/hub/test_pydraughts.py. Takes well under two minutes.
#
#   tools/hub/run-tests.sh [test_pydraughts.py options]
set -euo pipefail
cd "$(dirname "$0")/../.."
PYDRAUGHTS_VERSION=0.6.7
PROFILE=${PROFILE:-debug}
TARGET=${CARGO_TARGET_DIR:-target}
VENV="tools/hub/.venv" # the same as scripts/test-env.sh makes

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('pydraughts') != '$PYDRAUGHTS_VERSION')" 2>/dev/null; then
    "$VENV/bin/pip" install --quiet "pydraughts==$PYDRAUGHTS_VERSION"
fi

if [ "$PROFILE" = release ]; then
    cargo build --quiet --release -p denkmeter
else
    cargo build --quiet -p denkmeter
fi

exec timeout 170 "$VENV/bin/python" tools/hub/test_pydraughts.py \
    --denkmeter "$TARGET/$PROFILE/denkmeter" --timeout 110 "$@"
