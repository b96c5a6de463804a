//! Writes a PostgreSQL transaction holds back until it next reads (or
//! commits), to send them in one round trip instead of one each.
//!
//! Each kind of write is a [`Part`], declared once (in `parts.rs`): its CTE,
//! its parameters with their Rust getters and SQL array types, and the tables
//! it writes and reads. Parameter numbers and the `UNNEST` list are generated
//! from the declaration, so a statement and its binds cannot disagree, and
//! a getter of the wrong type does not compile. A statement holds only the
//! kinds present, so a move's usual mix (its texts, the match, the move
//! record) is one short statement, prepared once per connection.
//!
//! All the CTEs of a statement see the database as it was before it: the
//! moves' plies are therefore numbered from the match's last stored ply in
//! the order they were recorded, texts are inserted in the order they were
//! queued, and a statement that rides along ([`Rider`]) must not read a table
//! the pending writes change ([`Pending::may_ride_with`]).

use std::any::Any;
use std::sync::OnceLock;

use super::PgQuery;
use super::parts::{KIND_COUNT, KINDS};

/// One array parameter of a part: a column of its rows, read by a getter
/// whose return type decides the SQL array type it binds as.
pub(super) enum Param<T: 'static> {
    Int(&'static str, fn(&T) -> i64),
    OptInt(&'static str, fn(&T) -> Option<i64>),
    Int4(&'static str, fn(&T) -> i32),
    Text(&'static str, fn(&T) -> &str),
    OptText(&'static str, fn(&T) -> Option<&str>),
    Flag(&'static str, fn(&T) -> bool),
}

impl<T> Param<T> {
    fn name(&self) -> &'static str {
        match self {
            Param::Int(n, _)
            | Param::OptInt(n, _)
            | Param::Int4(n, _)
            | Param::Text(n, _)
            | Param::OptText(n, _)
            | Param::Flag(n, _) => n,
        }
    }

    fn sql_type(&self) -> &'static str {
        match self {
            Param::Int(..) | Param::OptInt(..) => "bigint",
            Param::Int4(..) => "int",
            Param::Text(..) | Param::OptText(..) => "text",
            Param::Flag(..) => "bool",
        }
    }

    fn bind<'q>(&self, rows: &'q [T], q: PgQuery<'q>) -> PgQuery<'q> {
        match self {
            Param::Int(_, get) => q.bind(rows.iter().map(get).collect::<Vec<_>>()),
            Param::OptInt(_, get) => q.bind(rows.iter().map(get).collect::<Vec<_>>()),
            Param::Int4(_, get) => q.bind(rows.iter().map(get).collect::<Vec<_>>()),
            Param::Text(_, get) => q.bind(rows.iter().map(get).collect::<Vec<&str>>()),
            Param::OptText(_, get) => q.bind(rows.iter().map(get).collect::<Vec<Option<&str>>>()),
            Param::Flag(_, get) => q.bind(rows.iter().map(get).collect::<Vec<_>>()),
        }
    }
}

/// One kind of deferred write.
pub(super) struct Part<T: 'static> {
    /// The CTE's name.
    pub name: &'static str,
    /// The table it changes.
    pub writes: &'static str,
    /// Every table its SQL names, the one it writes included.
    pub reads: &'static [&'static str],
    /// One array per column of its rows, in the order of `v`'s columns.
    pub params: &'static [Param<T>],
    /// The write, reading its rows from `{rows}`, which becomes
    /// `UNNEST($n::type[], ...) WITH ORDINALITY AS v(name, ..., ord)`.
    pub sql: &'static str,
    /// Rows with the same key are writes of one row, of which the last is
    /// kept; without a key every row is kept, in order (inserts).
    pub key: Option<RowKey<T>>,
}

/// What tells one row of a keyed part from another.
pub(super) type RowKey<T> = fn(&T) -> (i64, i64);

/// A part, whatever its rows are.
pub(super) trait Kind: Sync {
    fn name(&self) -> &'static str;
    fn writes(&self) -> &'static str;
    fn reads(&self) -> &'static [&'static str];
    #[cfg(test)]
    fn sql(&self) -> &'static str;
    fn param_count(&self) -> usize;
    /// The CTE, numbering its parameters from `$first`.
    fn cte(&self, first: usize) -> String;
}

