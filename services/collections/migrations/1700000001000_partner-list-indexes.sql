-- Up Migration
-- Intent: GET /partner/v1/collections (issue 18, decision 0049) reads a partner's collections
-- newest first by keyset pagination over (created_at, id), never OFFSET. Each index starts with
-- partner_id and ends with (created_at, id), so a page, a filtered page and an externalId lookup
-- are one index range scan in list order that stops after limit + 1 rows:
--   * partner alone (and createdFrom/createdTo, which are ranges of created_at);
--   * partner and the partner-visible status: the expression shows processing (an approval being
--     posted) as pending_approval exactly as src/store/collection-list-store.ts writes it (the
--     planner matches the expression, so the two must stay the same);
--   * partner and currency;
--   * partner and external_id: every request, not only the one the unique index holds.
-- Indexes only: no row changes. Built in the migration's transaction (the table is small where this
-- runs first; on a large table create them CONCURRENTLY by hand, same names, before deploying: IF
-- NOT EXISTS then leaves them as they are).
CREATE INDEX IF NOT EXISTS collection_requests_partner_created ON collection_requests (partner_id, created_at, id);
CREATE INDEX IF NOT EXISTS collection_requests_partner_status_created
  ON collection_requests (partner_id, (CASE status WHEN 'processing' THEN 'pending_approval' ELSE status END), created_at, id);
CREATE INDEX IF NOT EXISTS collection_requests_partner_currency_created ON collection_requests (partner_id, currency, created_at, id);
CREATE INDEX IF NOT EXISTS collection_requests_partner_external_id_created ON collection_requests (partner_id, external_id, created_at, id);

-- Down Migration
DROP INDEX collection_requests_partner_external_id_created;
DROP INDEX collection_requests_partner_currency_created;
DROP INDEX collection_requests_partner_status_created;
DROP INDEX collection_requests_partner_created;
