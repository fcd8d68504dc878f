-- Up Migration
-- Intent: the partner learns that the operator reversed a completed disbursement (issue 27,
-- decision 0063). The wallet posts the reversal (decision 0053) and publishes
-- wallet.disbursement_reversed; this service records it here, once, in the transaction that
-- consumes the event and writes disbursement.reversed to the outbox, and the status endpoint shows
-- it as `reversal`. The status stays completed (the spec has no reversed status). Added, never
-- rewritten: every existing row keeps NULLs. The amount given back is the disbursement's whole
-- amount in its currency, so only the reversal's transaction and time are stored.
ALTER TABLE disbursements
  ADD COLUMN reversal_transaction_id text CONSTRAINT disbursements_reversal_transaction_id_format CHECK (reversal_transaction_id ~ '^TXN-[0-9A-F]+$'),
  ADD COLUMN reversed_at timestamptz,
  ADD CONSTRAINT disbursements_reversal_all_or_nothing CHECK ((reversal_transaction_id IS NULL) = (reversed_at IS NULL)),
  ADD CONSTRAINT disbursements_reversal_only_when_completed CHECK (reversal_transaction_id IS NULL OR status = 'completed');

-- Down Migration
ALTER TABLE disbursements DROP CONSTRAINT disbursements_reversal_only_when_completed;
ALTER TABLE disbursements DROP CONSTRAINT disbursements_reversal_all_or_nothing;
ALTER TABLE disbursements DROP COLUMN reversed_at;
ALTER TABLE disbursements DROP COLUMN reversal_transaction_id;
