//! The operator's console's statements: its counts and lists on the read
//! side, retry, drop and audit on the writer.

use std::sync::LazyLock;

use super::Statement;
use crate::store::console::{AuditEntry, GameCount, InboundText, MinuteCount, Totals};
use crate::store::model::{OutboxText, Player};
use crate::store::rows::{Record, column_list};

/// The overview's counts, in one row.
pub(crate) static TOTALS: LazyLock<Statement> = LazyLock::new(|| {
    let [players, lobbies, parked, backlog, oldest] = Totals::COLUMNS else {
        unreachable!("five totals")
    };
    Statement::made(
        "console totals",
        format!(
            "SELECT (SELECT COUNT(*) FROM players WHERE nick_key IS NOT NULL) AS {players},
                    (SELECT COUNT(*) FROM lobby) AS {lobbies},
                    (SELECT COUNT(*) FROM outbox WHERE status = 'failed') AS {parked},
                    (SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'sending')) AS {backlog},
                    (SELECT MIN(created_at) FROM outbox WHERE status IN ('queued', 'sending')) AS {oldest}"
        ),
    )
});

/// Matches not over, per game.
pub(crate) static RUNNING: LazyLock<Statement> = LazyLock::new(|| {
    let [game, matches] = GameCount::COLUMNS else {
        unreachable!("a game and a count")
    };
    Statement::made_differing(
        "console running",
        format!(
            "SELECT game AS {game}, COUNT(*) AS {matches} FROM matches WHERE finished = 0
             GROUP BY game ORDER BY game"
        ),
        format!(
            "SELECT game AS {game}, COUNT(*) AS {matches} FROM matches WHERE NOT finished
             GROUP BY game ORDER BY game"
        ),
        super::writes::SQLITE_FINISHED,
    )
});

/// Texts in, counted per minute since `:since`.
pub(crate) static INBOUND_PER_MINUTE: LazyLock<Statement> = LazyLock::new(|| {
    let [minute, texts] = MinuteCount::COLUMNS else {
        unreachable!("a minute and a count")
    };
    Statement::made(
        "console inbound per minute",
        format!(
            "SELECT received_at / 60000 AS {minute}, COUNT(*) AS {texts} FROM inbound
             WHERE received_at >= :since GROUP BY received_at / 60000 ORDER BY 1"
        ),
    )
});

/// Players by the start of their nick (an empty start matches none) or
/// their whole number: never by a part of one, which would give a number
/// away digit by digit.
pub(crate) static FIND_PLAYERS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "console find players",
        format!(
            "SELECT {} FROM players p
             WHERE (CAST(:nick AS TEXT) <> '' AND p.nick_key LIKE :nick || '%')
                OR p.phone = CAST(:number AS TEXT)
             ORDER BY p.nick_key, p.id LIMIT :limit",
            column_list::<Player>("p")
        ),
    )
});

/// One player by id.
pub(crate) static PLAYER_BY_ID: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "console player by id",
        format!(
            "SELECT {} FROM players p WHERE p.id = :id",
            column_list::<Player>("p")
        ),
    )
});

/// A phone's last texts to us, newest first.
pub(crate) static TEXTS_FROM: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "console texts from",
        format!(
            "SELECT {} FROM inbound i WHERE i.from_phone = :phone ORDER BY i.id DESC LIMIT :limit",
            column_list::<InboundText>("i")
        ),
    )
});

/// The newest parked texts.
pub(crate) static PARKED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "console parked",
        format!(
            "SELECT {} FROM outbox o WHERE o.status = 'failed' ORDER BY o.id DESC LIMIT :limit",
            column_list::<OutboxText>("o")
        ),
    )
});

/// The newest audit entries.
pub(crate) static AUDIT_ENTRIES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "console audit entries",
        format!(
            "SELECT {} FROM audit a ORDER BY a.id DESC LIMIT :limit",
            column_list::<AuditEntry>("a")
        ),
    )
});

/// A parked text back in the queue, its attempts counted anew.
pub(crate) static REQUEUE_PARKED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "console requeue parked",
        format!(
            "UPDATE outbox SET status = 'queued', attempts = 0, next_attempt_at = :now,
             lease_until = NULL, updated_at = :now
             WHERE id = :id AND status = 'failed' RETURNING {}",
            OutboxText::COLUMNS.join(", ")
        ),
    )
});

/// A parked text dropped for good.
pub(crate) static DROP_PARKED: Statement = Statement::same(
    "console drop parked",
    "UPDATE outbox SET status = 'cancelled', updated_at = :now WHERE id = :id AND status = 'failed'",
);

/// One operator action recorded.
pub(crate) static AUDIT: Statement = Statement::same(
    "console audit",
    "INSERT INTO audit (at, actor, action, target, address)
     VALUES (:at, :actor, :action, :target, :address)",
);

/// The name a live session was opened under, by its id's hash.
pub(crate) static SESSION: Statement = Statement::same(
    "console session",
    "SELECT name FROM console_sessions WHERE id_hash = :id_hash AND expires_at > :now",
);

/// A new session; its id's hash, never the id.
pub(crate) static OPEN_SESSION: Statement = Statement::same(
    "console open session",
    "INSERT INTO console_sessions (id_hash, name, created_at, expires_at)
     VALUES (:id_hash, :name, :now, :expires_at)",
);

/// Sessions past their end, gone.
pub(crate) static CLEAN_SESSIONS: Statement = Statement::same(
    "console clean sessions",
    "DELETE FROM console_sessions WHERE expires_at <= :now",
);

/// A session ended by its operator.
pub(crate) static CLOSE_SESSION: Statement = Statement::same(
    "console close session",
    "DELETE FROM console_sessions WHERE id_hash = :id_hash",
);
