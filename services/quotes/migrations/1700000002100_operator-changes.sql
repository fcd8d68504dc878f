-- Up Migration
-- Intent: every fee schedule change the back-office executes (maker-checker, decision 0069)
-- records who and which approval: one row per approval request (its id is the change's
-- idempotency key: executed twice, the second call finds this row and changes nothing), with the
-- person who executed it (the checker) and their display name at the time, the maker and the
-- checker, the maker's reason, the parameters asked for, the schedule before and after, and the
-- revision it produced. Written in the change's transaction; append-only; four eyes by CHECK.

CREATE TABLE operator_changes (
  request_id uuid PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('fee_schedule.set')),
  target text NOT NULL CHECK (length(target) BETWEEN 1 AND 200),
  parameters jsonb NOT NULL,
  before jsonb,
  after jsonb NOT NULL,
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  operator_id uuid NOT NULL,
  operator_name text NOT NULL CHECK (length(operator_name) BETWEEN 1 AND 100),
  maker_id uuid NOT NULL,
  checker_id uuid NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT operator_changes_four_eyes CHECK (maker_id <> checker_id)
);

CREATE FUNCTION refuse_operator_change_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_changes is append-only';
END;
$$;
CREATE TRIGGER operator_changes_append_only BEFORE UPDATE OR DELETE ON operator_changes
  FOR EACH ROW EXECUTE FUNCTION refuse_operator_change_rewrite();

-- Down Migration
DROP TABLE operator_changes;
DROP FUNCTION refuse_operator_change_rewrite();
