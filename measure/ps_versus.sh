#!/usr/bin/env bash
# One paper soccer engine build against another through the shared
# referee: level 3 of each, colours alternating, `--seed` per game, two
# referees side by side (one a core) with different seeds, then the
# result and its 95 % interval.
#
#   measure/ps_versus.sh NEW_BIN OLD_BIN            # 200 ms, 2 x 100 games
#   MS=1000 T=1.2 GAMES=30 measure/ps_versus.sh NEW_BIN OLD_BIN
#
# Make OLD_BIN from an older commit, e.g. in a worktree:
#   git worktree add /tmp/old REV && (cd /tmp/old && cargo build --release)
# Outputs go to measure/results/ps_versus/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 NEW_BIN OLD_BIN" >&2; exit 2; }
NEW="$1"
OLD="$2"
TOOLS="${PS_TOOLS:-../shared/tools/paper-soccer}"
[ -f "$TOOLS/referee.py" ] || { echo "no referee at $TOOLS (set PS_TOOLS)" >&2; exit 2; }
MS="${MS:-200}"
T="${T:-0.3}"
GAMES="${GAMES:-100}"
OUT="measure/results/ps_versus/ms$MS"
mkdir -p "$OUT"
engine() { echo "$1 engine paper-soccer --level 3 --ms $MS --seed $2"; }
for half in a b; do
    prefix=""
    [ "$half" = b ] && prefix=100
    rm -f "$OUT/$half.jsonl"
    mkdir -p "$OUT/stderr-$half"
    python3 "$TOOLS/referee.py" "$(engine "$NEW" "$prefix{game}")" "$(engine "$OLD" "$prefix{game}")" \
        -n "$GAMES" -t "$T" --name-a new --name-b old \
        --stderr-dir "$OUT/stderr-$half" --jsonl "$OUT/$half.jsonl" > "$OUT/$half.txt" &
done
wait
tail -n 3 "$OUT/a.txt" "$OUT/b.txt"
python3 - "$OUT" <<'EOF'
import json, math, sys, glob
wins = {"new": 0, "old": 0}
faults = {"new": 0, "old": 0}
slowest = {"new": 0.0, "old": 0.0}
games = 0
for path in glob.glob(sys.argv[1] + "/*.jsonl"):
    for line in open(path):
        g = json.loads(line)
        games += 1
        wins[g["winner"]] += 1
        if g["reason"].split(":")[0] in ("timeout", "crash", "illegal"):
            faults[g["loser"]] += 1
        for side, t in g["think"].items():
            slowest[side] = max(slowest[side], t["max_s"])
p = wins["new"] / games
half = 1.96 * math.sqrt(p * (1 - p) / games)
print(f"games {games}: new {wins['new']} - old {wins['old']}, "
      f"new's share {100 * p:.1f} % +- {100 * half:.1f} "
      f"({100 * (p - half):.1f}-{100 * (p + half):.1f} %); "
      f"faults new {faults['new']}, old {faults['old']}; "
      f"slowest turn new {slowest['new']:.3f} s, old {slowest['old']:.3f} s")
EOF
# Each engine's own line a turn: depth, nodes, time, nodes per second.
python3 - "$OUT" <<'EOF2'
import glob, re, statistics, sys
line = re.compile(r"depth (\d+) nodes (\d+) time (\d+)ms nps (\d+)k")
for side in ("new", "old"):
    turns = []
    for path in glob.glob(sys.argv[1] + "/stderr-*/game*-" + side + ".stderr"):
        for text in open(path, errors="replace"):
            m = line.search(text)
            if m:
                turns.append(tuple(int(v) for v in m.groups()))
    if not turns:
        continue
    depth, nodes, ms, nps = zip(*turns)
    deciles = statistics.quantiles(depth, n=10)
    print(f"{side}: {len(turns)} turns; depth median {statistics.median(depth)} "
          f"(10 % at most {deciles[0]:g}, 10 % at least {deciles[-1]:g}); nodes median "
          f"{statistics.median(nodes):.0f}; {statistics.median(nps):.0f} k nodes/s median; "
          f"slowest turn on its own clock {max(ms)} ms")
EOF2
