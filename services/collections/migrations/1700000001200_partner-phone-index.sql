-- Up Migration
-- Intent: GET /partner/v1/collections?phone= (issue 28: a partner's support finds a customer's
-- payments by phone) is one index range scan in list order, like the other filters
-- (1700000001000_partner-list-indexes.sql): partner, the payer's phone, then (created_at, id).
-- Index only: no row changes. On a large table create it CONCURRENTLY by hand, same name, before
-- deploying: IF NOT EXISTS then leaves it as it is.
CREATE INDEX IF NOT EXISTS collection_requests_partner_phone_created ON collection_requests (partner_id, phone, created_at, id);

-- Down Migration
DROP INDEX collection_requests_partner_phone_created;
