//! A text's reference, as its delivery reports name it: ours (a letter and
//! the text's id, `g12`), found by the id, or one a provider gave, found in
//! `outbox_by_ref`.
//!
//! Our senders make their references from the text's id, so the id finds
//! the text already; `outbox_by_ref` leaves them out (its condition is the
//! one [`own_id`] reads), and every text sent no longer enters that index.
//! The condition names our letters one by one rather than cutting the first
//! character off with `substr()`: SQLite takes a statement that calls a
//! function to be one that may abort half-way, and gives every multi-row
//! `INSERT` into the outbox a statement journal for it.

use super::StoreResult;
use super::rows::Record;
use super::sql::Sql;
use super::statements::{Statement, Value};

/// Digits an id has at most: a billion texts a day for two million years.
/// PostgreSQL's record of sends reads the same form (`postgres/outbox.rs`).
const ID_DIGITS: usize = 18;

/// The letters our senders begin their references with: generic, the
/// hall, Kannel, Vonage. `outbox_by_ref`'s condition (the migrations, and
/// the statements that look a reference up) names each.
pub(crate) const OWN_LETTERS: [char; 4] = ['g', 'h', 'k', 'v'];

/// The id `reference` would be made from if it were ours: what follows one
/// of [`OWN_LETTERS`], read as the id is written (no sign, no leading zero),
/// exactly as the index's condition `'g' || CAST(id AS TEXT)` writes it.
pub(crate) fn own_id(reference: &str) -> Option<i64> {
    let mut chars = reference.chars();
    if !OWN_LETTERS.contains(&chars.next()?) {
        return None;
    }
    let digits = chars.as_str();
    let canonical = digits.bytes().all(|b| b.is_ascii_digit())
        && (1..=ID_DIGITS).contains(&digits.len())
        && (digits == "0" || !digits.starts_with('0'));
    if !canonical {
        return None;
    }
    digits.parse().ok()
}

/// The text `reference` names: by the id when it reads as one of ours
/// (`own`, bound to `:id` and `:reference`), else through `outbox_by_ref`
/// (`given`, bound to `:reference`). A reference of that form that a
/// provider gave another text is found by the second.
pub(crate) fn text_by<R: Record>(
    db: &mut impl Sql,
    own: &Statement,
    given: &Statement,
    reference: &str,
) -> StoreResult<Option<R>> {
    if let Some(id) = own_id(reference) {
        let found = db.first(
            own,
            &[
                (":id", Value::Int(id)),
                (":reference", Value::Text(reference)),
            ],
        )?;
        if found.is_some() {
            return Ok(found);
        }
    }
    db.first(given, &[(":reference", Value::Text(reference))])
}

#[cfg(test)]
mod tests {
    use super::{OWN_LETTERS, own_id};

    #[test]
    fn our_references_read_back_as_the_ids_they_were_made_from() {
        for (reference, id) in [
            ("g12", 12),
            ("k1", 1),
            ("h0", 0),
            ("v9007199254740993", 9007199254740993),
        ] {
            assert_eq!(own_id(reference), Some(id), "{reference}");
            assert_eq!(format!("{}{id}", &reference[..1]), reference);
        }
    }

    /// Each of our letters is in `outbox_by_ref`'s condition, in both
    /// backends' migrations and in the statements that look a reference up,
    /// and no other letter is.
    #[test]
    fn the_index_condition_names_our_letters_and_no_other() {
        use crate::store::statements::outbox::{ANSWERED, TEXT_BY_REFERENCE};
        let sqlite = include_str!("../../migrations/sqlite/0014_own_letters.sql");
        let postgres = include_str!("../../migrations/postgres/0014_own_letters.sql");
        let by_reference = TEXT_BY_REFERENCE.sqlite();
        let answered = ANSWERED.sqlite();
        for letter in 'a'..='z' {
            let own = OWN_LETTERS.contains(&letter);
            let plain = format!("'{letter}' || CAST(id AS TEXT)");
            let aliased = format!("'{letter}' || CAST(o.id AS TEXT)");
            assert_eq!(sqlite.contains(&plain), own, "{letter} in SQLite's index");
            assert_eq!(
                postgres.contains(&plain),
                own,
                "{letter} in PostgreSQL's index"
            );
            assert_eq!(
                by_reference.contains(&plain),
                own,
                "{letter} in {by_reference}"
            );
            assert_eq!(answered.contains(&aliased), own, "{letter} in {answered}");
        }
    }

    #[test]
    fn a_reference_no_id_writes_so_is_a_providers() {
        for reference in [
            "",
            "g",
            "g012",
            "g-1",
            "g+1",
            "g1.0",
            "g 1",
            "SM0123456789abcdef",
            "a3f2-77",
            "g1000000000000000000",
            // Not one of our letters: Kannel's answers (`a` and its id),
            // or a provider's reference that happens to look like ours.
            "a42",
            "x12",
            "é42",
        ] {
            assert_eq!(own_id(reference), None, "{reference}");
        }
    }
}
