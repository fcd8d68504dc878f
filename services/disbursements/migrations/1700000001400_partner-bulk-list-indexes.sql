-- Up Migration
-- Intent: GET /partner/v1/disbursement/bulks lists a partner's bulk payouts newest first by keyset
-- pagination over (created_at, bulk_id), never OFFSET, like the disbursements list
-- (1700000001000_partner-list-indexes.sql). Each index starts with partner_id and ends with
-- (created_at, bulk_id), so a page is one index range scan in list order that stops after
-- limit + 1 rows:
--   * partner alone (and createdFrom/createdTo, which are ranges of created_at);
--   * partner and status (processing, completed, completed_with_failures).
-- Indexes only: no row changes. On a large table create them CONCURRENTLY by hand, same names,
-- before deploying: IF NOT EXISTS then leaves them as they are.
CREATE INDEX IF NOT EXISTS bulks_partner_created_idx ON bulks (partner_id, created_at, bulk_id);
CREATE INDEX IF NOT EXISTS bulks_partner_status_created_idx ON bulks (partner_id, status, created_at, bulk_id);

-- Down Migration
DROP INDEX bulks_partner_status_created_idx;
DROP INDEX bulks_partner_created_idx;
