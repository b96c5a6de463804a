//! The operator's console on PostgreSQL: its reads on a pooled connection, its writes (retry, drop, audit) in a writer's transaction.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::postgres::PgRow;

use super::PgQuery;
use super::read::PgRead;
use super::tx::PgTx;
use crate::store::console::{
    AuditEntry, ConsoleCounts, ConsoleRead, ConsoleWrite, InboundText, NewAudit, player_query,
};
use crate::store::records::{OutboxText, Player};
use crate::store::rows::{column_list, decode, from_millis, millis};
use crate::store::{StoreError, StoreResult};

fn at(ms: i64) -> StoreResult<DateTime<Utc>> {
    from_millis(ms).ok_or_else(|| StoreError::Corrupt(format!("a time of {ms} ms")))
}

impl PgRead<'_> {
    fn rows(&mut self, q: PgQuery<'_>) -> StoreResult<Vec<PgRow>> {
        Ok(self.driver.block_on(q.fetch_all(&mut *self.conn))?)
    }

    fn one(&mut self, q: PgQuery<'_>) -> StoreResult<PgRow> {
        Ok(self.driver.block_on(q.fetch_one(&mut *self.conn))?)
    }
}

impl ConsoleRead for PgRead<'_> {
    fn counts(&mut self) -> StoreResult<ConsoleCounts> {
        let row = self.one(sqlx::query(
            "SELECT (SELECT COUNT(*) FROM players WHERE nick_key IS NOT NULL) AS players,
                    (SELECT COUNT(*) FROM lobby) AS lobbies_waiting,
                    (SELECT COUNT(*) FROM outbox WHERE status = 'failed') AS parked,
                    (SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'sending')) AS backlog,
                    (SELECT MIN(created_at) FROM outbox WHERE status IN ('queued', 'sending')) AS oldest",
        ))?;
        let running = self
            .rows(sqlx::query(
                "SELECT game, COUNT(*) AS n FROM matches WHERE NOT finished GROUP BY game ORDER BY game",
            ))?
            .iter()
            .map(|r| Ok((r.try_get("game")?, r.try_get("n")?)))
            .collect::<Result<Vec<(String, i64)>, sqlx::Error>>()?;
        let oldest: Option<i64> = row.try_get("oldest")?;
        Ok(ConsoleCounts {
            players: row.try_get("players")?,
            lobbies_waiting: row.try_get("lobbies_waiting")?,
            running,
            outbox_backlog: row.try_get("backlog")?,
            oldest_waiting: oldest.map(at).transpose()?,
            parked: row.try_get("parked")?,
        })
    }

    fn inbound_per_minute(
        &mut self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<(DateTime<Utc>, i64)>> {
        self.rows(
            sqlx::query(
                "SELECT received_at / 60000 AS minute, COUNT(*) AS texts FROM inbound
                 WHERE received_at >= $1 GROUP BY minute ORDER BY minute",
            )
            .bind(millis(since)),
        )?
        .iter()
        .map(|r| {
            Ok((
                at(r.try_get::<i64, _>("minute")? * 60_000)?,
                r.try_get("texts")?,
            ))
        })
        .collect()
    }

    fn find_players(&mut self, query: &str, limit: usize) -> StoreResult<Vec<Player>> {
        let (plain, digits) = player_query(query);
        let sql = format!(
            "SELECT {} FROM players p
             WHERE p.nick_key LIKE $1 || '%' OR ($2::TEXT IS NOT NULL AND p.phone LIKE '%' || $2 || '%')
             ORDER BY p.nick_key, p.id LIMIT $3",
            column_list::<Player>("p")
        );
        self.rows(
            sqlx::query(&sql)
                .bind(plain)
                .bind(digits)
                .bind(limit as i64),
        )?
        .iter()
        .map(|r| decode(r))
        .collect()
    }

    fn player_by_id(&mut self, id: i64) -> StoreResult<Option<Player>> {
        let sql = format!(
            "SELECT {} FROM players p WHERE p.id = $1",
            column_list::<Player>("p")
        );
        self.rows(sqlx::query(&sql).bind(id))?
            .first()
            .map(|r| decode(r))
            .transpose()
    }

    fn texts_from(&mut self, phone: &str, limit: usize) -> StoreResult<Vec<InboundText>> {
        self.rows(
            sqlx::query(
                "SELECT received_at, to_number, body FROM inbound WHERE from_phone = $1
                 ORDER BY id DESC LIMIT $2",
            )
            .bind(phone)
            .bind(limit as i64),
        )?
        .iter()
        .map(|r| {
            Ok(InboundText {
                received_at: at(r.try_get("received_at")?)?,
                to: r.try_get("to_number")?,
                text: r.try_get("body")?,
            })
        })
        .collect()
    }

    fn parked_texts(&mut self, limit: usize) -> StoreResult<Vec<OutboxText>> {
        let sql = format!(
            "SELECT {} FROM outbox o WHERE o.status = 'failed' ORDER BY o.id DESC LIMIT $1",
            column_list::<OutboxText>("o")
        );
        self.rows(sqlx::query(&sql).bind(limit as i64))?
            .iter()
            .map(|r| decode(r))
            .collect()
    }

    fn audit_entries(&mut self, limit: usize) -> StoreResult<Vec<AuditEntry>> {
        self.rows(
            sqlx::query(
                "SELECT id, at, actor, action, target, address FROM audit
                 ORDER BY id DESC LIMIT $1",
            )
            .bind(limit as i64),
        )?
        .iter()
        .map(|r| {
            Ok(AuditEntry {
                id: r.try_get("id")?,
                at: at(r.try_get("at")?)?,
                actor: r.try_get("actor")?,
                action: r.try_get("action")?,
                target: r.try_get("target")?,
                address: r.try_get("address")?,
            })
        })
        .collect()
    }
}

impl ConsoleWrite for PgTx<'_> {
    fn requeue_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<Option<OutboxText>> {
        let sql = format!(
            "UPDATE outbox AS o SET status = 'queued', attempts = 0, next_attempt_at = $2,
             lease_until = NULL, updated_at = $2
             WHERE o.id = $1 AND o.status = 'failed' RETURNING {}",
            column_list::<OutboxText>("o")
        );
        // The claiming dispatchers find it queued, as any text.
        self.first(sqlx::query(&sql).bind(id).bind(millis(now)))
    }

    fn drop_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<bool> {
        let changed = self.execute(
            sqlx::query(
                "UPDATE outbox SET status = 'cancelled', updated_at = $2
                 WHERE id = $1 AND status = 'failed'",
            )
            .bind(id)
            .bind(millis(now)),
        )?;
        Ok(changed == 1)
    }

    fn audit(&mut self, entry: &NewAudit<'_>, now: DateTime<Utc>) -> StoreResult<()> {
        self.execute(
            sqlx::query(
                "INSERT INTO audit (at, actor, action, target, address)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(millis(now))
            .bind(entry.actor)
            .bind(entry.action)
            .bind(entry.target)
            .bind(entry.address),
        )?;
        Ok(())
    }
}
