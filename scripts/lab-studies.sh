#!/usr/bin/env bash
# Regenerates every figure of docs/lab.md: the studies below, each from seed 1, into one SQLite
# database, with each study's report (text, JSON, CSV) and charts under docs/lab/. A study
# already in the database goes on where it stopped, so an interrupted run is resumed by running
# this again. Usage: scripts/lab-studies.sh [DENKMETER-BINARY] [CONCURRENCY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/denkmeter}
threads=${2:-2}
db=${LAB_DATABASE:-sqlite://lab-studies.db}
out=docs/lab
mkdir -p "$out"

study() {
  local name=$1
  shift
  echo "== $name: denkmeter lab $*" >&2
  "$bin" lab "$@" --seed 1 --concurrency "$threads" --database "$db" \
    --json "$out/$name.json" --csv "$out/$name.csv" --charts "$out/$name" >"$out/$name.txt"
}

study scandinavian \
  scandinavian scandinavian-free scandinavian-medium scandinavian-medium-free \
  scandinavian-weak scandinavian-weak-free scandinavian-8x8 scandinavian-8x8-free \
  scandinavian-8x8-medium scandinavian-8x8-medium-free scandinavian-8x8-weak \
  scandinavian-8x8-weak-free --players ab:d2,ab:d4 --games 50
study straat straat straat-diagonal straat-flip --players ab:d2,ab:d4 --games 100
study schada schada --players ab:d2,ab:d4 --games 100
study schada-boards schada schada@docs/lab/boards/longer-paths.txt --players ab:d2,ab:d4 --games 100
study trangalla trangalla --players ab:d2,ab:d4 --games 100
study shakti shakti --players ab:d1,ab:d2,ab:d3,ab:d4 --games 60
study sjekkers sjekkers sjekkers-sideways sjekkers-checkers --players ab:d2,ab:d4 --games 50
study kamelen kamelen kamelen-11x12 kamelen-11x13 --players ab:d2,ab:d4 --games 50
study chad chad --players ab:d1,ab:d2,ab:d3 --games 60
study fort-chitral fort-chitral fort-chitral-no-loss-at-three fort-chitral-orthogonal \
  --players ab:d1,ab:d2,ab:d3 --games 40
