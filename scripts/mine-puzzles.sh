#!/usr/bin/env bash
# Mines the shipped puzzle sets (puzzles/FAMILY.jsonl) from self-play, from fixed seeds: the
# same binary and options give the same files. Usage: scripts/mine-puzzles.sh [FAMILY...]
# (default: every family). Each family's longest win is set by how fast its solver's trees
# grow: Chad's and Fort Chitral's many moves keep them at two.
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
for family in "${families[@]}"; do
    case $family in
    chad | fort-chitral) mine "$family" --max-moves 2 ;;
    # Straat's computer plays slowly (Monte Carlo, then the exact solver): random players
    # blunder enough.
    straat) mine "$family" --max-moves 2 --player random ;;
    *) mine "$family" --max-moves 3 ;;
    esac
done