impl<T: 'static> Kind for Part<T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn writes(&self) -> &'static str {
        self.writes
    }

    fn reads(&self) -> &'static [&'static str] {
        self.reads
    }

    #[cfg(test)]
    fn sql(&self) -> &'static str {
        self.sql
    }

    fn param_count(&self) -> usize {
        self.params.len()
    }

    fn cte(&self, first: usize) -> String {
        let arrays: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("${}::{}[]", first + i, p.sql_type()))
            .collect();
        let names: Vec<&str> = self.params.iter().map(|p| p.name()).collect();
        let rows = format!(
            "UNNEST({}) WITH ORDINALITY AS v({}, ord)",
            arrays.join(", "),
            names.join(", ")
        );
        format!("{} AS ({})", self.name, self.sql.replace("{rows}", &rows))
    }
}

/// A statement's own work, carried in the same round trip as whatever
/// writes are pending: more WITH entries and the final query, numbering their
/// parameters from `${0}`, bound after the pending writes' own.
pub(super) struct Rider {
    /// Its place among the cached statements (1 and up).
    pub slot: usize,
    /// Every table it reads or writes: no pending write of these rides with it.
    pub reads: &'static [&'static str],
    pub ctes: fn() -> String,
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

/// The statement for the kinds in `mask` (bit i: `KINDS[i]`) and the rider,
/// if any, built once.
pub(super) fn statement(mask: usize, rider: Option<&Rider>) -> &'static str {
    const PER_RIDER: usize = 1 << KIND_COUNT;
    static STATEMENTS: [OnceLock<String>; PER_RIDER * RIDER_SLOTS] =
        [const { OnceLock::new() }; PER_RIDER * RIDER_SLOTS];
    let slot = rider.map_or(0, |r| r.slot);
    assert!(slot < RIDER_SLOTS, "rider slot {slot} out of range");
    STATEMENTS[slot * PER_RIDER + mask].get_or_init(|| {
        debug_assert!(
            rider.is_none_or(|r| may_ride(mask, r)),
            "kinds {mask:b} write what the rider reads"
        );
        debug_assert!(
            parts_apart(mask),
            "kinds {mask:b} read what others of them write"
        );
        let mut next_param = 1;
        let mut ctes: Vec<String> = Vec::new();
        for (i, kind) in KINDS.iter().enumerate() {
            if mask & (1 << i) != 0 {
                ctes.push(kind.cte(next_param));
                next_param += kind.param_count();
            }
        }
        let select = match rider {
            Some(rider) => {
                ctes.push(number(&(rider.ctes)(), rider.params, next_param));
                number(rider.select, rider.params, next_param)
            }
            None => "SELECT 1".to_string(),
        };
        format!("WITH {} {select}", ctes.join(",\n"))
    })
}

/// The tables the kinds in `mask` write.
pub(super) fn tables_written(mask: usize) -> impl Iterator<Item = &'static str> {
    KINDS
        .iter()
        .enumerate()
        .filter(move |(i, _)| mask & (1 << i) != 0)
        .map(|(_, k)| k.writes())
}

/// Whether the kinds in `mask` may go out in `rider`'s statement: none of
/// them writes a table it reads, since the CTEs of one statement do not see
/// each other's writes.
pub(super) fn may_ride(mask: usize, rider: &Rider) -> bool {
    tables_written(mask).all(|t| !rider.reads.contains(&t))
}

/// Whether no kind in `mask` reads a table another kind in it writes.
fn parts_apart(mask: usize) -> bool {
    let present: Vec<&dyn Kind> = KINDS
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, k)| *k)
        .collect();
    present.iter().all(|a| {
        present
            .iter()
            .all(|b| a.name() == b.name() || !a.reads().contains(&b.writes()))
    })
}

