#!/usr/bin/env python3
"""What recording a send costs SQLite, index by index (issue 30, item 1).

Builds an outbox like the gateway's (migrations/sqlite: the same columns and
the three partial indexes) with 20,000 texts already sent, queues 2,400 more,
then records them as sent in transactions of 12, as the dispatcher does:

    none      queue them, record nothing (the baseline to subtract)
    single    one UPDATE per text (the gateway's MARK_SENT)
    batched   one UPDATE ... FROM (VALUES ...) per transaction of 12

Count SQLite's own instructions with callgrind (python3 is often a shim:
give valgrind the interpreter itself):

    PY=$(python3 -c 'import sys; print(sys.executable)')
    for m in none single batched; do
      valgrind --tool=callgrind --toggle-collect='sqlite3_step' --toggle-collect='sqlite3_reset' \
        --toggle-collect='sqlite3_bind_*' --toggle-collect='sqlite3_prepare_v2' \
        --callgrind-out-file=/dev/null "$PY" measure/outbox_update_cost.py $m 2>&1 | grep Collected
    done

(mode - none) / 2,400 is the cost of recording one send. SKIP=pending,ref,parked
leaves those indexes out; BODY=x makes every text one character long.
"""

import os
import sqlite3
import sys
import tempfile

MODE = sys.argv[1] if len(sys.argv) > 1 else "single"
SENT_BEFORE = 20_000
TEXTS = 2_400
PER_TRANSACTION = 12
SKIP = os.environ.get("SKIP", "")
BODY = os.environ.get("BODY", "Board\n" + "ab.cd.ef.gh\n" * 12)

INDEXES = {
    "pending": "CREATE INDEX outbox_pending ON outbox (status, next_attempt_at) "
    "WHERE status IN ('queued', 'sending')",
    "ref": "CREATE INDEX outbox_by_ref ON outbox (provider_ref) WHERE provider_ref IS NOT NULL",
    "parked": "CREATE INDEX outbox_parked ON outbox (id) WHERE status = 'failed'",
}

MARK_SENT = """UPDATE outbox SET status = CASE WHEN status IN ('delivered', 'failed') THEN status ELSE 'sent' END,
    attempts = ?, provider_ref = COALESCE(?, provider_ref), lease_until = NULL,
    last_error = NULL, updated_at = ? WHERE id = ?"""


def mark_sent_batched(rows):
    values = ",".join(["(?, ?, ?)"] * rows)
    return f"""WITH s(id, attempts, ref) AS (VALUES {values})
    UPDATE outbox SET status = CASE WHEN status IN ('delivered', 'failed') THEN status ELSE 'sent' END,
    attempts = s.attempts, provider_ref = COALESCE(s.ref, provider_ref), lease_until = NULL,
    last_error = NULL, updated_at = ? FROM s WHERE outbox.id = s.id"""


def main():
    folder = tempfile.mkdtemp()
    db = sqlite3.connect(os.path.join(folder, "outbox.db"), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("""CREATE TABLE outbox (
        id INTEGER PRIMARY KEY, from_number TEXT NOT NULL, to_phone TEXT NOT NULL,
        body TEXT NOT NULL, encoding TEXT NOT NULL, parts INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'queued', attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL, lease_until INTEGER, provider_ref TEXT,
        last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)""")
    for name, sql in INDEXES.items():
        if name not in SKIP:
            db.execute(sql)
    phone = lambda i: "+7900%07d" % (i % 64)
    db.execute("BEGIN")
    for i in range(SENT_BEFORE):
        db.execute(
            "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, status,"
            " next_attempt_at, provider_ref, created_at, updated_at)"
            " VALUES ('1234', ?, ?, 'gsm7', 1, 'sent', 1, ?, 1, 1)",
            (phone(i), BODY, "ref-%d" % i),
        )
    db.execute("COMMIT")
    ids = []
    db.execute("BEGIN")
    for i in range(TEXTS):
        cursor = db.execute(
            "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, next_attempt_at,"
            " created_at, updated_at) VALUES ('1234', ?, ?, 'gsm7', 1, 1, 1, 1)",
            (phone(i), BODY),
        )
        ids.append(cursor.lastrowid)
    db.execute("COMMIT")
    for start in range(0, TEXTS, PER_TRANSACTION):
        chunk = ids[start : start + PER_TRANSACTION]
        db.execute("BEGIN")
        if MODE == "single":
            for i in chunk:
                db.execute(MARK_SENT, (1, "r%d" % i, 5, i))
        elif MODE == "batched":
            args = [a for i in chunk for a in (i, 1, "r%d" % i)]
            db.execute(mark_sent_batched(len(chunk)), args + [5])
        db.execute("COMMIT")
    sent = db.execute("SELECT COUNT(*) FROM outbox WHERE status = 'sent'").fetchone()[0]
    expected = SENT_BEFORE + (0 if MODE == "none" else TEXTS)
    assert sent == expected, f"{MODE}: {sent} texts sent, expected {expected}"
    print(f"{MODE}: {sent} texts sent")


if __name__ == "__main__":
    main()
