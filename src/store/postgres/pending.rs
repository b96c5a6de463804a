//! Writes a PostgreSQL transaction holds back until it next reads (or
//! commits), to send them in one round trip instead of one each.
//!
//! Each kind of write becomes a data-modifying CTE over arrays, and the
//! statement holds only the kinds present, so that a move's usual mix (its
//! texts, the match, the move record) is one short statement, prepared once
//! per connection. All the CTEs see the database as it was before the
//! statement: the moves' plies are therefore numbered from the match's last
//! stored ply in the order they were recorded, and texts are inserted in the
//! order they were queued (a phone's texts go out by id).

use std::sync::OnceLock;

use super::PgQuery;
use crate::store::{MatchRecord, NewText, Player, SeatRecord, millis};

/// Each row holds a whole row's new values, so for a row written twice only
/// the last write is kept (see [`put`]).
#[derive(Default)]
pub(super) struct PendingWrites {
    pub players: Vec<(Player, i64)>,
    pub texts: Vec<(NewText, i64)>,
    pub matches: Vec<MatchRecord>,
    pub seats: Vec<(i64, SeatRecord)>,
    pub moves: Vec<NewMove>,
    pub lobby_leaves: Vec<i64>,
}

pub(super) struct NewMove {
    pub match_id: i64,
    pub seat: i32,
    pub notation: String,
    pub automatic: bool,
    pub at: i64,
    pub state_after: String,
}

/// Replaces the entry `same` picks out, or appends.
pub(super) fn put<T>(list: &mut Vec<T>, item: T, same: impl Fn(&T) -> bool) {
    match list.iter_mut().find(|old| same(old)) {
        Some(old) => *old = item,
        None => list.push(item),
    }
}

/// One kind of write: its CTE with `{}` for the number of its first
/// parameter, and how many array parameters it takes.
struct Part {
    cte: &'static str,
    params: usize,
}

const PARTS: [Part; 6] = [
    Part {
        cte: "saved_players AS (
            UPDATE players p SET nick = v.nick, nick_key = v.nick_key, lang = v.lang,
                opted_out = v.opted_out, away = v.away, updated_at = v.at
            FROM UNNEST(${0}::bigint[], ${1}::text[], ${2}::text[], ${3}::text[], ${4}::bool[], ${5}::bool[], ${6}::bigint[])
                AS v(id, nick, nick_key, lang, opted_out, away, at)
            WHERE p.id = v.id)",
        params: 7,
    },
    Part {
        cte: "queued_texts AS (
            INSERT INTO outbox (from_number, to_phone, body, encoding, parts, next_attempt_at, created_at, updated_at)
            SELECT v.from_number, v.to_phone, v.body, v.encoding, v.parts, v.at, v.at, v.at
            FROM UNNEST(${0}::text[], ${1}::text[], ${2}::text[], ${3}::text[], ${4}::int[], ${5}::bigint[])
                WITH ORDINALITY AS v(from_number, to_phone, body, encoding, parts, at, ord)
            ORDER BY v.ord)",
        params: 6,
    },
    Part {
        cte: "saved_matches AS (
            UPDATE matches m SET state = v.state, rng_pos = v.rng_pos, finished = v.finished,
                deadline_at = v.deadline_at, rematch_deadline_at = v.rematch_deadline_at,
                finished_at = v.finished_at
            FROM UNNEST(${0}::bigint[], ${1}::text[], ${2}::text[], ${3}::bool[], ${4}::bigint[], ${5}::bigint[], ${6}::bigint[])
                AS v(id, state, rng_pos, finished, deadline_at, rematch_deadline_at, finished_at)
            WHERE m.id = v.id)",
        params: 7,
    },
    Part {
        cte: "saved_seats AS (
            UPDATE match_seats s SET missed = v.missed, rematch_at = v.rematch_at, message_sent = v.message_sent
            FROM UNNEST(${0}::bigint[], ${1}::int[], ${2}::int[], ${3}::bigint[], ${4}::bool[])
                AS v(match_id, seat, missed, rematch_at, message_sent)
            WHERE s.match_id = v.match_id AND s.seat = v.seat)",
        params: 5,
    },
    Part {
        cte: "recorded_moves AS (
            INSERT INTO match_moves (match_id, ply, seat, move, automatic, at, state_after)
            SELECT v.match_id,
                COALESCE((SELECT MAX(mm.ply) FROM match_moves mm WHERE mm.match_id = v.match_id), 0)
                    + ROW_NUMBER() OVER (PARTITION BY v.match_id ORDER BY v.ord),
                v.seat, v.move, v.automatic, v.at, v.state_after
            FROM UNNEST(${0}::bigint[], ${1}::int[], ${2}::text[], ${3}::bool[], ${4}::bigint[], ${5}::text[])
                WITH ORDINALITY AS v(match_id, seat, move, automatic, at, state_after, ord))",
        params: 6,
    },
    Part {
        cte: "left_lobby AS (DELETE FROM lobby WHERE player_id = ANY(${0}::bigint[]))",
        params: 1,
    },
];

