-- Up Migration
-- Intent: two new money movements on the ledger (issue 19, decision 0053), with the database
-- deciding what it can:
--
--   1. transfers.kind gains 'refund' (a completed collection's money going back: partner -amount,
--      user wallet +amount, posted through POST /internal/transfers by the collections service) and
--      'reversal' (the operator undoing a disbursement sent in error: user wallet -amount, partner
--      +amount, posted by `npm run operator -- reverse-disbursement`). Both name a user and a
--      partner and carry no fee: the fee of the collection or disbursement stays earned. Neither is
--      a transaction type, so the limit usage (which counts a user's transfers of kind collection
--      or disbursement) never counts them, and tier_limits keeps its two types.
--   2. operator_reversals: the audit record of every reversal, written in the reversal's own
--      transaction: the reversal's transfer, the reversed disbursement's transfer, the operator's
--      reason and who ran it. reversed_transfer_id is UNIQUE, so a disbursement is reversed at most
--      once, whatever the timing of two operators (the use case also refuses a second reversal
--      under the user's row lock, with a message naming the first). Append-only, like the ledger.
--
-- Both constraints are replaced by looser ones (every existing row already satisfies them); adding
-- them validates transfers once, under the ALTER's lock, which keeps postings out for that scan.
-- A disbursement is found by its PKD referenceId with a scan of transfers (no new index: an index
-- would cost every posting a write for a rare operator command); by its TXN id, by the unique index.

ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check
  CHECK (kind IN ('collection', 'disbursement', 'refund', 'reversal', 'funding', 'sandbox_credit'));

ALTER TABLE transfers DROP CONSTRAINT transfers_parties_match_kind;
ALTER TABLE transfers ADD CONSTRAINT transfers_parties_match_kind CHECK (
  kind IS NULL
  OR (kind IN ('collection', 'disbursement') AND user_id IS NOT NULL AND partner_id IS NOT NULL)
  OR (kind IN ('refund', 'reversal') AND user_id IS NOT NULL AND partner_id IS NOT NULL AND fee_minor = 0)
  OR (kind = 'funding' AND partner_id IS NOT NULL AND user_id IS NULL AND fee_minor = 0)
  OR (kind = 'sandbox_credit' AND user_id IS NOT NULL AND partner_id IS NULL AND fee_minor = 0)
);

CREATE TABLE operator_reversals (
  reversal_transfer_id uuid PRIMARY KEY REFERENCES transfers (transfer_id),
  reversed_transfer_id uuid NOT NULL UNIQUE REFERENCES transfers (transfer_id),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  operator text NOT NULL CHECK (length(operator) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (reversal_transfer_id <> reversed_transfer_id)
);
CREATE TRIGGER operator_reversals_append_only BEFORE UPDATE OR DELETE ON operator_reversals
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_rewrite();

-- Down Migration
-- Refused while a refund or a reversal is in the ledger: the old constraints cannot hold them, and
-- the ledger is append-only, so they stay (and so does this migration).
DROP TABLE operator_reversals;
ALTER TABLE transfers DROP CONSTRAINT transfers_parties_match_kind;
ALTER TABLE transfers ADD CONSTRAINT transfers_parties_match_kind CHECK (
  kind IS NULL
  OR (kind IN ('collection', 'disbursement') AND user_id IS NOT NULL AND partner_id IS NOT NULL)
  OR (kind = 'funding' AND partner_id IS NOT NULL AND user_id IS NULL AND fee_minor = 0)
  OR (kind = 'sandbox_credit' AND user_id IS NOT NULL AND partner_id IS NULL AND fee_minor = 0)
);
ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check
  CHECK (kind IN ('collection', 'disbursement', 'funding', 'sandbox_credit'));
