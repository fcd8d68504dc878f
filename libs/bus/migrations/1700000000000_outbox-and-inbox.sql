-- Up Migration
-- Intent: every service that publishes events writes them in its own transaction to its outbox
-- (the relay publishes them with confirms), and every consumer records the event ids it processed
-- so redelivered messages change nothing.
CREATE TABLE outbox (
  id uuid PRIMARY KEY,
  routing_key text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX outbox_unpublished_idx ON outbox (created_at) WHERE published_at IS NULL;

CREATE TABLE processed_events (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);

-- Down Migration
DROP TABLE processed_events;
DROP TABLE outbox;
