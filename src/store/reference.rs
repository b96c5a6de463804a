//! A text's reference, as its delivery reports name it: ours (a letter and
//! the text's id, `g12`), found by the id, or one a provider gave, found in
//! `outbox_by_ref`.
//!
//! Our senders make their references from the text's id, so the id finds
//! the text already; `outbox_by_ref` leaves them out (its condition is the
//! one [`own_id`] reads), and every text sent no longer enters that index.

use super::StoreResult;
use super::rows::Record;
use super::sql::Sql;
use super::statements::{Statement, Value};

/// Digits an id has at most: a billion texts a day for two million years.
/// PostgreSQL's record of sends reads the same form (`postgres/outbox.rs`).
const ID_DIGITS: usize = 18;

/// The id `reference` would be made from if it were ours: what follows its
/// first character, read as the id is written (no sign, no leading zero),
/// exactly as the index's condition `substr(ref, 1, 1) || CAST(id AS TEXT)`
/// writes it.
pub(crate) fn own_id(reference: &str) -> Option<i64> {
    let mut chars = reference.chars();
    chars.next()?;
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
    use super::own_id;

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
        // A letter that is not ASCII is still one character, as in SQL's substr.
        assert_eq!(own_id("é42"), Some(42));
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
        ] {
            assert_eq!(own_id(reference), None, "{reference}");
        }
    }
}