/// One kind's rows, type-erased.
trait Queued {
    fn bind<'q>(&'q self, q: PgQuery<'q>) -> PgQuery<'q>;
    fn as_any(&mut self) -> &mut dyn Any;
}

struct Rows<T: 'static> {
    part: &'static Part<T>,
    rows: Vec<T>,
}

impl<T: 'static> Queued for Rows<T> {
    fn bind<'q>(&'q self, q: PgQuery<'q>) -> PgQuery<'q> {
        self.part
            .params
            .iter()
            .fold(q, |q, param| param.bind(&self.rows, q))
    }

    fn as_any(&mut self) -> &mut dyn Any {
        self
    }
}

/// The writes a transaction holds back, per kind (slot i: `KINDS[i]`).
#[derive(Default)]
pub(super) struct Pending {
    slots: [Option<Box<dyn Queued>>; KIND_COUNT],
}

impl Pending {
    /// Holds back one row of `part`'s write.
    pub fn put<T: 'static>(&mut self, part: &'static Part<T>, row: T) {
        let index = KINDS
            .iter()
            .position(|k| std::ptr::addr_eq(*k as *const dyn Kind, part as *const Part<T>))
            .unwrap_or_else(|| panic!("part {} is missing from parts::KINDS", part.name));
        let slot = self.slots[index].get_or_insert_with(|| {
            Box::new(Rows {
                part,
                rows: Vec::new(),
            })
        });
        let rows = &mut slot
            .as_any()
            .downcast_mut::<Rows<T>>()
            .expect("a slot holds its own part's rows")
            .rows;
        match part.key {
            Some(key) => match rows.iter_mut().find(|old| key(old) == key(&row)) {
                Some(old) => *old = row,
                None => rows.push(row),
            },
            None => rows.push(row),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.mask() == 0
    }

    /// Which kinds of write are pending, as [`statement`] takes them.
    pub fn mask(&self) -> usize {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.is_some())
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// Whether every pending write may ride with `rider` (see [`may_ride`]).
    pub fn may_ride_with(&self, rider: &Rider) -> bool {
        may_ride(self.mask(), rider)
    }

    /// Binds every pending write's parameters to [`statement`]'s query, in `KINDS`' order.
    pub fn bind<'q>(&'q self, q: PgQuery<'q>) -> PgQuery<'q> {
        self.slots.iter().flatten().fold(q, |q, rows| rows.bind(q))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::store::postgres::players::ACCEPT_INBOUND;

    const ALL: usize = (1 << KIND_COUNT) - 1;

    fn index(name: &str) -> usize {
        KINDS.iter().position(|k| k.name() == name).unwrap()
    }

    /// The tables an SQL text names after UPDATE, INTO, FROM, JOIN or USING,
    /// other than the CTEs it defines or reads (`names`).
    fn tables_named(sql: &str, ctes: &[&str]) -> BTreeSet<String> {
        let words: Vec<&str> = sql
            .split(|c: char| c.is_whitespace() || c == ',' || c == ')')
            .filter(|w| !w.is_empty())
            .collect();
        words
            .windows(2)
            .filter(|w| ["UPDATE", "INTO", "FROM", "JOIN", "USING"].contains(&w[0]))
            .map(|w| w[1])
            .filter(|t| t.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .filter(|t| !ctes.contains(t))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_part_declares_exactly_the_tables_its_sql_names() {
        for kind in KINDS {
            let named = tables_named(kind.sql(), &[]);
            let declared: BTreeSet<String> = kind.reads().iter().map(|t| t.to_string()).collect();
            assert_eq!(named, declared, "{}", kind.name());
            assert!(kind.reads().contains(&kind.writes()), "{}", kind.name());
        }
        let rider = (ACCEPT_INBOUND.ctes)();
        let named = tables_named(&rider, &["arrived", "sender"]);
        let declared: BTreeSet<String> =
            ACCEPT_INBOUND.reads.iter().map(|t| t.to_string()).collect();
        assert_eq!(named, declared, "the inbound rider");
    }

    #[test]
    fn no_part_reads_a_table_another_part_writes() {
        // Any kinds may share one statement, whose CTEs see the database as
        // it was before it.
        assert!(parts_apart(ALL));
        for a in KINDS {
            for b in KINDS {
                if a.name() != b.name() {
                    assert!(
                        !a.reads().contains(&b.writes()),
                        "{} reads {}, which {} writes",
                        a.name(),
                        b.writes(),
                        b.name()
                    );
                }
            }
        }
    }

    #[test]
    fn a_rider_never_carries_writes_to_a_table_it_reads() {
        let players = 1 << index("saved_players");
        assert!(
            !may_ride(players, &ACCEPT_INBOUND),
            "the sender's row is read"
        );
        assert!(!may_ride(ALL, &ACCEPT_INBOUND));
        for mask in 0..=ALL {
            if may_ride(mask, &ACCEPT_INBOUND) {
                for table in tables_written(mask) {
                    assert!(
                        !ACCEPT_INBOUND.reads.contains(&table),
                        "{mask:b} writes {table}"
                    );
                }
            }
        }
        // a move's usual mix rides along
        let usual = [
            "queued_texts",
            "saved_matches",
            "saved_seats",
            "recorded_moves",
            "left_lobby",
        ]
        .iter()
        .fold(0, |m, n| m | 1 << index(n));
        assert!(may_ride(usual, &ACCEPT_INBOUND));
    }

    #[test]
    fn parameters_are_numbered_across_the_parts_present() {
        let texts = KINDS[index("queued_texts")];
        let moves = KINDS[index("recorded_moves")];
        let sql = statement(
            1 << index("queued_texts") | 1 << index("recorded_moves"),
            None,
        );
        assert!(sql.starts_with("WITH queued_texts AS"), "{sql}");
        let first_move = texts.param_count() + 1;
        assert!(sql.contains("UNNEST($1::text[]"), "{sql}");
        assert!(sql.contains(&format!(
            "UNNEST(${first_move}::bigint[], ${}::int[]",
            first_move + 1
        )));
        let last = texts.param_count() + moves.param_count();
        assert!(sql.contains(&format!("${last}::text[]) WITH ORDINALITY")));
        assert!(!sql.contains("${") && !sql.contains("{rows}"));
        assert!(!sql.contains("saved_players"));
        // every part at once uses every parameter once
        let all = statement(ALL, None);
        let total: usize = KINDS.iter().map(|k| k.param_count()).sum();
        assert!(all.contains(&format!("${total}::")));
        assert!(!all.contains(&format!("${}::", total + 1)));
    }

    #[test]
    fn a_rider_numbers_its_parameters_after_the_pending_writes() {
        static RIDER: Rider = Rider {
            slot: 1,
            reads: &[],
            ctes: || "mine AS (SELECT ${0}::int AS a, ${1}::int AS b, ${0}::int AS c)".into(),
            select: "SELECT a, b, c, ${1}::int FROM mine",
            params: 2,
        };
        let lobby = 1 << index("left_lobby");
        let after = statement(lobby, Some(&RIDER));
        assert!(after.starts_with("WITH left_lobby AS"), "{after}");
        assert!(after.contains("UNNEST($1::bigint[])"));
        assert!(
            after.ends_with("SELECT a, b, c, $3::int FROM mine"),
            "{after}"
        );
    }

    #[test]
    fn a_keyed_row_written_twice_keeps_its_last_write_and_inserts_keep_all() {
        let mut pending = Pending::default();
        assert!(pending.is_empty());
        pending.put(&super::super::parts::LEFT_LOBBY, 5);
        pending.put(&super::super::parts::LEFT_LOBBY, 5);
        pending.put(&super::super::parts::LEFT_LOBBY, 6);
        assert_eq!(pending.mask(), 1 << index("left_lobby"));
        let rows = pending.slots[index("left_lobby")]
            .as_mut()
            .unwrap()
            .as_any()
            .downcast_mut::<Rows<i64>>()
            .unwrap();
        assert_eq!(rows.rows, [5, 6]);
    }
}
