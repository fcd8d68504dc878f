-- Up Migration
-- Intent: a partner's team members are people (../shared/design/people.md). One row per person,
-- identified by a normalised e-mail address across the whole dashboard (one sign-in, one team), a
-- member of one partner with one role; a password only as an argon2id hash, set through a one-time
-- invitation link (its SHA-256 only, one use, until it expires). Removed members keep their row
-- (the audit log names them), and their address may be invited again.
CREATE TABLE members (
  id uuid PRIMARY KEY,
  partner_id uuid NOT NULL,
  email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254 AND position('@' IN email) > 1),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
  role text NOT NULL CHECK (role IN ('admin', 'developer', 'finance', 'support')),
  status text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'removed')),
  password_hash text,
  invited_by jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'active' OR password_hash IS NOT NULL)
);
CREATE UNIQUE INDEX members_email_in_use ON members (email) WHERE status <> 'removed';
CREATE INDEX members_of_partner ON members (partner_id, created_at, id);

CREATE TABLE member_invitations (
  token_sha256 bytea PRIMARY KEY CHECK (length(token_sha256) = 32),
  member_id uuid NOT NULL REFERENCES members (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX member_invitations_member ON member_invitations (member_id);

-- MFA is required: the TOTP secret sealed with the dashboard's key (bound to the member), and the
-- last time step accepted, moved forward by a conditional UPDATE so a code works once.
CREATE TABLE member_totp_factors (
  member_id uuid PRIMARY KEY REFERENCES members (id),
  sealed_secret text NOT NULL,
  last_accepted_step bigint CHECK (last_accepted_step IS NULL OR last_accepted_step > 0),
  enrolled_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE member_totp_factors;
DROP TABLE member_invitations;
DROP TABLE members;
