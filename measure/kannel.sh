#!/usr/bin/env bash
# Behind Kannel, is the gateway the bottleneck? A real Kannel (bearerbox,
# smsbox, fakesmsc) carries a burst of registrations three times in one run:
#
#   trivial   smsbox's get-url is the gateway's /ping: it answers "pong" at
#             once, and smsbox sends that back to the phone as the reply;
#   answer    smsbox's get-url is /webhooks/kannel: each text and its reply
#             are committed to the SQLite file before the 200, whose body is
#             the reply (sms.kannel.answer_max_parts = 10), which smsbox sends;
#   sendsms   the same, but the reply is queued in the outbox, and the
#             dispatcher hands it to smsbox's sendsms after the commit.
#
# Both ways every incoming text makes one outgoing text. The figure is the
# texts per second from fakesmsc's first text to bearerbox having passed the
# last reply to the SMSC (its status page's "sent" count), and the ratio of
# the two.
#
#   measure/kannel.sh                    # 3000 texts, each way once, trivial first
#   KINDS=answer ROUNDS=3 measure/kannel.sh
#   MESSAGES=6000 ROUNDS=3 measure/kannel.sh
#   BENCH_BIN=/tmp/smsarena-before measure/kannel.sh
#   CORES=split measure/kannel.sh        # only with a core each
#
# Each round is run twice (CORES, default "shared split"): sharing both
# cores, as a single small machine would, and with a core each by taskset:
# Kannel's boxes and fakesmsc on core 0, the gateway on core 1, as Kannel on
# a machine of its own would see the gateway. The ratio with a core each is
# the gateway's own share of the bound; sharing, Kannel's smsbox takes about
# a core from it.
#
# fakesmsc makes the texts itself (-m, -i 0, -z 5: a random phone number,
# and the random number fakesmsc appends to the text as the nick, so each
# text is "R 1473206270", a registration), so nothing is lost on the way in;
# a phone drawn twice registers again under its new nick, which is a write
# and a reply too. Any SMSARENA_* variable in the environment configures the
# gateway as usual.
#
#   CALLGRIND=1 MESSAGES=2000 CORES=shared measure/kannel.sh
#
# runs bearerbox, smsbox and fakesmsc under callgrind and prints Kannel's
# instructions per text each way, counted during the burst: the same on a
# noisy machine, and, by function, where Kannel's work for a real reply
# goes beside its work for "pong". With a core each Kannel's core is the
# bound, so its work per text, not the gateway's, sets the texts/s ratio.
# Callgrind counts Kannel's own code (user space), not the kernel's work
# for its system calls. TRIVIAL_QUERY (say the webhook's own query) gives
# /ping the same request as the webhook, to tell a request's share from a
# reply's.
set -euo pipefail
cd "$(dirname "$0")/.."

for p in /usr/sbin/bearerbox /usr/sbin/smsbox /usr/lib/kannel/test/fakesmsc; do
    [ -x "$p" ] || { echo "no $p: apt-get install kannel kannel-extras" >&2; exit 2; }
done
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
if [ -n "${BENCH_BIN:-}" ]; then
    BIN="$BENCH_BIN"
else
    cargo build --release -j "${BUILD_JOBS:-1}" --quiet
    BIN="$CARGO_TARGET_DIR/release/smsarena"
fi
MESSAGES="${MESSAGES:-3000}"
# The gateway's two ways to send the replies: in the webhook's answer
# (sms.kannel.answer_max_parts), and through smsbox's sendsms.
KINDS="${KINDS:-answer sendsms}"
ROUNDS="${ROUNDS:-1}"
CORES="${CORES:-shared split}"
if [[ " $CORES " == *" split "* ]] && [ "$(nproc)" -lt 2 ]; then
    echo "CORES=split needs two cores; this machine has $(nproc)" >&2; exit 2
fi
# CALLGRIND=1: each of Kannel's programs runs under callgrind, its counts
# written to $WORK/<program>.cg when it ends.
KANNEL_UNDER=()
if [ -n "${CALLGRIND:-}" ]; then
    command -v valgrind >/dev/null || { echo "CALLGRIND=1 needs valgrind" >&2; exit 2; }
