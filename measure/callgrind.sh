#!/usr/bin/env bash
# The steady figure beside the noisy ones: the gateway's instructions per
# inbound message, counted by valgrind's callgrind over a fixed run of
# `smsarena-loadgen` (registrations, P, moves and every text they send out).
# Instruction counts do not depend on what else the machine is doing, so two
# builds compare even when throughput wanders.
#
#   measure/callgrind.sh                       # SQLite, 3000 messages, 8 connections
#   BIN=/path/to/other/smsarena measure/callgrind.sh
#   MESSAGES=5000 BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432 measure/callgrind.sh
#   CALLGRIND_OUT=/tmp/cg.out measure/callgrind.sh && callgrind_annotate /tmp/cg.out | head -40
#
# The matches' seeds are drawn at random, so two runs of one binary differ a
# little (under 1 % seen); compare builds over two runs each.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${BIN:-$PWD/target/release/smsarena}"
[ -x "$BIN" ] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
# The load generator, which valgrind does not watch: this tree's, whichever gateway is measured.
LOADGEN="${LOADGEN:-$PWD/target/release/smsarena-loadgen}"
[ -x "$LOADGEN" ] || { echo "no load generator at $LOADGEN (cargo build --release)" >&2; exit 2; }
MESSAGES="${MESSAGES:-3000}"
CONNECTIONS="${CONNECTIONS:-8}"
MATCHES="${MATCHES:-16}"
WORK="$(mktemp -d)"
GATEWAY_PORT="${GATEWAY_PORT:-18180}"
CAPTURE_PORT="${CAPTURE_PORT:-19199}"
if [ -n "${BENCH_POSTGRES:-}" ]; then
    PG_DB="smsarena_callgrind_$$"
    psql -q "$BENCH_POSTGRES/postgres" -c "CREATE DATABASE $PG_DB"
    DB="$BENCH_POSTGRES/$PG_DB"
    DB_URL="$DB"
else
    DB="$WORK/callgrind.db"
    DB_URL="sqlite://$DB"
fi

# The generator's phones text far faster than thumbs: the per-phone flood
# limit is turned off, on a binary that has one (older commits' do not know
# the setting and would refuse it).
LIMITS_ENV=()
if grep -q phone_per_minute "$BIN"; then LIMITS_ENV=(SMSARENA_LIMITS__PHONE_PER_MINUTE=0); fi
env "${LIMITS_ENV[@]}" \
SMSARENA_HTTP__LISTEN="127.0.0.1:$GATEWAY_PORT" \
SMSARENA_DATABASE__URL="$DB_URL" \
SMSARENA_SMS__PROVIDER=generic \
SMSARENA_SMS__GENERIC__URL="http://127.0.0.1:$CAPTURE_PORT/capture" \
SMSARENA_LOG__FILTER=warn \
    valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" \
    "$BIN" serve --config /dev/null >"$WORK/gateway.log" 2>&1 &
PID=$!
stop() {
    kill -TERM "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    if [ -n "${PG_DB:-}" ]; then
        psql -q "$BENCH_POSTGRES/postgres" -c "DROP DATABASE IF EXISTS $PG_DB" || true
    fi
    rm -rf "$WORK"
}
trap stop EXIT

for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$GATEWAY_PORT/healthz" >/dev/null && break
    sleep 0.2
done
# Count from here: start-up and migrations are not the service's work per message.
callgrind_control -z "$PID" >/dev/null
"$LOADGEN" --gateway "http://127.0.0.1:$GATEWAY_PORT" --capture "127.0.0.1:$CAPTURE_PORT" \
    --matches "$MATCHES" --connections "$CONNECTIONS" --messages "$MESSAGES" \
    --duration 3600s --drain 300s --db "$DB" >"$WORK/bench.txt" 2>&1 || {
    cat "$WORK/bench.txt" "$WORK/gateway.log"; echo "the bench run failed" >&2; exit 1; }
callgrind_control -d "$PID" >/dev/null
sleep 1
# The bench counts the messages after the first P; the registrations come before.
played=$(awk '/^inbound messages/ {print $3}' "$WORK/bench.txt")
inbound=$((played + 4 * MATCHES))
outbound=$(awk '/^outbound texts/ {print $3}' "$WORK/bench.txt")
# The dump written by -d: the file whose name carries the pid and a part number.
dump=$(ls -t "$WORK"/callgrind.out."$PID".* | head -n 1)
total=$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")
# CALLGRIND_OUT=FILE keeps the dump, for callgrind_annotate.
if [ -n "${CALLGRIND_OUT:-}" ]; then cp "$dump" "$CALLGRIND_OUT"; fi
grep -E '^(RESULT|  \[)' "$WORK/bench.txt"
echo "binary $BIN"
echo "inbound messages $inbound ($((4 * MATCHES)) R, then P and moves), outbound texts $outbound"
echo "instructions $total in all; $((total / inbound)) per inbound message"
