-- Up Migration
-- Intent: the back-office's approved fundings (maker-checker, decision 0062; people.md "money
-- moves with four eyes"), executed through POST /internal/admin/partner-fundings:
--
--   1. transfers.kind gains 'funding_correction': a correction of a funding as a new, opposite
--      posting (partner -amount, funding +amount). It names a partner and no user and carries no
--      fee, like a funding. The ledger stays append-only: a funding is never edited, only
--      corrected by another posting. The partner account's not-negative CHECK backs the route's
--      balance check (a correction never takes more than the partner holds).
--   2. operator_fundings: who and why of every admin funding, written in the posting's own
--      transaction (so there is no posting without its record and no record without its posting):
--      the transfer (whose id is the approval request's id), the direction, the operator who
--      executed it (the checker) and their display name at the time, the maker and the checker of
--      the approval, and the maker's reference. CHECK (maker_id <> checker_id): four eyes even for
--      a caller that forgot the rule. Append-only, like the ledger.

ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check
  CHECK (kind IN ('collection', 'disbursement', 'refund', 'reversal', 'funding', 'funding_correction', 'sandbox_credit'));

ALTER TABLE transfers DROP CONSTRAINT transfers_parties_match_kind;
ALTER TABLE transfers ADD CONSTRAINT transfers_parties_match_kind CHECK (
  kind IS NULL
  OR (kind IN ('collection', 'disbursement') AND user_id IS NOT NULL AND partner_id IS NOT NULL)
  OR (kind IN ('refund', 'reversal') AND user_id IS NOT NULL AND partner_id IS NOT NULL AND fee_minor = 0)
  OR (kind IN ('funding', 'funding_correction') AND partner_id IS NOT NULL AND user_id IS NULL AND fee_minor = 0)
  OR (kind = 'sandbox_credit' AND user_id IS NOT NULL AND partner_id IS NULL AND fee_minor = 0)
);

CREATE TABLE operator_fundings (
  transfer_id uuid PRIMARY KEY REFERENCES transfers (transfer_id),
  direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
  operator_id uuid NOT NULL,
  operator_name text NOT NULL CHECK (length(operator_name) BETWEEN 1 AND 100),
  maker_id uuid NOT NULL,
  checker_id uuid NOT NULL,
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 200),
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT operator_fundings_four_eyes CHECK (maker_id <> checker_id)
);
CREATE TRIGGER operator_fundings_append_only BEFORE UPDATE OR DELETE ON operator_fundings
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_rewrite();

-- Down Migration
-- Refused while a funding correction is in the ledger: the old constraints cannot hold it, and the
-- ledger is append-only, so it stays (and so does this migration).
DROP TABLE operator_fundings;
ALTER TABLE transfers DROP CONSTRAINT transfers_parties_match_kind;
ALTER TABLE transfers ADD CONSTRAINT transfers_parties_match_kind CHECK (
  kind IS NULL
  OR (kind IN ('collection', 'disbursement') AND user_id IS NOT NULL AND partner_id IS NOT NULL)
  OR (kind IN ('refund', 'reversal') AND user_id IS NOT NULL AND partner_id IS NOT NULL AND fee_minor = 0)
  OR (kind = 'funding' AND partner_id IS NOT NULL AND user_id IS NULL AND fee_minor = 0)
  OR (kind = 'sandbox_credit' AND user_id IS NOT NULL AND partner_id IS NULL AND fee_minor = 0)
);
ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check
  CHECK (kind IN ('collection', 'disbursement', 'refund', 'reversal', 'funding', 'sandbox_credit'));
