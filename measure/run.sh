#!/usr/bin/env bash
# Issue 6 load run: builds release, starts the gateway on a fresh SQLite file in
# a temporary folder with the generic provider pointed at the generator's capture
# server, runs `smsarena-loadgen` against it, prints the gateway's memory from
# /proc, and stops everything.
#
#   measure/run.sh [smsarena-loadgen options]        e.g.
#   measure/run.sh --baseline --duration 20s --matches 256 --connections 64
#   measure/run.sh --rate 1000 --duration 20s
#   measure/run.sh --duration 20s --robot-matches 100     # then as long again beside 100 P FB BOT matches
#   SMSARENA_DATABASE__MAX_BATCH=512 measure/run.sh --matches 10000 --duration 30s
#   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432 measure/run.sh --duration 20s
#   BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432 INSTANCES=3 measure/run.sh --duration 20s
#   BENCH_BIN=/tmp/smsarena-before measure/run.sh --duration 20s   # a binary built elsewhere
#   WATCH=1 measure/run.sh --duration 20s   # with /metrics scraped every second and a
#                                           # console page open (its summary every 10 s)
#
# The gateway runs on its built-in defaults (--config /dev/null: no file), so a
# binary of another commit runs the same way. Any SMSARENA_* variable in the
# environment configures the gateway as usual
# (the log filter defaults to warn here). BENCH_DIR puts the database folder
# elsewhere (default: a fresh mktemp -d). BENCH_POSTGRES names a PostgreSQL
# server instead: the run creates a fresh database on it and drops it after.
# The exit code is the generator's: 0 when every check passed.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
if [ -n "${BENCH_BIN:-}" ]; then
    # A gateway built elsewhere (another commit), for alternating runs of two
    # builds; the load generator is this tree's.
    BIN="$BENCH_BIN"
    [ -x "$CARGO_TARGET_DIR/release/smsarena-loadgen" ] ||
        cargo build --release -j "${BUILD_JOBS:-1}" --quiet --bin smsarena-loadgen
else
    cargo build --release -j "${BUILD_JOBS:-1}" --quiet
    BIN="$CARGO_TARGET_DIR/release/smsarena"
fi
LOADGEN="${LOADGEN:-$CARGO_TARGET_DIR/release/smsarena-loadgen}"

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

# INSTANCES gateways on one PostgreSQL database (BENCH_POSTGRES), ports
# GATEWAY_PORT, GATEWAY_PORT+1, ...; the generator spreads its connections over them.
INSTANCES="${INSTANCES:-1}"
if [ "$INSTANCES" -gt 1 ] && [ -z "${PG_DB:-}" ]; then
    echo "INSTANCES > 1 needs BENCH_POSTGRES: SQLite has one writer process" >&2
    exit 2
fi
# The generator's phones text far faster than thumbs: the per-phone flood
# limit is turned off, on a binary that has one (older commits' do not know
# the setting and would refuse it).
LIMITS_ENV=()
if grep -q phone_per_minute "$BIN"; then LIMITS_ENV=(SMSARENA_LIMITS__PHONE_PER_MINUTE=0); fi
PIDS=()
URLS=()
for i in $(seq 0 $((INSTANCES - 1))); do
    port=$((GATEWAY_PORT + i))
    env "${LIMITS_ENV[@]}" \
    SMSARENA_HTTP__LISTEN="127.0.0.1:$port" \
    SMSARENA_DATABASE__URL="$DB_URL" \
    SMSARENA_SMS__PROVIDER=generic \
    SMSARENA_SMS__GENERIC__URL="http://127.0.0.1:$CAPTURE_PORT/capture" \
    SMSARENA_LOG__FILTER="${SMSARENA_LOG__FILTER:-warn}" \
    SMSARENA_ADMIN__TOKEN="${SMSARENA_ADMIN__TOKEN:-bench}" \
        "$BIN" serve --config /dev/null >"$WORK/gateway-$$-$i.log" 2>&1 &
    PIDS+=($!)
    URLS+=("http://127.0.0.1:$port")
    # The first instance migrates the database before the others start.
    if [ "$i" -eq 0 ] && [ "$INSTANCES" -gt 1 ]; then sleep 2; fi
done
GATEWAY=${PIDS[0]}

stop() {
    for pid in "${PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid"
            wait "$pid" || true
        fi
    done
    for log in "$WORK"/gateway-$$-*.log; do
        if [ -s "$log" ]; then
            echo "--- $(basename "$log") (last lines)"
            tail -n 5 "$log"
        fi
    done
    if [ -z "${BENCH_DIR:-}" ]; then rm -rf "$WORK"; fi
    if [ -n "${PG_DB:-}" ]; then
        psql -q "$BENCH_POSTGRES/postgres" -c "DROP DATABASE IF EXISTS $PG_DB" || true
    fi
}
trap stop EXIT

cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$1/stat"; }
# PostgreSQL's own CPU, in clock ticks: every postgres process's, and what
# the backends that exited left with the postmaster (its children's time).
pg_ticks() {
    local total=0 pid ticks
    for pid in $(pgrep -x postgres); do
        ticks=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null) || continue
        total=$((total + ticks))
    done
    echo "$total"
}