/// A statement's own work, carried in the same round trip as whatever
/// writes are pending: more WITH entries and the final query, numbering their
/// parameters from `${0}`, bound after the pending writes' own.
pub(super) struct Rider {
    /// Its place among the cached statements (1 and up).
    pub slot: usize,
    pub ctes: &'static str,
    pub select: &'static str,
    pub params: usize,
}

/// Riders there are at most, for the statement cache.
const RIDER_SLOTS: usize = 2;

/// Renumbers `${i}` to `$(first + i)`.
fn number(template: &str, params: usize, first: usize) -> String {
    (0..params).fold(template.to_string(), |text, i| {
        text.replace(&format!("${{{i}}}"), &format!("${}", first + i))
    })
}

/// The statement for the kinds of write in `mask` (bit i: `PARTS[i]`) and the
/// rider, if any, built once.
pub(super) fn statement(mask: usize, rider: Option<&Rider>) -> &'static str {
    const PER_RIDER: usize = 1 << PARTS.len();
    static STATEMENTS: [OnceLock<String>; PER_RIDER * RIDER_SLOTS] =
        [const { OnceLock::new() }; PER_RIDER * RIDER_SLOTS];
    let slot = rider.map_or(0, |r| r.slot);
    assert!(slot < RIDER_SLOTS, "rider slot {slot} out of range");
    STATEMENTS[slot * PER_RIDER + mask].get_or_init(|| {
        let mut next_param = 1;
        let mut ctes: Vec<String> = Vec::new();
        for (i, part) in PARTS.iter().enumerate() {
            if mask & (1 << i) != 0 {
                ctes.push(number(part.cte, part.params, next_param));
                next_param += part.params;
            }
        }
        let select = match rider {
            Some(rider) => {
                ctes.push(number(rider.ctes, rider.params, next_param));
                number(rider.select, rider.params, next_param)
            }
            None => "SELECT 1".to_string(),
        };
        format!("WITH {} {select}", ctes.join(",\n"))
    })
}

impl PendingWrites {
    pub fn is_empty(&self) -> bool {
        self.mask() == 0
    }

    /// Which kinds of write are pending, as [`statement`] takes them.
    pub fn mask(&self) -> usize {
        [
            !self.players.is_empty(),
            !self.texts.is_empty(),
            !self.matches.is_empty(),
            !self.seats.is_empty(),
            !self.moves.is_empty(),
            !self.lobby_leaves.is_empty(),
        ]
        .iter()
        .enumerate()
        .filter(|(_, present)| **present)
        .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The one statement that makes every pending write.
    pub fn into_statement(self) -> PgQuery<'static> {
        let sql = statement(self.mask(), None);
        self.bind(sqlx::query(sql))
    }

