-- Up Migration
-- Intent: the service's audit log (libs/audit, decision 0060): one row per action that changed
-- something or revealed a secret, append-only and chained. Each entry carries the SHA-256 of its own
-- canonical content (computed by libs/audit, which includes the previous entry's hash), so
-- `verifyAuditChain` names the first entry whose content, link or place in the sequence is wrong.
-- The database keeps the chain's shape: an entry must follow the last one (sequence + 1, its
-- previous_hash equal to that entry's hash), and no role may UPDATE, DELETE or TRUNCATE the table
-- while its triggers are enabled, whatever privileges libs/db's provisioning grants the runtime role.
-- Only the table's owner (or a superuser) can disable the triggers: that is break-glass, a DDL
-- statement of its own, and every change it allows shows up in the chain's verification.
CREATE TABLE audit_log (
  sequence bigint PRIMARY KEY CHECK (sequence >= 1),
  entry_id uuid NOT NULL UNIQUE,
  occurred_at timestamptz NOT NULL,
  actor jsonb NOT NULL CHECK (jsonb_typeof(actor) = 'object' AND actor->>'kind' IN ('person', 'system')),
  action text NOT NULL CHECK (action <> ''),
  target jsonb NOT NULL CHECK (jsonb_typeof(target) = 'object'),
  partner_id uuid,
  before jsonb,
  after jsonb,
  outcome text NOT NULL CHECK (outcome IN ('done', 'refused')),
  reason text,
  address text,
  user_agent text,
  request_id text,
  previous_hash bytea NOT NULL CHECK (length(previous_hash) = 32),
  hash bytea NOT NULL CHECK (length(hash) = 32),
  CONSTRAINT audit_log_reason_only_for_refusals CHECK ((outcome = 'refused') = (reason IS NOT NULL))
);
-- Searches read newest first (sequence DESC) within one filter.
CREATE INDEX audit_log_actor_idx ON audit_log ((actor->>'id'), sequence DESC);
CREATE INDEX audit_log_target_idx ON audit_log ((target->>'kind'), (target->>'id'), sequence DESC);
CREATE INDEX audit_log_partner_idx ON audit_log (partner_id, sequence DESC) WHERE partner_id IS NOT NULL;
CREATE INDEX audit_log_action_idx ON audit_log (action COLLATE "C", sequence DESC);
CREATE INDEX audit_log_occurred_at_idx ON audit_log (occurred_at);

-- An entry follows the last one: sequence 1 links to 32 zero bytes, every later entry to the hash
-- of the entry before it, which must exist (the primary key refuses a second entry at one place).
CREATE FUNCTION audit_log_follow_previous_entry() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  previous bytea;
BEGIN
  IF NEW.sequence = 1 THEN
    previous := decode(repeat('00', 32), 'hex');
  ELSE
    SELECT hash INTO previous FROM audit_log WHERE sequence = NEW.sequence - 1;
  END IF;
  IF previous IS NULL OR previous <> NEW.previous_hash THEN
    RAISE EXCEPTION 'audit_log entry % does not follow entry %', NEW.sequence, NEW.sequence - 1 USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER audit_log_follows_previous_entry BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_follow_previous_entry();

-- Append-only for every role, the runtime role included even when a provisioning run grants it
-- UPDATE and DELETE on every table of the schema (libs/db service-roles).
CREATE FUNCTION audit_log_refuse_rewrite() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_rewrite();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_rewrite();

-- Down Migration
DROP TABLE audit_log;
DROP FUNCTION audit_log_refuse_rewrite();
DROP FUNCTION audit_log_follow_previous_entry();
