-- Up Migration
-- Intent: every four-eyes change the back-office executes on the wallet records who and which
-- approval (decision 0069):
--
--   1. operator_reversals gains the person and the approval of a reversal executed through
--      POST /internal/admin/disbursement-reversals: operator_id (the checker who executed it), and
--      the maker and checker of the approval request, whose id is the reversal's transfer id
--      (reversal_transfer_id). The CLI's reversals (decision 0053) leave them NULL: all three or none.
--   2. operator_changes: one row per approved settings change (tier limits), keyed by the approval
--      request id (the idempotency key: the same request executed twice finds its row and changes
--      nothing), with the person, the approval, the maker's reason, the parameters asked for and
--      the settings before and after. Written in the change's transaction; append-only.

ALTER TABLE operator_reversals
  ADD COLUMN operator_id uuid,
  ADD COLUMN maker_id uuid,
  ADD COLUMN checker_id uuid,
  ADD CONSTRAINT operator_reversals_approval_whole CHECK ((operator_id IS NULL) = (maker_id IS NULL) AND (maker_id IS NULL) = (checker_id IS NULL)),
  ADD CONSTRAINT operator_reversals_four_eyes CHECK (maker_id IS NULL OR maker_id <> checker_id);

CREATE TABLE operator_changes (
  request_id uuid PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('tier_limit.set')),
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
CREATE TRIGGER operator_changes_append_only BEFORE UPDATE OR DELETE ON operator_changes
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_rewrite();

-- Down Migration
DROP TABLE operator_changes;
ALTER TABLE operator_reversals
  DROP CONSTRAINT operator_reversals_four_eyes,
  DROP CONSTRAINT operator_reversals_approval_whole,
  DROP COLUMN checker_id,
  DROP COLUMN maker_id,
  DROP COLUMN operator_id;
