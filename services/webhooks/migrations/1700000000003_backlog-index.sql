-- Up Migration
-- Intent: the back-office lists the delivery backlog and the dead letters across partners, newest
-- first (issue 27). Delivered and skipped rows are most of the table and never in that list: a
-- partial index on the rest keeps the list's pages cheap.
CREATE INDEX deliveries_backlog_idx ON deliveries (created_at DESC, delivery_id DESC) WHERE status IN ('pending', 'delivering', 'failed');

-- Down Migration
DROP INDEX deliveries_backlog_idx;
