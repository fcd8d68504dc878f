-- Up Migration
-- Intent: issue 19, two additions to the collection's life (decision 0052).
--
--   1. cancelled: the partner withdraws a pending request (POST /partner/v1/collection/{ref}/cancel).
--      A final status that frees the externalId, like declined and expired (the partial unique index
--      keeps naming only pending_approval, processing and completed, so it needs no change).
--   2. Refunds of a completed collection. collection_requests.refunded_minor is the sum of the
--      collection's refunds that are in progress or completed: a refund reserves its amount by one
--      conditional UPDATE (status completed, refunded_minor + amount <= amount_minor), so under any
--      concurrency the refunds never exceed what was collected; the CHECK says it once more. A
--      failed refund gives its amount back in the same transaction that fails it.
--      collection_refunds holds one row per refund, from the reservation to its final status; its
--      id is the wallet transferId of the refund's posting (idempotent, as for collections).
--      externalId is unique per partner among refunds in progress or completed (a failed one frees
--      it), decided by the partial unique index, never by a read.

ALTER TABLE collection_requests DROP CONSTRAINT collection_requests_status_check;
ALTER TABLE collection_requests ADD CONSTRAINT collection_requests_status_check
  CHECK (status IN ('pending_approval', 'processing', 'completed', 'declined', 'expired', 'failed', 'cancelled'));

ALTER TABLE collection_requests ADD COLUMN refunded_minor bigint NOT NULL DEFAULT 0;
ALTER TABLE collection_requests ADD CONSTRAINT collection_requests_refunds_within_amount
  CHECK (refunded_minor >= 0 AND refunded_minor <= amount_minor AND (refunded_minor = 0 OR status = 'completed'));

CREATE TABLE collection_refunds (
  id uuid PRIMARY KEY,                        -- also the wallet transferId of the refund's posting
  reference_id text NOT NULL UNIQUE,          -- PKR-<digits>-<UPPERCASE HEX>
  collection_id uuid NOT NULL REFERENCES collection_requests (id),
  partner_id uuid NOT NULL,
  external_id text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 100),
  phone text NOT NULL,
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  reason text CHECK (reason IS NULL OR char_length(reason) <= 200),
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  transaction_id text,
  failure_code text,
  failure_message text,
  posting_attempts integer NOT NULL DEFAULT 0,
  next_posting_at timestamptz,
  CHECK ((status = 'completed') = (transaction_id IS NOT NULL)),
  CHECK ((status = 'failed') = (failure_code IS NOT NULL)),
  CHECK (status <> 'processing' OR next_posting_at IS NOT NULL)
);

CREATE UNIQUE INDEX collection_refunds_external_id_in_use
  ON collection_refunds (partner_id, external_id)
  WHERE status IN ('processing', 'completed');
-- The collection's refunds (its status view), the recovery worker's scan, and the partner's lookups.
CREATE INDEX collection_refunds_of_collection ON collection_refunds (collection_id, created_at, id);
CREATE INDEX collection_refunds_processing_due ON collection_refunds (next_posting_at) WHERE status = 'processing';
CREATE INDEX collection_refunds_partner_created ON collection_refunds (partner_id, created_at, id);

-- Down Migration
DROP TABLE collection_refunds;
ALTER TABLE collection_requests DROP CONSTRAINT collection_requests_refunds_within_amount;
ALTER TABLE collection_requests DROP COLUMN refunded_minor;
ALTER TABLE collection_requests DROP CONSTRAINT collection_requests_status_check;
ALTER TABLE collection_requests ADD CONSTRAINT collection_requests_status_check
  CHECK (status IN ('pending_approval', 'processing', 'completed', 'declined', 'expired', 'failed'));
