-- Up Migration
-- Intent: operators are people (decision 0062, ../shared/design/people.md). One row per person,
-- identified by a normalised e-mail address; roles granted one by one; a password only as an
-- argon2id hash and only once the person has set it through their one-time set-up link. A set-up
-- link's token is stored as its SHA-256, usable once, until it expires: the first admin gets one
-- from the bootstrap command, never a default password.
CREATE TABLE operators (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254 AND position('@' IN email) > 1),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
  roles text[] NOT NULL CHECK (roles <@ ARRAY['viewer', 'maker', 'checker', 'admin']::text[] AND cardinality(roles) >= 1),
  status text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'disabled')),
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES operators (id),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status = 'invited' OR password_hash IS NOT NULL OR status = 'disabled')
);

CREATE TABLE operator_setup_links (
  token_sha256 bytea PRIMARY KEY CHECK (length(token_sha256) = 32),
  operator_id uuid NOT NULL REFERENCES operators (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX operator_setup_links_operator ON operator_setup_links (operator_id);

-- Down Migration
DROP TABLE operator_setup_links;
DROP TABLE operators;
