-- Up Migration
-- Intent: one row per transfer call that got past quote consumption. The row's id is the wallet
-- transfer id (the idempotency id of the posting), the reference id is the partner's handle.
-- externalId uniqueness per partner is the partial unique index: only processing and completed
-- rows hold an externalId, so a failed or timed-out attempt leaves it free for a fresh attempt.
-- Amounts are integer minor units. State changes are guarded by "WHERE status = 'processing'".
CREATE TABLE disbursements (
  disbursement_id uuid PRIMARY KEY,
  reference_id text NOT NULL UNIQUE CHECK (reference_id ~ '^PKD-[0-9]+-[0-9A-F]+$'),
  partner_id uuid NOT NULL,
  external_id text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 100),
  quote_id uuid NOT NULL UNIQUE,
  phone text NOT NULL,
  recipient_name text NOT NULL,
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  fee_minor bigint NOT NULL CHECK (fee_minor >= 0),
  note text CHECK (char_length(note) <= 200),
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed', 'timed_out')),
  transaction_id text CHECK (transaction_id ~ '^TXN-[0-9A-F]+$'),
  failure_code text CHECK (failure_code ~ '^PKC_[0-9]{4}$'),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at timestamptz,
  settled_at timestamptz,
  CONSTRAINT disbursements_completed_has_transaction
    CHECK ((status = 'completed') = (transaction_id IS NOT NULL AND completed_at IS NOT NULL)),
  CONSTRAINT disbursements_unsuccessful_has_code
    CHECK ((status IN ('failed', 'timed_out')) = (failure_code IS NOT NULL)),
  CONSTRAINT disbursements_settled_when_final
    CHECK ((status = 'processing') = (settled_at IS NULL))
);

CREATE UNIQUE INDEX disbursements_partner_external_id_active_idx
  ON disbursements (partner_id, external_id)
  WHERE status IN ('processing', 'completed');

CREATE INDEX disbursements_processing_idx ON disbursements (created_at) WHERE status = 'processing';

-- Down Migration
DROP TABLE disbursements;
