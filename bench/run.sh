#!/usr/bin/env bash
# Issue 6 load run: builds release, starts the gateway on a fresh SQLite file in
# a temporary folder with the generic provider pointed at the generator's capture
# server, runs `smsarena bench` against it, prints the gateway's memory from
# /proc, and stops everything.
#
#   bench/run.sh [smsarena bench options]        e.g.
#   bench/run.sh --baseline --duration 20s --matches 256 --connections 64
#   bench/run.sh --rate 1000 --duration 20s
#   SMSARENA_DATABASE__MAX_BATCH=512 bench/run.sh --matches 10000 --duration 30s
#   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432 bench/run.sh --duration 20s
#
# Any SMSARENA_* variable in the environment configures the gateway as usual
# (the log filter defaults to warn here). BENCH_DIR puts the database folder
# elsewhere (default: a fresh mktemp -d). BENCH_POSTGRES names a PostgreSQL
# server instead: the run creates a fresh database on it and drops it after.
# The exit code is the generator's: 0 when every check passed.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release -j "${BUILD_JOBS:-1}" --quiet
BIN="$CARGO_TARGET_DIR/release/smsarena"

WORK="${BENCH_DIR:-$(mktemp -d)}"
mkdir -p "$WORK"
GATEWAY_PORT="${GATEWAY_PORT:-18080}"
CAPTURE_PORT="${CAPTURE_PORT:-19099}"
if [ -n "${BENCH_POSTGRES:-}" ]; then
    PG_DB="smsarena_bench_$$"
    psql -q "$BENCH_POSTGRES/postgres" -c "CREATE DATABASE $PG_DB"
    DB="$BENCH_POSTGRES/$PG_DB"
    DB_URL="$DB"
else
    DB="$WORK/bench-$$.db"
    DB_URL="sqlite://$DB"
fi

SMSARENA_HTTP__LISTEN="127.0.0.1:$GATEWAY_PORT" \
SMSARENA_DATABASE__URL="$DB_URL" \
SMSARENA_SMS__PROVIDER=generic \
SMSARENA_SMS__GENERIC__URL="http://127.0.0.1:$CAPTURE_PORT/capture" \
SMSARENA_LOG__FILTER="${SMSARENA_LOG__FILTER:-warn}" \
    "$BIN" serve >"$WORK/gateway-$$.log" 2>&1 &
GATEWAY=$!

stop() {
    if kill -0 "$GATEWAY" 2>/dev/null; then
        kill -TERM "$GATEWAY"
        wait "$GATEWAY" || true
    fi
    if [ -s "$WORK/gateway-$$.log" ]; then
        echo "--- gateway log (last lines)"
        tail -n 5 "$WORK/gateway-$$.log"
    fi
    if [ -z "${BENCH_DIR:-}" ]; then rm -rf "$WORK"; fi
    if [ -n "${PG_DB:-}" ]; then
        psql -q "$BENCH_POSTGRES/postgres" -c "DROP DATABASE IF EXISTS $PG_DB" || true
    fi
}
trap stop EXIT

echo "gateway pid $GATEWAY, database $DB, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
status=0
"$BIN" bench \
    --gateway "http://127.0.0.1:$GATEWAY_PORT" \
    --capture "127.0.0.1:$CAPTURE_PORT" \
    --gateway-pid "$GATEWAY" \
    --db "$DB" \
    "$@" || status=$?
echo "gateway /proc/$GATEWAY/status: $(grep -E 'VmHWM|VmRSS' "/proc/$GATEWAY/status" | tr -s ' \n' ' ')"
if [ -z "${PG_DB:-}" ]; then
    echo "database: $(du -h "$DB" | cut -f1) (+ WAL $(du -h "$DB-wal" 2>/dev/null | cut -f1))"
fi
exit "$status"
