#!/usr/bin/env bash
# Makes a virtual environment with the peer engines of tools/peers/requirements.txt.
#
#   tools/peers/setup.sh [VENV]      (default: target/peers-venv under the repository root)
#
# PYTHON picks the interpreter (default python3). The pinned wheels exist for CPython 3.11.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${1:-$root/target/peers-venv}
python=${PYTHON:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
    echo "setup.sh: no Python interpreter '$python' (set PYTHON)" >&2
    exit 1
fi
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ "$version" != "3.11" ]; then
    echo "setup.sh: warning: $python is Python $version; the pinned wheels are for 3.11" >&2
fi

"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$here/requirements.txt"
"$venv/bin/python" - <<'PY'
import dame
import pyspiel
print(f"dame-rs {dame.__version__}, OpenSpiel checkers: {pyspiel.load_game('checkers')}")
PY
echo "ready: $venv/bin/python $here/match_dame.py --help"
