-- Up Migration
-- Intent: GET /partner/v1/disbursements (issue 18, decision 0049) reads a partner's disbursements
-- newest first by keyset pagination over (created_at, disbursement_id), never OFFSET. Each index
-- starts with partner_id and ends with (created_at, disbursement_id), so a page, a filtered page and
-- an externalId lookup are one index range scan in list order that stops after limit + 1 rows:
--   * partner alone (and createdFrom/createdTo, which are ranges of created_at);
--   * partner and the partner-visible status: the expression maps processing to pending and
--     timed_out to failed exactly as src/store/disbursement-list-store.ts writes it (the planner
--     matches the expression, so the two must stay the same), so status=failed is one range;
--   * partner and currency;
--   * partner and external_id: every attempt, not only the active one the unique index holds.
-- Indexes only: no row changes. Built in the migration's transaction (the table is small where this
-- runs first; on a large table create them CONCURRENTLY by hand, same names, before deploying: IF
-- NOT EXISTS then leaves them as they are).
CREATE INDEX IF NOT EXISTS disbursements_partner_created_idx ON disbursements (partner_id, created_at, disbursement_id);
CREATE INDEX IF NOT EXISTS disbursements_partner_status_created_idx
  ON disbursements (partner_id, (CASE status WHEN 'processing' THEN 'pending' WHEN 'timed_out' THEN 'failed' ELSE status END), created_at, disbursement_id);
CREATE INDEX IF NOT EXISTS disbursements_partner_currency_created_idx ON disbursements (partner_id, currency, created_at, disbursement_id);
CREATE INDEX IF NOT EXISTS disbursements_partner_external_id_created_idx ON disbursements (partner_id, external_id, created_at, disbursement_id);

-- Down Migration
DROP INDEX disbursements_partner_external_id_created_idx;
DROP INDEX disbursements_partner_currency_created_idx;
DROP INDEX disbursements_partner_status_created_idx;
DROP INDEX disbursements_partner_created_idx;