fi
under_callgrind() { # program name: the prefix that profiles it, if CALLGRIND is set
    KANNEL_UNDER=()
    [ -z "${CALLGRIND:-}" ] || KANNEL_UNDER=(valgrind --tool=callgrind -q "--callgrind-out-file=$WORK/$1.cg")
}
# Instructions per text of each of Kannel's programs, from their counts.
kannel_instructions() {
    local total=0 each="" n
    for box in bearerbox smsbox fakesmsc; do
        n=$(awk '/^summary:|^totals:/ {print $2; exit}' "$WORK/$box.cg")
        total=$((total + n))
        each="$each $box $((n / MESSAGES))"
    done
    echo "$((total / MESSAGES)) ($each )"
}
# Set per round by use_cores: the command prefixes that place each side.
GATEWAY_ON=() KANNEL_ON=()
use_cores() { # shared|split
    case $1 in
    shared) GATEWAY_ON=() KANNEL_ON=() ;;
    split) GATEWAY_ON=(taskset -c 1) KANNEL_ON=(taskset -c 0) ;;
    *) echo "unknown CORES value $1 (shared or split)" >&2; exit 2 ;;
    esac
}
# How many get-url calls smsbox keeps open at once (Kannel's default is 512).
PENDING="${KANNEL_MAX_PENDING:-512}"
# How many texts bearerbox hands smsbox before smsbox acknowledges them (Kannel's default is 100).
BOX_PENDING="${KANNEL_BOX_PENDING:-100}"
WORK="$(mktemp -d)"
BASE_PORT="${BASE_PORT:-18300}"
ADMIN=$BASE_PORT SMSBOX=$((BASE_PORT + 1)) FAKE=$((BASE_PORT + 2)) SENDSMS=$((BASE_PORT + 3)) GATEWAY=$((BASE_PORT + 4))
STATUS="http://127.0.0.1:$ADMIN/status.txt?password=bench"

PIDS=()
stop_all() {
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    PIDS=()
}
trap 'stop_all; rm -rf "$WORK"' EXIT

status() { curl -sf "$STATUS" || true; }
# "SMS: received N (...), sent M (...)": MOs taken from the SMSC, MTs handed to it.
counts() { status | awk '/^SMS: received/ {gsub(/[(),]/, " "); print $3, $0; exit}' | awk '{for (i = 1; i <= NF; i++) if ($i == "sent") {print $1, $(i + 1); exit}}'; }
wait_until() { # what, seconds, command...
    local what=$1 limit=$2; shift 2
    for _ in $(seq 1 $((limit * 20))); do "$@" && return 0; sleep 0.05; done
    echo "timed out waiting for $what" >&2; return 1
}

kannel_conf() { # the get-url and what smsbox does with the answer
    cat <<EOF
group = core
admin-port = $ADMIN
admin-interface = 127.0.0.1
admin-password = bench
smsbox-port = $SMSBOX
smsbox-interface = 127.0.0.1
smsbox-max-pending = $BOX_PENDING
log-file = "$WORK/bearerbox.log"
log-level = 2
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fake
port = $FAKE
our-host = 127.0.0.1
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = $SMSBOX
sendsms-port = $SENDSMS
sendsms-interface = 127.0.0.1
log-file = "$WORK/smsbox.log"
log-level = 2
max-pending-requests = $PENDING
http-request-retry = 3
http-queue-delay = 1

group = sendsms-user
username = bench
password = bench
max-messages = 10
concatenation = true

group = sms-service
keyword = default
catch-all = yes
get-url = "$1"
$2
EOF
}

