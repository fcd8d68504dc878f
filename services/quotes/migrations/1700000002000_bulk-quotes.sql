-- Up Migration
-- Intent: bulk disbursement quotes (issue 20): one bulk quote per priced, checked bulk of one
-- partner and currency, usable once before it expires (consumed by a conditional UPDATE of used_at,
-- never returning to unused), with its valid items, each with its fee fixed. Items the wallet
-- refused are answered but not stored. Amounts are BIGINT minor units.
CREATE TABLE bulk_quotes (
  bulk_quote_id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  fee_schedule_revision integer NOT NULL CHECK (fee_schedule_revision >= 1),
  partner_balance_minor bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (expires_at > created_at),
  CHECK (used_at IS NULL OR used_at >= created_at)
);
-- For housekeeping of expired bulk quotes and for support looking up a partner's recent ones.
CREATE INDEX bulk_quotes_expires_at_idx ON bulk_quotes (expires_at);
CREATE INDEX bulk_quotes_partner_created_idx ON bulk_quotes (partner_id, created_at);

CREATE TABLE bulk_quote_items (
  bulk_quote_id uuid NOT NULL REFERENCES bulk_quotes (bulk_quote_id) ON DELETE CASCADE,
  -- The item's place in the partner's list (0-based; a bulk carries at most 1,000 items).
  item_index integer NOT NULL CHECK (item_index BETWEEN 0 AND 999),
  phone text NOT NULL CHECK (phone ~ '^\+231[0-9]{9}$'),
  recipient_name text NOT NULL CHECK (length(recipient_name) >= 1),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  fee_minor bigint NOT NULL CHECK (fee_minor >= 0),
  external_id text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 100),
  note text CHECK (note IS NULL OR length(note) BETWEEN 1 AND 200),
  PRIMARY KEY (bulk_quote_id, item_index)
);

-- Down Migration
DROP TABLE bulk_quote_items;
DROP TABLE bulk_quotes;
