#!/usr/bin/env bash
# Paper soccer's robot levels in real matches, through the referee of the
# shared tools (it checks every turn against its own rules code, and a
# faulty, incomplete or late turn loses): level 3 against the random
# baseline at the real budget, then each pair of levels over 100
# colour-swapped games at a smaller budget so the run finishes.
#
#   measure/paper_soccer.sh                  # all four matches
#   GAMES=20 MS=200 measure/paper_soccer.sh  # shorter pair matches
#
# Outputs go to measure/results/paper_soccer/; BENCHMARKS.md has the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${PS_TOOLS:-../shared/tools/paper-soccer}"
[ -f "$TOOLS/referee.py" ] || { echo "no referee at $TOOLS (set PS_TOOLS)" >&2; exit 2; }
cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/smsarena"
OUT=measure/results/paper_soccer
mkdir -p "$OUT"
GAMES="${GAMES:-100}"
MS="${MS:-100}"
engine() { echo "$BIN engine paper-soccer --level $1 --ms $2 --seed {game}"; }

python3 "$TOOLS/referee.py" "$(engine 3 1000)" "python3 $TOOLS/random_engine.py --seed {game}" \
    -n 20 -t 2 -v --name-a level3 --name-b random > "$OUT/level3-vs-random.txt"
tail -n 3 "$OUT/level3-vs-random.txt"
for pair in "1 2" "2 3" "1 3"; do
    set -- $pair
    python3 "$TOOLS/referee.py" "$(engine "$1" "$MS")" "$(engine "$2" "$MS")" \
        -n "$GAMES" -t 1 --name-a "level$1" --name-b "level$2" > "$OUT/level$1-vs-level$2.txt"
    tail -n 3 "$OUT/level$1-vs-level$2.txt"
done
