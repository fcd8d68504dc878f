-- Up Migration
-- Intent: the fee schedule is configuration the operator changes without a redeploy (one row per
-- quote type and currency, replaced whole, every revision kept for audit), seeded with the defaults
-- documented in services/quotes/README.md; and quotes, each with the fee fixed when it was issued.
-- Amounts are BIGINT minor units; tiers hold minor units as decimal strings, never JSON numbers.
CREATE TABLE fee_schedules (
  quote_type text NOT NULL CHECK (quote_type IN ('collection', 'disbursement')),
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  tiers jsonb NOT NULL CHECK (jsonb_typeof(tiers) = 'array' AND jsonb_array_length(tiers) BETWEEN 1 AND 20),
  minimum_fee_minor bigint NOT NULL CHECK (minimum_fee_minor >= 0),
  maximum_fee_minor bigint NOT NULL,
  revision integer NOT NULL CHECK (revision >= 1),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (quote_type, currency),
  CHECK (maximum_fee_minor >= minimum_fee_minor)
);

-- Append-only: one row per revision of each schedule, including the seeded one.
CREATE TABLE fee_schedule_revisions (
  quote_type text NOT NULL,
  currency text NOT NULL,
  revision integer NOT NULL,
  tiers jsonb NOT NULL,
  minimum_fee_minor bigint NOT NULL,
  maximum_fee_minor bigint NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (quote_type, currency, revision),
  FOREIGN KEY (quote_type, currency) REFERENCES fee_schedules (quote_type, currency)
);

INSERT INTO fee_schedules (quote_type, currency, tiers, minimum_fee_minor, maximum_fee_minor, revision) VALUES
  ('collection', 'USD',
   '[{"upToMinor": "10000", "flatMinor": "0", "basisPoints": 100},
     {"upToMinor": "100000", "flatMinor": "25", "basisPoints": 75},
     {"upToMinor": null, "flatMinor": "275", "basisPoints": 50}]', 10, 2000, 1),
  ('disbursement', 'USD',
   '[{"upToMinor": "10000", "flatMinor": "25", "basisPoints": 100},
     {"upToMinor": "100000", "flatMinor": "50", "basisPoints": 75},
     {"upToMinor": null, "flatMinor": "300", "basisPoints": 50}]', 25, 2500, 1),
  ('collection', 'LRD',
   '[{"upToMinor": "2000000", "flatMinor": "0", "basisPoints": 100},
     {"upToMinor": "20000000", "flatMinor": "5000", "basisPoints": 75},
     {"upToMinor": null, "flatMinor": "55000", "basisPoints": 50}]', 2000, 400000, 1),
  ('disbursement', 'LRD',
   '[{"upToMinor": "2000000", "flatMinor": "5000", "basisPoints": 100},
     {"upToMinor": "20000000", "flatMinor": "10000", "basisPoints": 75},
     {"upToMinor": null, "flatMinor": "60000", "basisPoints": 50}]', 5000, 500000, 1);

INSERT INTO fee_schedule_revisions (quote_type, currency, revision, tiers, minimum_fee_minor, maximum_fee_minor)
  SELECT quote_type, currency, revision, tiers, minimum_fee_minor, maximum_fee_minor FROM fee_schedules;

-- A quote is consumed once by a conditional UPDATE of used_at; it never returns to unused.
CREATE TABLE quotes (
  quote_id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  quote_type text NOT NULL CHECK (quote_type IN ('collection', 'disbursement')),
  phone text NOT NULL CHECK (phone ~ '^\+231[0-9]{9}$'),
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  fee_minor bigint NOT NULL CHECK (fee_minor >= 0),
  total_debit_minor bigint GENERATED ALWAYS AS (amount_minor + fee_minor) STORED,
  recipient_name text NOT NULL,
  recipient_account_status text NOT NULL,
  recipient_has_wallet boolean NOT NULL,
  partner_balance_minor bigint NOT NULL,
  fee_schedule_revision integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (expires_at > created_at),
  CHECK (used_at IS NULL OR used_at >= created_at)
);
-- For housekeeping of expired quotes and for support looking up a partner's recent quotes.
CREATE INDEX quotes_expires_at_idx ON quotes (expires_at);
CREATE INDEX quotes_partner_created_idx ON quotes (partner_id, created_at);

-- Down Migration
DROP TABLE quotes;
DROP TABLE fee_schedule_revisions;
DROP TABLE fee_schedules;
