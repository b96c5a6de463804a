#!/usr/bin/env bash
# Fits paper soccer's level-3 evaluation weights by self-play
# (examples/ps_tune.rs) and writes them to the file the binary compiles in,
# crates/games/src/paper_soccer/robot/weights.txt; then plays the fitted weights
# against the hand-set ones in-process, at a fixed node count a turn.
#
#   measure/ps_tune.sh                           # as committed
#   GAMES=500 NODES=2000 measure/ps_tune.sh      # a quicker, rougher fit
#
# Self-play data goes to measure/results/ps_tune/ (not committed: it is
# remade in about 20 minutes on two cores). BENCHMARKS.md has the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${GAMES:-3000}"
NODES="${NODES:-3000}"
SEED="${SEED:-11}"
# The weights that play the self-play games: the hand set made the committed
# file; `tuned` (the compiled-in set) or a file starts a further round.
GEN_WEIGHTS="${GEN_WEIGHTS:-hand}"
MATCH_GAMES="${MATCH_GAMES:-400}"
MATCH_NODES="${MATCH_NODES:-5000}"
OUT=measure/results/ps_tune
WEIGHTS=crates/games/src/paper_soccer/robot/weights.txt
mkdir -p "$OUT"
cargo build --release --quiet --example ps_tune
TUNE="${CARGO_TARGET_DIR:-target}/release/examples/ps_tune"
# Positions from self-play games, then the fit.
"$TUNE" gen "$OUT/selfplay.txt" "$GAMES" "$NODES" "$SEED" "$GEN_WEIGHTS"
"$TUNE" fit "$WEIGHTS" "$OUT/selfplay.txt"
"$TUNE" match "$WEIGHTS" hand "$MATCH_GAMES" "$MATCH_NODES" "$SEED"
