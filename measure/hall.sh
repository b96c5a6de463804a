#!/usr/bin/env bash
# The training hall under load (issue 25): builds release, starts the gateway
# on a fresh SQLite file with the hall's own limits off (every virtual phone
# comes from this one address), and runs `smsarena-loadgen --hall-phones N`:
# N virtual phones, each playing SMS football against robots as a page
# would, timing each typed move to its reply on the page.
#
#   measure/hall.sh                       100 phones, 20 s
#   PHONES=100 DURATION=30s measure/hall.sh
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release -j "${BUILD_JOBS:-1}" --quiet
BIN="$CARGO_TARGET_DIR/release/smsarena"
LOADGEN="$CARGO_TARGET_DIR/release/smsarena-loadgen"
WORK=$(mktemp -d)
PORT="${GATEWAY_PORT:-18081}"
SMSARENA_HTTP__LISTEN="127.0.0.1:$PORT" \
SMSARENA_DATABASE__URL="sqlite://$WORK/hall.db" \
SMSARENA_LIMITS__PHONE_PER_MINUTE=0 \
SMSARENA_HALL__PHONES_PER_HOUR=0 \
SMSARENA_HALL__TEXTS_PER_MINUTE=0 \
SMSARENA_LOG__FILTER="${SMSARENA_LOG__FILTER:-warn}" \
    "$BIN" serve --config /dev/null >"$WORK/gateway.log" 2>&1 &
GATEWAY=$!
trap 'kill -TERM $GATEWAY 2>/dev/null; wait $GATEWAY 2>/dev/null; tail -n 5 "$WORK/gateway.log"; rm -rf "$WORK"' EXIT
status=0
"$LOADGEN" --gateway "http://127.0.0.1:$PORT" \
    --hall-phones "${PHONES:-100}" --duration "${DURATION:-20s}" || status=$?
echo "gateway: CPU $(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$GATEWAY/stat") s; $(grep VmHWM "/proc/$GATEWAY/status" | tr -s ' ')"
exit "$status"