# Lock timeouts and deadlocks are errors in PostgreSQL's own log (the gateway
# runs such a caller again): counted from the part of the log this run wrote.
PG_LOG="${PG_LOG:-$(ls /var/log/postgresql/postgresql-*-main.log 2>/dev/null | head -n 1)}"
if [ -n "${PG_DB:-}" ] && [ -r "$PG_LOG" ]; then PG_LOG_FROM=$(stat -c %s "$PG_LOG"); fi

echo "gateway pids ${PIDS[*]}, database $DB, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
# WATCH=1: an operator watches while the phones play: Prometheus scrapes
# /metrics every second and a console page asks for its summary every ten
# (as its script does). Each scrape's time is kept; after the run, the CPU
# one scrape costs the gateway is measured over SCRAPES back-to-back.
token="${SMSARENA_ADMIN__TOKEN:-bench}"
if [ -n "${WATCH:-}" ]; then
    (
        tick=0
        until [ -e "$WORK/stop-watch" ]; do
            curl -s -o /dev/null -w '%{time_total}\n' "${URLS[0]}/metrics" >>"$WORK/scrapes"
            if [ $((tick % 10)) -eq 0 ]; then
                curl -s -o /dev/null -H "Authorization: Bearer $token" "${URLS[0]}/console/api/summary"
            fi
            tick=$((tick + 1))
            sleep 1
        done
    ) &
    WATCHER=$!
fi
status=0
if [ -n "${PG_DB:-}" ]; then PG_TICKS_FROM=$(pg_ticks); fi
"$LOADGEN" \
    --gateway "$(IFS=,; echo "${URLS[*]}")" \
    --capture "127.0.0.1:$CAPTURE_PORT" \
    --gateway-pid "$GATEWAY" \
    --db "$DB" \
    --admin-token "${SMSARENA_ADMIN__TOKEN:-bench}" \
    "$@" || status=$?
if [ -n "${WATCHER:-}" ]; then
    touch "$WORK/stop-watch"
    wait "$WATCHER" || true
    echo "watch: $(wc -l <"$WORK/scrapes") scrapes during the run, median $(sort -n "$WORK/scrapes" | awk '{a[NR]=$1} END {printf "%.1f ms", 1000 * a[int((NR + 1) / 2)]}'), max $(sort -n "$WORK/scrapes" | tail -n 1 | awk '{printf "%.1f ms", 1000 * $1}')"
    scrapes="${SCRAPES:-500}"
    before=$(awk '{print $14 + $15}' "/proc/$GATEWAY/stat")
    started=$(date +%s%N)
    for _ in $(seq 1 "$scrapes"); do curl -s -o /dev/null "${URLS[0]}/metrics"; done
    elapsed=$(( ($(date +%s%N) - started) / 1000 ))
    after=$(awk '{print $14 + $15}' "/proc/$GATEWAY/stat")
    echo "one scrape: $(awk -v t="$((after - before))" -v hz="$(getconf CLK_TCK)" -v n="$scrapes" 'BEGIN {printf "%.2f ms", 1000 * t / hz / n}') of the gateway's CPU, $(awk -v us="$elapsed" -v n="$scrapes" 'BEGIN {printf "%.2f ms", us / 1000 / n}') wall (curl included), over $scrapes back-to-back; $(curl -s "${URLS[0]}/metrics" | wc -c) bytes"
fi
for pid in "${PIDS[@]}"; do
    echo "gateway $pid: CPU $(cpu_seconds "$pid") s in all; $(grep -E 'VmHWM|VmRSS' "/proc/$pid/status" | tr -s ' \n' ' ')"
done
if [ -n "${PG_TICKS_FROM:-}" ]; then
    # Issue 30, item 2: PostgreSQL's CPU per text, this run's database being
    # the only one at work. Every inbound text of the run counts (registrations too).
    pg_used=$(($(pg_ticks) - PG_TICKS_FROM))
    read -r texts_in texts_out < <(psql -tA -F ' ' "$DB" -c "SELECT (SELECT count(*) FROM inbound), (SELECT count(*) FROM outbox)")
    echo "postgres CPU: $(awk -v t="$pg_used" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f s", t / hz}') for $texts_in inbound texts ($texts_out outbound): $(awk -v t="$pg_used" -v hz="$(getconf CLK_TCK)" -v n="$texts_in" 'BEGIN {printf "%.3f ms", n ? 1000 * t / hz / n : 0}') per inbound text"
fi
if [ -n "${PG_LOG_FROM:-}" ]; then
    tail -c +$((PG_LOG_FROM + 1)) "$PG_LOG" >"$WORK/postgres-$$.log"
    echo "postgres log: $(grep -c 'canceling statement due to lock timeout' "$WORK/postgres-$$.log" || true) lock timeouts, $(grep -c 'deadlock detected' "$WORK/postgres-$$.log" || true) deadlocks"
fi
if [ -z "${PG_DB:-}" ]; then
    echo "database: $(du -h "$DB" | cut -f1) (+ WAL $(du -h "$DB-wal" 2>/dev/null | cut -f1))"
fi
exit "$status"
