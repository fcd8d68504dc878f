-- Up Migration
-- Intent: one row per collection request, from the partner's confirm call to its final status.
-- The state machine lives in src/domain/collection-state-machine.ts; every transition is one
-- conditional UPDATE on this table, so concurrent actors (user, sweeper, recovery worker, other
-- replicas) always have exactly one winner.
CREATE TABLE collection_requests (
  id uuid PRIMARY KEY,                      -- also the wallet transferId of the posting
  reference_id text NOT NULL UNIQUE,        -- PKC-<digits>-<UPPERCASE HEX>
  partner_id uuid NOT NULL,
  external_id text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 100),
  quote_id uuid NOT NULL UNIQUE,            -- a quote is consumed once, so it confirms one collection
  phone text NOT NULL,                      -- +231 form
  recipient_name text NOT NULL,
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  fee_minor bigint NOT NULL CHECK (fee_minor >= 0),
  note text CHECK (note IS NULL OR char_length(note) <= 200),
  status text NOT NULL CHECK (status IN ('pending_approval', 'processing', 'completed', 'declined', 'expired', 'failed')),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  approved_at timestamptz,
  resolved_at timestamptz,                  -- when it reached a final status
  transaction_id text,                      -- TXN-<UPPERCASE HEX>, completed only
  failure_code text,                        -- failed only: the wallet's refusal code or the simulation's
  posting_attempts integer NOT NULL DEFAULT 0,
  next_posting_at timestamptz,              -- processing only: when the recovery worker may re-drive it
  CHECK ((status = 'completed') = (transaction_id IS NOT NULL)),
  CHECK (status <> 'processing' OR next_posting_at IS NOT NULL)
);

-- externalId is unique per partner among in-progress and completed collections (spec, idempotency
-- rule 1); a declined, expired or failed one frees it. The database, not a read, decides.
CREATE UNIQUE INDEX collection_requests_external_id_in_use
  ON collection_requests (partner_id, external_id)
  WHERE status IN ('pending_approval', 'processing', 'completed');

-- The sweeper's and the recovery worker's scans, and the user's list of pending requests.
CREATE INDEX collection_requests_pending_expiry ON collection_requests (expires_at) WHERE status = 'pending_approval';
CREATE INDEX collection_requests_processing_due ON collection_requests (next_posting_at) WHERE status = 'processing';
CREATE INDEX collection_requests_pending_by_phone ON collection_requests (phone, created_at) WHERE status = 'pending_approval';

-- Down Migration
DROP TABLE collection_requests;
