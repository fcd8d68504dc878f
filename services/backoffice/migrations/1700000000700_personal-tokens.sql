-- Up Migration
-- Intent: personal access tokens (decision 0072): a signed-in operator makes one for the operator
-- CLI, which then calls the console API as that person with their current roles. The token is
-- shown once; only its SHA-256 is kept (token_sha256), so a copy of this table signs nobody in.
-- A token ends when revoked (revoked_at, revoked_by: the person or an admin), when it expires, and
-- when its operator is disabled or their roles change (manage-operators revokes every token of the
-- person in the same transaction as the change). last_used_at is for the person's list only.
--
-- The runtime role gets SELECT, INSERT, UPDATE and DELETE through the owner's default privileges
-- (decision 0044), like the other tables of the schema.
CREATE TABLE operator_personal_tokens (
  id uuid PRIMARY KEY,
  operator_id uuid NOT NULL REFERENCES operators (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  token_sha256 bytea NOT NULL UNIQUE CHECK (length(token_sha256) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES operators (id),
  CHECK (expires_at > created_at AND expires_at <= created_at + interval '90 days'),
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX operator_personal_tokens_operator ON operator_personal_tokens (operator_id, created_at);

-- Down Migration
DROP TABLE operator_personal_tokens;
