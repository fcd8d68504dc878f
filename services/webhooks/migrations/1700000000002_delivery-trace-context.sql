-- Up Migration
-- Intent: a delivery is attempted later, by a worker, outside the consumer that recorded it. Keeping
-- the trace context (W3C traceparent) and the request id of the event that caused it lets every
-- attempt, retries and redeliveries included, continue that partner request's trace and log lines.
-- Both are optional: deliveries recorded before this migration, or from events without them, have none.
ALTER TABLE deliveries ADD COLUMN traceparent text;
ALTER TABLE deliveries ADD COLUMN request_id text;

-- Down Migration
ALTER TABLE deliveries DROP COLUMN request_id;
ALTER TABLE deliveries DROP COLUMN traceparent;
