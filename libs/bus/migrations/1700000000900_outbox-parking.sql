-- Up Migration
-- Intent: an outbox row that cannot be published after OUTBOX_PUBLISH_ATTEMPTS_MAX attempts (a
-- payload the relay cannot encode, a message the broker refuses) is parked: kept with its attempts
-- and last error, skipped by the relay so the rows behind it go on, counted by outbox_parked_rows,
-- and replayed by the operator (`npm run operator -- outbox-parked replay`), which clears parked_at.
-- Columns are only added; attempts and last_error exist since the outbox was created.
ALTER TABLE outbox ADD COLUMN parked_at timestamptz;
CREATE INDEX outbox_parked_idx ON outbox (parked_at) WHERE parked_at IS NOT NULL;

-- Down Migration
DROP INDEX outbox_parked_idx;
ALTER TABLE outbox DROP COLUMN parked_at;
