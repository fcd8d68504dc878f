-- Up Migration
-- Intent: a failed or timed-out disbursement tells the partner why (failureReason: the code and a
-- message written for partners) on its status endpoint and in its webhook. The code was stored
-- already (failure_code); this stores the message with it, so the reason stays what was said when
-- the attempt failed. Added, never rewritten: rows settled before it keep NULL, and their reason is
-- read as the code's message of today. Only failed and timed-out rows may carry a message.
ALTER TABLE disbursements
  ADD COLUMN failure_message text
    CONSTRAINT disbursements_failure_message_length CHECK (char_length(failure_message) BETWEEN 1 AND 300),
  ADD CONSTRAINT disbursements_failure_message_only_when_unsuccessful
    CHECK (failure_message IS NULL OR status IN ('failed', 'timed_out'));

-- Down Migration
ALTER TABLE disbursements DROP CONSTRAINT disbursements_failure_message_only_when_unsuccessful;
ALTER TABLE disbursements DROP COLUMN failure_message;
