-- Up Migration
-- Intent: passkeys as an operator's second factor (decision 0070) and sign-in with the company's
-- identity provider (decision 0071).
--
-- operator_passkeys: one row per WebAuthn credential an operator registered. The public key (COSE)
-- is not a secret but stays in this table (never in a log or the audit log, which name the
-- credential id). sign_count is the authenticator's signature counter: a sign-in raises it with a
-- conditional UPDATE, so two sign-ins with one assertion cannot both pass, and a counter that stays
-- or goes back (a cloned authenticator or a replay) is refused. A credential id is unique across
-- operators: one authenticator credential never belongs to two people.
--
-- operator_oidc_links: which identity-provider subject (issuer, sub) is which operator. Made on
-- the first sign-in of an existing active operator whose verified e-mail matched; from then on the
-- subject decides, not the e-mail (which the provider may reassign). One subject per operator and
-- issuer. Operators are never created from the provider.
--
-- The runtime role gets SELECT, INSERT, UPDATE and DELETE on both through the owner's default
-- privileges (decision 0044), like the other tables of the schema.
CREATE TABLE operator_passkeys (
  id uuid PRIMARY KEY,
  operator_id uuid NOT NULL REFERENCES operators (id),
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
CREATE INDEX operator_passkeys_operator ON operator_passkeys (operator_id, created_at);

CREATE TABLE operator_oidc_links (
  issuer text NOT NULL CHECK (length(issuer) BETWEEN 1 AND 500),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
  operator_id uuid NOT NULL REFERENCES operators (id),
  linked_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  PRIMARY KEY (issuer, subject),
  UNIQUE (issuer, operator_id)
);

-- Down Migration
DROP TABLE operator_oidc_links;
DROP TABLE operator_passkeys;
