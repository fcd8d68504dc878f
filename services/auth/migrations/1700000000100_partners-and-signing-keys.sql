-- Up Migration
-- Intent: partners with their credentials (the client secret only as an argon2id hash), status,
-- permissions, rate-limit override and webhook URL; and the environment's token signing keys, whose
-- private halves are stored encrypted (AES-256-GCM under AUTH_KEY_ENCRYPTION_KEY).
CREATE TABLE partners (
  partner_id uuid PRIMARY KEY,
  client_id uuid NOT NULL UNIQUE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  client_secret_hash text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'suspended', 'pending_activation', 'inactive')),
  permissions text[] NOT NULL DEFAULT '{}'
    CHECK (permissions <@ ARRAY['collection', 'disbursement']::text[]),
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  webhook_url text CHECK (webhook_url IS NULL OR webhook_url ~ '^https?://'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  secret_rotated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  algorithm text NOT NULL CHECK (algorithm = 'ES256'),
  public_jwk jsonb NOT NULL,
  private_key_ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);
-- At most one key signs at a time; retired keys stay published until their tokens have expired.
CREATE UNIQUE INDEX signing_keys_one_active_idx ON signing_keys ((true)) WHERE retired_at IS NULL;

-- Down Migration
DROP TABLE signing_keys;
DROP TABLE partners;
