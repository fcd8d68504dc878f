-- Up Migration
-- Intent: passkeys as a member's second factor, beside the TOTP factor every member enrols
-- (issue 28, decision 0074; the same shape as the back-office's operator_passkeys, decision 0070,
-- and the same statements, libs/web-auth). One row per WebAuthn credential a member registered.
-- The public key (COSE) is not a secret but stays here (never in a log or the audit log, which
-- name the credential id). sign_count only moves forward, by a conditional UPDATE: two sign-ins
-- with one assertion cannot both pass, and a counter that stays or goes back (a cloned
-- authenticator or a replay) is refused. A credential id is unique across all members: one
-- authenticator credential never belongs to two people.
CREATE TABLE member_passkeys (
  id uuid PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id),
  credential_id text NOT NULL UNIQUE CHECK (credential_id ~ '^[A-Za-z0-9_-]+$' AND length(credential_id) <= 1366),
  public_key bytea NOT NULL CHECK (length(public_key) BETWEEN 16 AND 2048),
  sign_count bigint NOT NULL DEFAULT 0 CHECK (sign_count BETWEEN 0 AND 4294967295),
  transports text[] NOT NULL DEFAULT '{}' CHECK (cardinality(transports) <= 8),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  device_type text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX member_passkeys_member ON member_passkeys (member_id, created_at);

-- Down Migration
DROP TABLE member_passkeys;
