-- Up Migration
-- Intent: MFA is required (decision 0061). An operator's TOTP factor: the secret sealed with the
-- back-office's key (AES-256-GCM bound to the operator, never stored or logged in clear), and the
-- last time step a code was accepted for, so a code works once: a sign-in moves it forward with a
-- conditional UPDATE, which two sign-ins with the same code cannot both pass.
CREATE TABLE operator_totp_factors (
  operator_id uuid PRIMARY KEY REFERENCES operators (id),
  sealed_secret text NOT NULL,
  last_accepted_step bigint CHECK (last_accepted_step IS NULL OR last_accepted_step > 0),
  enrolled_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE operator_totp_factors;
