#!/usr/bin/env bash
# Mines the shipped puzzle sets (puzzles/FAMILY.jsonl) and the problem collections
# (puzzles/problems/) from self-play, from fixed seeds: the same binary and options give the same
# files, whatever THREADS (default 2). Usage: scripts/mine-puzzles.sh [FAMILY...] (default: every
# family); PROBLEMS=0 leaves the problem collections alone. Each family's longest win is set by
# how fast its solver's trees grow: Chad's and Fort Chitral's many moves keep them at two.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p denkmeter
denkmeter=target/release/denkmeter
threads=${THREADS:-2}
mine() {
    local family=$1
    shift
    echo "== $family" >&2
    "$denkmeter" puzzles mine --family "$family" --count 200 --seed 2026 --threads "$threads" \
        --out "puzzles/$family.jsonl" "$@"
}
families=("$@")
if [ ${#families[@]} -eq 0 ]; then
    families=(chad shakti schada scandinavian international english sjekkers kamelen
        fort-chitral straat trangalla)
fi
# The problem collections (puzzles/problems/FAMILY.jsonl): long wins from the last plies of
# self-play games, as in the problem sections of Freeling's article on Chad and Shakti.
problems() {
    local family=$1
    shift
    echo "== $family problems" >&2
    "$denkmeter" puzzles mine --family "$family" --count 24 --threads "$threads" \
        --out "puzzles/problems/$family.jsonl" "$@"
}
for family in "${families[@]}"; do
    case $family in
    chad | fort-chitral) mine "$family" --max-moves 2 ;;
    # Straat's computer plays slowly (Monte Carlo, then the exact solver): random players
    # blunder enough.
    straat) mine "$family" --max-moves 2 --player random ;;
    *) mine "$family" --max-moves 3 ;;
    esac
done
if [ "${PROBLEMS:-1}" = 1 ]; then
    problems chad --seed 1979 --min-moves 3 --max-moves 4 --last-plies 16
    problems shakti --seed 1982 --min-moves 4 --max-moves 5 --last-plies 24
fi
