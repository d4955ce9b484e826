#!/usr/bin/env bash
# The lab on PostgreSQL: one worker against two, the same study (the same games) in two fresh
# databases; games per second and the CPU time of the postgres processes per game. Needs psql
# and a role that may create databases (scripts/test-env.sh sets one up).
# Usage: [GAMES=400] [PLAYER=ab:d4] scripts/lab-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B=${DENKMETER:-target/release/denkmeter}
ADMIN=${DENKMETER_TEST_POSTGRES_URL:-postgres://denkmeter:denkmeter@127.0.0.1:5432/postgres}
GAMES=${GAMES:-400}
PLAYER=${PLAYER:-ab:d4}
pgcpu() { local t=0; for p in $(pgrep -x postgres); do read -r -a f < /proc/$p/stat 2>/dev/null || continue; t=$((t + f[13] + f[14] + f[15] + f[16])); done; echo $t; }
for workers in 1 2; do
  db=labscale$workers
  psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -qc "CREATE DATABASE $db" >/dev/null
  url=${ADMIN%/*}/$db
  $B lab scandinavian-8x8 --players $PLAYER --games $GAMES --seed 5 --database $url --concurrency 0 > /tmp/scale-follow-$workers.txt 2>&1 &
  follower=$!
  until $B lab list --database $url 2>/dev/null | grep -q "0/$GAMES games"; do sleep 0.2; done
  c0=$(pgcpu); s=$(date +%s.%N)
  pids=()
  for i in $(seq 1 $workers); do $B lab worker --database $url --concurrency 1 > /tmp/scale-w$workers-$i.txt 2>&1 & pids+=($!); done
  wait "${pids[@]}"
  e=$(date +%s.%N); c1=$(pgcpu)
  wait $follower
  secs=$(echo "$e - $s" | bc)
  echo "$workers worker(s): $GAMES games in $secs s = $(echo "scale=2; $GAMES / $secs" | bc) games/s; postgres CPU $(echo "scale=3; ($c1 - $c0) / 100" | bc) s = $(echo "scale=3; ($c1 - $c0) * 10 / $GAMES" | bc) ms a game"
  cat /tmp/scale-w$workers-*.txt | grep worker
  grep -A3 "first-player" /tmp/scale-follow-$workers.txt | head -3
done