# One run: gateway (same binary both ways), then bearerbox, smsbox, fakesmsc;
# prints "<seconds> <texts/s>" of the burst.
run_once() { # trivial|gateway
    local kind=$1 get_url answer
    rm -f "$WORK"/*.db* "$WORK"/*.log
    local answer_parts=0
    case $kind in
    trivial)
        get_url="http://127.0.0.1:$GATEWAY/ping${TRIVIAL_QUERY:-}"
        answer="max-messages = 1" ;;
    sendsms)
        get_url="http://127.0.0.1:$GATEWAY/webhooks/kannel?secret=bench&from=%p&to=%P&text=%b&id=%I&coding=%c&charset=%C"
        answer=$'max-messages = 0\nomit-empty = yes' ;;
    answer)
        get_url="http://127.0.0.1:$GATEWAY/webhooks/kannel?secret=bench&from=%p&to=%P&text=%b&id=%I&coding=%c&charset=%C"
        answer=$'max-messages = 10\nconcatenation = true\naccept-x-kannel-headers = true\nomit-empty = yes'
        answer_parts=10 ;;
    esac
    kannel_conf "$get_url" "$answer" >"$WORK/kannel.conf"
    "${GATEWAY_ON[@]}" env SMSARENA_LIMITS__PHONE_PER_MINUTE=0 \
    SMSARENA_HTTP__LISTEN="127.0.0.1:$GATEWAY" \
    SMSARENA_HTTP__PUBLIC_URL="http://127.0.0.1:$GATEWAY" \
    SMSARENA_DATABASE__URL="sqlite://$WORK/gateway.db" \
    SMSARENA_WEBHOOKS__SECRET=bench \
    SMSARENA_SMS__PROVIDER=kannel \
    SMSARENA_SMS__KANNEL__SENDSMS_URL="http://127.0.0.1:$SENDSMS/cgi-bin/sendsms" \
    SMSARENA_SMS__KANNEL__USERNAME=bench \
    SMSARENA_SMS__KANNEL__PASSWORD=bench \
    SMSARENA_SMS__KANNEL__DLR_MASK="${DLR_MASK:-0}" \
    SMSARENA_SMS__KANNEL__ANSWER_MAX_PARTS=$answer_parts \
    SMSARENA_LOG__FILTER="${SMSARENA_LOG__FILTER:-warn}" \
        "$BIN" serve --config /dev/null >"$WORK/gateway-$kind.log" 2>&1 &
    PIDS+=($!)
    local gateway_pid=$!
    wait_until "the gateway" 30 curl -sf "http://127.0.0.1:$GATEWAY/healthz" -o /dev/null
    under_callgrind bearerbox
    "${KANNEL_ON[@]}" "${KANNEL_UNDER[@]}" /usr/sbin/bearerbox -v 4 "$WORK/kannel.conf" >"$WORK/bearerbox.out" 2>&1 &
    PIDS+=($!)
    wait_until "bearerbox" 30 sh -c "curl -sf '$STATUS' | grep -q 'FAKE:$FAKE'"
    under_callgrind smsbox
    "${KANNEL_ON[@]}" "${KANNEL_UNDER[@]}" /usr/sbin/smsbox -v 4 "$WORK/kannel.conf" >"$WORK/smsbox.out" 2>&1 &
    PIDS+=($!)
    wait_until "smsbox" 30 sh -c "curl -s -o /dev/null 'http://127.0.0.1:$SENDSMS/'"
    local start end n
    # Only the burst counts: the boxes' start-up is forgotten.
    [ -z "${CALLGRIND:-}" ] || callgrind_control -z "${PIDS[@]:1}" >/dev/null 2>&1
    start=$(date +%s.%N)
    under_callgrind fakesmsc
    "${KANNEL_ON[@]}" "${KANNEL_UNDER[@]}" /usr/lib/kannel/test/fakesmsc -H 127.0.0.1 -r "$FAKE" -i 0 -m "$MESSAGES" -z 5 \
        "+7917 002220 text R" >/dev/null 2>"$WORK/fakesmsc.out" &
    PIDS+=($!)
    local fakesmsc_pid=$!
    # Under callgrind Kannel carries some 150 texts a second, and bearerbox's
    # status page, asked every 10 ms, would be a good part of what it counts.
    local per_second=50 poll=0.01 polls_a_second=100
    [ -z "${CALLGRIND:-}" ] || { per_second=3; poll=0.5; polls_a_second=2; }
    local limit=$((MESSAGES / per_second + 60)) seen="" stored_at="" stored
    for _ in $(seq 1 $((limit * polls_a_second))); do
        seen=$(counts)
        n=${seen#* }
        if [ "$kind" != trivial ] && [ -z "$stored_at" ]; then
            stored=$(sqlite3 "$WORK/gateway.db" 'SELECT count(*) FROM inbound' 2>/dev/null || echo 0)
            if [ "$stored" -ge "$MESSAGES" ]; then
                stored_at=$(date +%s.%N)
                awk -v s="$start" -v e="$stored_at" 'BEGIN {printf "  (every text stored after %.3f s)\n", e - s}' >&2
            fi
        fi
        if [ -n "$seen" ] && [ "$n" -ge "$MESSAGES" ]; then break; fi
        sleep "$poll"
    done
    end=$(date +%s.%N)
    if [ "${n:-0}" -lt "$MESSAGES" ]; then
        echo "$kind: only $seen (received sent) after ${limit}s" >&2
        tail -n 5 "$WORK"/*.out "$WORK/gateway-$kind.log" >&2
        return 1
    fi
    local cpu_gateway cpu_kannel
    cpu_gateway=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$gateway_pid/stat")
    # bearerbox, smsbox, fakesmsc: their sum, and each.
    cpu_kannel=$(for p in "${PIDS[@]:1}"; do cat "/proc/$p/stat"; done | awk -v hz="$(getconf CLK_TCK)" '{c[NR] = ($14 + $15) / hz; s += c[NR]} END {printf "%.1f s (%.1f + %.1f + %.1f)", s, c[1], c[2], c[3]}')
    if [ "$kind" != trivial ]; then
        local stored
        stored=$(sqlite3 "$WORK/gateway.db" 'SELECT count(*) FROM inbound' 2>/dev/null || echo "?")
        echo "  (gateway stored $stored texts; replies sent $(sqlite3 "$WORK/gateway.db" "SELECT count(*) FROM outbox WHERE status <> 'queued'" 2>/dev/null || echo "?"), of which in the answer $(sqlite3 "$WORK/gateway.db" "SELECT count(*) FROM outbox WHERE provider_ref LIKE 'a%'" 2>/dev/null || echo "?"))" >&2
    fi
    kill -TERM "$fakesmsc_pid" 2>/dev/null || true
    stop_all
    # BENCH_LOGS=DIR keeps each run's logs (gateway, Kannel's boxes, fakesmsc) and callgrind counts.
    if [ -n "${BENCH_LOGS:-}" ]; then
        mkdir -p "$BENCH_LOGS/$kind"
        cp "$WORK"/*.log "$WORK"/*.out "$WORK"/*.cg "$BENCH_LOGS/$kind/" 2>/dev/null || true
    fi
    awk -v s="$start" -v e="$end" -v n="$MESSAGES" -v kind="$kind" -v cg="$cpu_gateway" -v ck="$cpu_kannel" \
        'BEGIN {printf "%-8s %6d texts in %6.3f s: %7.0f texts/s   (CPU: gateway %s s, Kannel %s)\n", kind, n, e - s, n / (e - s), cg, ck}'
    [ -z "${CALLGRIND:-}" ] || echo "         Kannel's instructions per text: $(kannel_instructions)"
}

echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); Kannel $(/usr/sbin/bearerbox --version 2>&1 | grep -m1 -o 'version [^ ]*' | cut -d' ' -f2 | tr -d '`'\''.' || true)"
echo "binary $BIN; $MESSAGES texts a burst; smsbox max-pending-requests $PENDING"
ratio() { # figure line, trivial line: the texts/s of each and their ratio
    awk -v g="$1" -v t="$2" 'BEGIN {
        split(g, a, ":"); split(t, b, ":"); split(a[2], x, " "); split(b[2], y, " ");
        printf "%.0f / %.0f = %.2f", x[1], y[1], x[1] / y[1] }'
}
instruction_ratio() { # trivial's lines, the other's lines: Kannel's instructions per text, and their ratio
    awk -v t="$1" -v g="$2" 'BEGIN {
        match(t, /per text: [0-9]+/); a = substr(t, RSTART + 10, RLENGTH - 10);
        match(g, /per text: [0-9]+/); b = substr(g, RSTART + 10, RLENGTH - 10);
        printf "%d / %d = %.2f", a, b, a / b }'
}
for round in $(seq 1 "$ROUNDS"); do
    for cores in $CORES; do
        use_cores "$cores"
        t=$(run_once trivial)
        echo "$cores $t"
        for kind in $KINDS; do
            g=$(run_once "$kind")
            echo "$cores $g"
            echo "round $round, $cores cores: $kind / trivial = $(ratio "$g" "$t")"
            if [ -n "${CALLGRIND:-}" ]; then
                echo "round $round: Kannel's instructions per text, trivial / $kind = $(instruction_ratio "$t" "$g")"
            fi
        done
    done
done
