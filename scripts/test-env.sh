# Sourced by scripts/test.sh and .ci/run: installs and starts what the tests need on a fresh
# machine (Debian's postgresql and chromium, the browser-test driver from npm, pydraughts from
# PyPI in tools/hub/.venv as a real Hub client), then exports the
# variables that make the PostgreSQL and browser tests required rather than skipped.
# Usage: . scripts/test-env.sh

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Some containers come with /dev/null as a plain file. Then whatever one program throws away
# there, the next one reads back as its input: cargo's rustc probe read a build script's error
# messages as Rust source and failed. Put the device back before anything else runs.
if [ ! -c /dev/null ]; then
  echo "== /dev/null is a plain file here; recreating the device"
  { as_root mknod -m 666 /dev/null.denkmeter c 1 3 && as_root mv -f /dev/null.denkmeter /dev/null; } ||
    { echo "could not recreate /dev/null (needs root and mknod); tests may read garbage" >&2; return 1; }
fi

need=()
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "== starting PostgreSQL"
pg_bin=$(compgen -G "/usr/lib/postgresql/*/bin/postgres" | sort -V | tail -n 1)
pg_version=$(basename "$(dirname "$(dirname "$pg_bin")")")
pg_lsclusters -h | grep -q "^$pg_version main" || as_root pg_createcluster "$pg_version" main >/dev/null
pg_lsclusters -h | grep -q "^$pg_version main .* online" || as_root pg_ctlcluster "$pg_version" main start
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
pg_isready -q -h 127.0.0.1 || { echo "PostgreSQL did not start on 127.0.0.1:5432" >&2; return 1; }
as_root runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'denkmeter') THEN
    CREATE ROLE denkmeter LOGIN CREATEDB PASSWORD 'denkmeter';
  END IF;
END $$;
-- Dropping a test database WITH (FORCE) ends the sessions still on it, autovacuum's among them:
-- without this role that fails now and then ("must be a member of pg_signal_backend").
GRANT pg_signal_backend TO denkmeter;
SQL

echo "== installing the browser-test driver"
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)

echo "== installing the Hub test client (pydraughts)"
hub_venv="$PWD/tools/hub/.venv"
[ -x "$hub_venv/bin/python" ] || python3 -m venv "$hub_venv"
"$hub_venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('pydraughts') != '0.6.7')" 2>/dev/null ||
  "$hub_venv/bin/pip" install --quiet --disable-pip-version-check "pydraughts==0.6.7"

export DENKMETER_HUB_PYTHON="$hub_venv/bin/python"
export DENKMETER_REQUIRE_HUB_CLIENT=1
export DENKMETER_TEST_POSTGRES_URL="postgres://denkmeter:denkmeter@127.0.0.1:5432/postgres"
export DENKMETER_REQUIRE_POSTGRES=1
export DENKMETER_REQUIRE_BROWSER=1
