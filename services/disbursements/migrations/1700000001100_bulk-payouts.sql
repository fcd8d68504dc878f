-- Up Migration
-- Intent: bulk payouts (issue 20, decision 0055). A bulk is one partner's call that pays up to
-- 1,000 people; each of its payouts is a disbursement of its own (own reference id, status,
-- webhook, place in lists and statements), posted in batches by the bulk processor.
--   * bulks: one row per accepted bulk, keyed by the partner's handle (PKB-…). Its externalId is unique per partner (a bulk sent again
--     with the same externalId and bulk quote answers the bulk it made). The status only moves
--     from processing to a final one, once every item is final.
--   * disbursements gain bulk_id and bulk_index (the item's place in the partner's list). A bulk
--     item has no quote of its own (the bulk quote fixed its fee), so quote_id is NULL exactly for
--     bulk items. lease_until is the bulk processor's claim on an item it is posting: an item
--     whose lease ran out (its processor died) is claimed again and its batch sent again, which the
--     wallet answers with each item's first outcome (exactly once, by the transfer id).
-- The settlement sweep of single transfers leaves bulk items alone (they have no request budget).
CREATE TABLE bulks (
  bulk_id text PRIMARY KEY CHECK (bulk_id ~ '^PKB-[0-9]+-[0-9A-F]+$'),
  partner_id uuid NOT NULL,
  external_id text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 100),
  bulk_quote_id uuid NOT NULL UNIQUE,
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  item_count integer NOT NULL CHECK (item_count BETWEEN 1 AND 1000),
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'completed_with_failures')),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at timestamptz,
  CONSTRAINT bulks_completed_when_final CHECK ((status = 'processing') = (completed_at IS NULL)),
  CONSTRAINT bulks_partner_external_id_key UNIQUE (partner_id, external_id)
);

CREATE INDEX bulks_processing_idx ON bulks (created_at) WHERE status = 'processing';

ALTER TABLE disbursements
  ALTER COLUMN quote_id DROP NOT NULL,
  ADD COLUMN bulk_id text REFERENCES bulks (bulk_id),
  ADD COLUMN bulk_index integer CHECK (bulk_index BETWEEN 0 AND 999),
  ADD COLUMN lease_until timestamptz,
  ADD CONSTRAINT disbursements_quote_or_bulk CHECK ((quote_id IS NULL) = (bulk_id IS NOT NULL)),
  ADD CONSTRAINT disbursements_bulk_has_index CHECK ((bulk_id IS NULL) = (bulk_index IS NULL)),
  ADD CONSTRAINT disbursements_lease_only_for_bulk_items CHECK (lease_until IS NULL OR bulk_id IS NOT NULL);

-- One row per place in a bulk; a bulk's items page in this order.
CREATE UNIQUE INDEX disbursements_bulk_item_idx ON disbursements (bulk_id, bulk_index) WHERE bulk_id IS NOT NULL;
-- What the bulk processor claims: a bulk's items still processing, in the partner's order.
CREATE INDEX disbursements_bulk_processing_idx ON disbursements (bulk_id, bulk_index) WHERE bulk_id IS NOT NULL AND status = 'processing';

-- The settlement sweep's index (migration 1700000000001) now leaves bulk items out, as the sweep does.
DROP INDEX disbursements_processing_idx;
CREATE INDEX disbursements_processing_idx ON disbursements (created_at) WHERE status = 'processing' AND bulk_id IS NULL;

-- Down Migration
-- Refused while any bulk item exists: going back would have to delete payouts, which is never done.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM disbursements WHERE bulk_id IS NOT NULL) THEN
    RAISE EXCEPTION 'bulk payouts exist: the bulk-payouts migration cannot be undone without deleting payouts';
  END IF;
END $$;
DROP INDEX disbursements_processing_idx;
CREATE INDEX disbursements_processing_idx ON disbursements (created_at) WHERE status = 'processing';
DROP INDEX disbursements_bulk_processing_idx;
DROP INDEX disbursements_bulk_item_idx;
ALTER TABLE disbursements
  DROP CONSTRAINT disbursements_lease_only_for_bulk_items,
  DROP CONSTRAINT disbursements_bulk_has_index,
  DROP CONSTRAINT disbursements_quote_or_bulk,
  DROP COLUMN lease_until,
  DROP COLUMN bulk_index,
  DROP COLUMN bulk_id;
ALTER TABLE disbursements ALTER COLUMN quote_id SET NOT NULL;
DROP TABLE bulks;
