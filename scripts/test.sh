#!/usr/bin/env bash
# Every test, on a fresh machine: installs what the tests need (Debian's postgresql and chromium,
# the browser-test driver from npm), starts PostgreSQL, then runs the Rust tests (release build)
# on SQLite and PostgreSQL, and the browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "== starting PostgreSQL"
version=$(basename "$(dirname "$(dirname "$(compgen -G "/usr/lib/postgresql/*/bin/postgres" | sort -V | tail -n 1)")")")
pg_lsclusters -h | grep -q "^$version main" || as_root pg_createcluster "$version" main >/dev/null
pg_lsclusters -h | grep -q "^$version main .* online" || as_root pg_ctlcluster "$version" main start
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
pg_isready -q -h 127.0.0.1 || { echo "PostgreSQL did not start on 127.0.0.1:5432" >&2; exit 1; }
as_root runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'denkmeter') THEN
    CREATE ROLE denkmeter LOGIN CREATEDB PASSWORD 'denkmeter';
  END IF;
END $$;
SQL
export DENKMETER_TEST_POSTGRES_URL="postgres://denkmeter:denkmeter@127.0.0.1:5432/postgres"
export DENKMETER_REQUIRE_POSTGRES=1

echo "== Rust tests"
cargo test --release --workspace

echo "== browser tests"
cargo build --release -p denkmeter
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
node tests/browser/run.mjs "$PWD/target/release/denkmeter"

echo "== all tests passed"
