-- Up Migration
-- Intent: GET /partner/v1/disbursements?phone= (issue 28: a partner's support finds a customer's
-- payouts by phone) is one index range scan in list order, like the other filters
-- (1700000001000_partner-list-indexes.sql): partner, the recipient's phone, then
-- (created_at, disbursement_id). Index only: no row changes. On a large table create it
-- CONCURRENTLY by hand, same name, before deploying: IF NOT EXISTS then leaves it as it is.
CREATE INDEX IF NOT EXISTS disbursements_partner_phone_created_idx ON disbursements (partner_id, phone, created_at, disbursement_id);

-- Down Migration
DROP INDEX disbursements_partner_phone_created_idx;
