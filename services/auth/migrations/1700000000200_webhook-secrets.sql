-- Up Migration
-- Intent: each partner's webhook signing secrets (whsec_...), stored only sealed (AES-256-GCM under
-- WEBHOOK_SECRET_SEALING_KEY, associated data "<partner_id>:<secret_id>"), with the window in which
-- each one is valid. A rotation adds a row and closes the previous ones at now + overlap, so during
-- the overlap both secrets are current and a receiver can accept either. Partners onboarded before
-- this migration have no row until their first rotate-webhook-secret.
CREATE TABLE webhook_secrets (
  partner_id uuid NOT NULL REFERENCES partners (partner_id),
  secret_id uuid NOT NULL,
  sealed_secret bytea NOT NULL,
  valid_from timestamptz NOT NULL DEFAULT now(),
  valid_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (partner_id, secret_id),
  CHECK (valid_until IS NULL OR valid_until >= valid_from)
);
-- At most one secret per partner is open-ended (the newest); older ones carry their end.
CREATE UNIQUE INDEX webhook_secrets_one_open_idx ON webhook_secrets (partner_id) WHERE valid_until IS NULL;

-- Down Migration
DROP TABLE webhook_secrets;
