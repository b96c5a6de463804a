-- Delivery reports that arrived before the text they name was recorded as
-- sent (a fast SMSC can report before the provider's answer to our send is
-- stored): kept here under the provider's reference and applied when the
-- text is recorded, so no report is lost to that race. A row nothing claims
-- within a day is dropped.
CREATE TABLE early_reports (
    provider_ref  TEXT PRIMARY KEY,
    status        TEXT NOT NULL,
    error         TEXT,
    received_at   INTEGER NOT NULL
);
CREATE INDEX early_reports_received ON early_reports (received_at);
