//! The operator's console on SQLite: its reads on the reader connection, its writes (retry, drop, audit) in the writer's transaction.

use chrono::{DateTime, Utc};
use rusqlite::named_params;

use super::SqliteTx;
use super::queries::{all, first};
use super::read::SqliteRead;
use crate::store::console::{
    AuditEntry, ConsoleCounts, ConsoleRead, ConsoleWrite, InboundText, NewAudit, player_query,
};
use crate::store::records::{OutboxEvent, OutboxText, Player};
use crate::store::rows::{Record, column_list, from_millis, millis};
use crate::store::{StoreError, StoreResult};

fn at(ms: i64) -> StoreResult<DateTime<Utc>> {
    from_millis(ms).ok_or_else(|| StoreError::Corrupt(format!("a time of {ms} ms")))
}

impl ConsoleRead for SqliteRead<'_> {
    fn counts(&mut self) -> StoreResult<ConsoleCounts> {
        let one = |sql: &str| -> StoreResult<i64> {
            Ok(self.conn.prepare_cached(sql)?.query_row([], |r| r.get(0))?)
        };
        let players = one("SELECT COUNT(*) FROM players WHERE nick_key IS NOT NULL")?;
        let lobbies_waiting = one("SELECT COUNT(*) FROM lobby")?;
        let parked = one("SELECT COUNT(*) FROM outbox WHERE status = 'failed'")?;
        let (outbox_backlog, oldest): (i64, Option<i64>) = self
            .conn
            .prepare_cached(
                "SELECT COUNT(*), MIN(created_at) FROM outbox WHERE status IN ('queued', 'sending')",
            )?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let running = self
            .conn
            .prepare_cached(
                "SELECT game, COUNT(*) FROM matches WHERE finished = 0 GROUP BY game ORDER BY game",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<Vec<(String, i64)>, _>>()?;
        Ok(ConsoleCounts {
            players,
            lobbies_waiting,
            running,
            outbox_backlog,
            oldest_waiting: oldest.map(at).transpose()?,
            parked,
        })
    }

    fn inbound_per_minute(
        &mut self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<(DateTime<Utc>, i64)>> {
        let rows = self
            .conn
            .prepare_cached(
                "SELECT received_at / 60000 AS minute, COUNT(*) AS texts FROM inbound
                 WHERE received_at >= :since GROUP BY minute ORDER BY minute",
            )?
            .query_map(named_params! { ":since": millis(since) }, |r| {
                Ok((r.get::<_, i64>("minute")?, r.get::<_, i64>("texts")?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(minute, n)| Ok((at(minute * 60_000)?, n)))
            .collect()
    }

    fn find_players(&mut self, query: &str, limit: usize) -> StoreResult<Vec<Player>> {
        let (plain, digits) = player_query(query);
        let sql = format!(
            "SELECT {} FROM players p
             WHERE p.nick_key LIKE :nick || '%' OR (:digits IS NOT NULL AND p.phone LIKE '%' || :digits || '%')
             ORDER BY p.nick_key, p.id LIMIT :limit",
            column_list::<Player>("p")
        );
        all(
            self.conn,
            &sql,
            named_params! { ":nick": plain, ":digits": digits, ":limit": limit as i64 },
        )
    }

    fn player_by_id(&mut self, id: i64) -> StoreResult<Option<Player>> {
        let sql = format!(
            "SELECT {} FROM players p WHERE p.id = :id",
            column_list::<Player>("p")
        );
        first(self.conn, &sql, named_params! { ":id": id })
    }

    fn texts_from(&mut self, phone: &str, limit: usize) -> StoreResult<Vec<InboundText>> {
        let rows = self
            .conn
            .prepare_cached(
                "SELECT received_at, to_number, body FROM inbound WHERE from_phone = :phone
                 ORDER BY id DESC LIMIT :limit",
            )?
            .query_map(
                named_params! { ":phone": phone, ":limit": limit as i64 },
                |r| {
                    Ok((
                        r.get::<_, i64>("received_at")?,
                        r.get::<_, String>("to_number")?,
                        r.get::<_, String>("body")?,
                    ))
                },
            )?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(received, to, text)| {
                Ok(InboundText {
                    received_at: at(received)?,
                    to,
                    text,
                })
            })
            .collect()
    }

    fn parked_texts(&mut self, limit: usize) -> StoreResult<Vec<OutboxText>> {
        let sql = format!(
            "SELECT {} FROM outbox o WHERE o.status = 'failed' ORDER BY o.id DESC LIMIT :limit",
            column_list::<OutboxText>("o")
        );
        all(self.conn, &sql, named_params! { ":limit": limit as i64 })
    }

    fn audit_entries(&mut self, limit: usize) -> StoreResult<Vec<AuditEntry>> {
        let rows = self
            .conn
            .prepare_cached(
                "SELECT id, at, actor, action, target, address FROM audit
                 ORDER BY id DESC LIMIT :limit",
            )?
            .query_map(named_params! { ":limit": limit as i64 }, |r| {
                Ok((
                    r.get::<_, i64>("id")?,
                    r.get::<_, i64>("at")?,
                    r.get::<_, String>("actor")?,
                    r.get::<_, String>("action")?,
                    r.get::<_, String>("target")?,
                    r.get::<_, Option<String>>("address")?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(id, when, actor, action, target, address)| {
                Ok(AuditEntry {
                    id,
                    at: at(when)?,
                    actor,
                    action,
                    target,
                    address,
                })
            })
            .collect()
    }
}

impl ConsoleWrite for SqliteTx<'_> {
    fn requeue_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<Option<OutboxText>> {
        let sql = format!(
            "UPDATE outbox SET status = 'queued', attempts = 0, next_attempt_at = :now,
             lease_until = NULL, updated_at = :now
             WHERE id = :id AND status = 'failed' RETURNING {}",
            OutboxText::COLUMNS.join(", ")
        );
        let text: Option<OutboxText> = first(
            self.conn,
            &sql,
            named_params! { ":id": id, ":now": millis(now) },
        )?;
        if let Some(text) = &text {
            // The dispatcher hears of it after COMMIT, like of a new text.
            self.events.push(OutboxEvent::Requeued(text.clone()));
        }
        Ok(text)
    }

    fn drop_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<bool> {
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE outbox SET status = 'cancelled', updated_at = :now
                 WHERE id = :id AND status = 'failed'",
            )?
            .execute(named_params! { ":id": id, ":now": millis(now) })?;
        Ok(changed == 1)
    }

    fn audit(&mut self, entry: &NewAudit<'_>, now: DateTime<Utc>) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO audit (at, actor, action, target, address)
                 VALUES (:at, :actor, :action, :target, :address)",
            )?
            .execute(named_params! {
                ":at": millis(now),
                ":actor": entry.actor,
                ":action": entry.action,
                ":target": entry.target,
                ":address": entry.address,
            })?;
        Ok(())
    }
}
