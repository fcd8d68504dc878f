-- Up Migration
-- Intent: a failed collection tells the partner why (failureReason: the code and a message written
-- for partners) on its status endpoint and in its webhook. The code was stored already
-- (failure_code); this stores the message with it, so the reason stays what was said when the
-- collection failed. Added, never rewritten: rows that failed before it keep NULL, and their reason
-- is read as the code's message of today. Only failed rows may carry a message.
ALTER TABLE collection_requests
  ADD COLUMN failure_message text
    CONSTRAINT collection_requests_failure_message_length CHECK (char_length(failure_message) BETWEEN 1 AND 300),
  ADD CONSTRAINT collection_requests_failure_message_only_when_failed
    CHECK (failure_message IS NULL OR status = 'failed');

-- Down Migration
ALTER TABLE collection_requests DROP CONSTRAINT collection_requests_failure_message_only_when_failed;
ALTER TABLE collection_requests DROP COLUMN failure_message;