    /// Binds every pending write's parameters to [`statement`]'s query, in `PARTS`' order.
    pub fn bind<'q>(self, q: PgQuery<'q>) -> PgQuery<'q> {
        let mut q = q;
        let PendingWrites {
            players,
            texts,
            matches,
            seats,
            moves,
            lobby_leaves,
        } = self;
        if !players.is_empty() {
            q = q
                .bind(players.iter().map(|(p, _)| p.id).collect::<Vec<_>>())
                .bind(
                    players
                        .iter()
                        .map(|(p, _)| p.nick.clone())
                        .collect::<Vec<_>>(),
                )
                .bind(
                    players
                        .iter()
                        .map(|(p, _)| p.nick.as_ref().map(|n| n.to_lowercase()))
                        .collect::<Vec<_>>(),
                )
                .bind(
                    players
                        .iter()
                        .map(|(p, _)| p.lang.to_string())
                        .collect::<Vec<_>>(),
                )
                .bind(players.iter().map(|(p, _)| p.opted_out).collect::<Vec<_>>())
                .bind(players.iter().map(|(p, _)| p.away).collect::<Vec<_>>())
                .bind(players.iter().map(|(_, at)| *at).collect::<Vec<_>>());
        }
        if !texts.is_empty() {
            q = q
                .bind(
                    texts
                        .iter()
                        .map(|(t, _)| t.from.clone())
                        .collect::<Vec<_>>(),
                )
                .bind(texts.iter().map(|(t, _)| t.to.clone()).collect::<Vec<_>>())
                .bind(
                    texts
                        .iter()
                        .map(|(t, _)| t.body.clone())
                        .collect::<Vec<_>>(),
                )
                .bind(texts.iter().map(|(t, _)| t.encoding).collect::<Vec<_>>())
                .bind(
                    texts
                        .iter()
                        .map(|(t, _)| t.parts as i32)
                        .collect::<Vec<_>>(),
                )
                .bind(texts.iter().map(|(_, at)| *at).collect::<Vec<_>>());
        }
        if !matches.is_empty() {
            q = q
                .bind(matches.iter().map(|m| m.id).collect::<Vec<_>>())
                .bind(matches.iter().map(|m| m.state.clone()).collect::<Vec<_>>())
                .bind(
                    matches
                        .iter()
                        .map(|m| m.rng_pos.to_string())
                        .collect::<Vec<_>>(),
                )
                .bind(matches.iter().map(|m| m.finished).collect::<Vec<_>>())
                .bind(
                    matches
                        .iter()
                        .map(|m| m.deadline_at.map(millis))
                        .collect::<Vec<_>>(),
                )
                .bind(
                    matches
                        .iter()
                        .map(|m| m.rematch_deadline_at.map(millis))
                        .collect::<Vec<_>>(),
                )
                .bind(
                    matches
                        .iter()
                        .map(|m| m.finished_at.map(millis))
                        .collect::<Vec<_>>(),
                );
        }
        if !seats.is_empty() {
            q = q
                .bind(seats.iter().map(|(id, _)| *id).collect::<Vec<_>>())
                .bind(seats.iter().map(|(_, s)| s.seat as i32).collect::<Vec<_>>())
                .bind(
                    seats
                        .iter()
                        .map(|(_, s)| s.missed as i32)
                        .collect::<Vec<_>>(),
                )
                .bind(
                    seats
                        .iter()
                        .map(|(_, s)| s.rematch_at.map(millis))
                        .collect::<Vec<_>>(),
                )
                .bind(
                    seats
                        .iter()
                        .map(|(_, s)| s.message_sent)
                        .collect::<Vec<_>>(),
                );
        }
        if !moves.is_empty() {
            q = q
                .bind(moves.iter().map(|m| m.match_id).collect::<Vec<_>>())
                .bind(moves.iter().map(|m| m.seat).collect::<Vec<_>>())
                .bind(moves.iter().map(|m| m.notation.clone()).collect::<Vec<_>>())
                .bind(moves.iter().map(|m| m.automatic).collect::<Vec<_>>())
                .bind(moves.iter().map(|m| m.at).collect::<Vec<_>>())
                .bind(moves.into_iter().map(|m| m.state_after).collect::<Vec<_>>());
        }
        if !lobby_leaves.is_empty() {
            q = q.bind(lobby_leaves);
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_across_the_parts_present() {
        // texts (6 parameters) then moves (6): the moves start at $7.
        let sql = statement(0b010010, None);
        assert!(sql.starts_with("WITH queued_texts AS"));
        assert!(sql.contains("UNNEST($1::text[]"));
        assert!(sql.contains("UNNEST($7::bigint[], $8::int[]"));
        assert!(sql.contains("$12::text[]"));
        assert!(!sql.contains("${"));
        assert!(!sql.contains("saved_players"));
        // every part at once uses every parameter once
        let all = statement(63, None);
        let total: usize = PARTS.iter().map(|p| p.params).sum();
        assert!(all.contains(&format!("${total}::")));
        assert!(!all.contains(&format!("${}::", total + 1)));
    }

    #[test]
    fn a_rider_numbers_its_parameters_after_the_pending_writes() {
        static RIDER: Rider = Rider {
            slot: 1,
            ctes: "mine AS (SELECT ${0}::int AS a, ${1}::int AS b, ${0}::int AS c)",
            select: "SELECT a, b, c, ${1}::int FROM mine",
            params: 2,
        };
        let alone = statement(0, Some(&RIDER));
        assert_eq!(
            alone,
            "WITH mine AS (SELECT $1::int AS a, $2::int AS b, $1::int AS c) SELECT a, b, c, $2::int FROM mine"
        );
        // after the lobby's one parameter
        let after = statement(0b100000, Some(&RIDER));
        assert!(after.starts_with("WITH left_lobby AS"));
        assert!(after.contains("ANY($1::bigint[])"));
        assert!(after.ends_with("SELECT a, b, c, $3::int FROM mine"));
    }
}
