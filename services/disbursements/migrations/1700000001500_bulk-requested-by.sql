-- Up Migration
-- Intent: who of the partner confirmed a bulk payout (decision 0058, addendum of 2026-11-29): the
-- actor the edge named in x-partner-actor when the bulk transfer was accepted, member:<uuid> for
-- a member of the partner's team in the dashboard, client:<uuid> for an API client through the
-- gateway. Null for the bulks accepted before this column and for a caller that named no actor.
-- Additive and nullable: no row is rewritten, and the version before ignores the column.
ALTER TABLE bulks
  ADD COLUMN requested_by text
    CONSTRAINT bulks_requested_by_form CHECK (requested_by ~ '^(member|client):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');

-- Down Migration
ALTER TABLE bulks DROP COLUMN requested_by;
