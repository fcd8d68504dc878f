-- Up Migration
-- Intent: the partner changes one person makes on the back-office without four eyes (onboarding a
-- partner, setting its webhook URL; issue 27) record who: one row per back-office request (its id
-- is the idempotency key: a double-submitted onboarding finds this row and creates no second
-- partner), the person and their display name at the time, the partner, the settings asked for
-- and the partner's settings before and after (never a secret or a hash). Written in the
-- transaction of the change and of its partner event; append-only.

CREATE TABLE operator_actions (
  request_id uuid PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('partner.onboard', 'partner.webhook_url.set')),
  partner_id uuid NOT NULL,
  parameters jsonb NOT NULL,
  before jsonb,
  after jsonb NOT NULL,
  operator_id uuid NOT NULL,
  operator_name text NOT NULL CHECK (length(operator_name) BETWEEN 1 AND 100),
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX operator_actions_partner_idx ON operator_actions (partner_id, recorded_at DESC);

CREATE FUNCTION refuse_operator_action_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_actions is append-only';
END;
$$;
CREATE TRIGGER operator_actions_append_only BEFORE UPDATE OR DELETE ON operator_actions
  FOR EACH ROW EXECUTE FUNCTION refuse_operator_action_rewrite();

-- Down Migration
DROP TABLE operator_actions;
DROP FUNCTION refuse_operator_action_rewrite();
