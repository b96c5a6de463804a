//! Texts in: the parts of long texts until the last arrives, and old texts
//! trimmed to what deduplication needs.

use super::Statement;

/// Takes one part by its own id: changes no row when it was taken before.
pub(crate) static TAKE_PART: Statement = Statement::same(
    "take part",
    "INSERT INTO inbound_parts (provider, provider_id, received_at)
     VALUES (:provider, :provider_id, :received_at)
     ON CONFLICT DO NOTHING",
);

pub(crate) static KEEP_FRAGMENT: Statement = Statement::same(
    "keep fragment",
    "INSERT INTO inbound_fragments
        (provider, from_phone, concat_ref, total, part, provider_id, body, received_at)
     VALUES (:provider, :from_phone, :concat_ref, :total, :part, :provider_id, :body, :received_at)
     ON CONFLICT DO NOTHING",
);

/// A long text's parts so far, in order.
pub(crate) static FRAGMENTS: Statement = Statement::differing(
    "fragments",
    "SELECT provider_id, body FROM inbound_fragments
     WHERE provider = :provider AND from_phone = :from_phone AND concat_ref = :concat_ref
       AND total = :total
     ORDER BY part",
    "SELECT provider_id, body FROM inbound_fragments
     WHERE provider = :provider AND from_phone = :from_phone AND concat_ref = :concat_ref
       AND total = :total
     ORDER BY part
     FOR UPDATE",
    "SQLite has one writer and no row locks",
);

pub(crate) static DROP_FRAGMENTS: Statement = Statement::same(
    "drop fragments",
    "DELETE FROM inbound_fragments
     WHERE provider = :provider AND from_phone = :from_phone AND concat_ref = :concat_ref
       AND total = :total",
);

pub(crate) static DROP_STALE_FRAGMENTS: Statement = Statement::same(
    "drop stale fragments",
    "DELETE FROM inbound_fragments WHERE received_at < :before",
);

/// The next texts in by id, the primary key: an index on the time would
/// cost every inbound text its upkeep, for a sweep that runs now and then.
pub(crate) static INBOUND_AFTER: Statement = Statement::same(
    "inbound after",
    "SELECT id, received_at FROM inbound WHERE id > :after_id ORDER BY id LIMIT :limit",
);

pub(crate) static TRIM_INBOUND: Statement = Statement::same(
    "trim inbound",
    "UPDATE inbound SET body = '', from_phone = '', to_number = ''
     WHERE id > :after_id AND id <= :last AND (body <> '' OR from_phone <> '')",
);
