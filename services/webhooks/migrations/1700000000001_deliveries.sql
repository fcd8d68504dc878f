-- Up Migration
-- Intent: the webhooks service keeps its own copy of what it needs of each partner (fed by
-- partner.* events; secrets stay sealed at rest), records exactly one delivery per event
-- (UNIQUE event_id), schedules its attempts in Postgres (next_attempt_at, a lease for the replica
-- that is sending) and keeps every attempt's outcome for the partner's delivery log.
CREATE TABLE partners (
  partner_id uuid PRIMARY KEY,
  client_id uuid NOT NULL,
  status text NOT NULL,
  webhook_url text,
  -- [{secretId, sealedSecret, validFrom, validUntil}] exactly as the partner event carried them.
  webhook_secrets jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- occurredAt of the partner event applied last: an older event arriving late changes nothing.
  source_occurred_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE deliveries (
  delivery_id uuid PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  partner_id uuid NOT NULL,
  event_type text NOT NULL,
  reference_id text NOT NULL,
  -- The exact JSON body, fixed when the event is recorded, so every attempt signs the same bytes.
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed', 'skipped')),
  -- Attempts ever made (numbers the attempts) and attempts of the current cycle (a redelivery starts a new cycle).
  attempt_count integer NOT NULL DEFAULT 0,
  cycle_attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  lease_token uuid,
  leased_at timestamptz,
  lease_expires_at timestamptz,
  last_error text,
  -- Millisecond precision, so the list's cursor (a JavaScript date) compares exactly.
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  CHECK ((status = 'delivering') = (lease_token IS NOT NULL AND lease_expires_at IS NOT NULL))
);
CREATE INDEX deliveries_due_idx ON deliveries (partner_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_due_time_idx ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_leased_idx ON deliveries (lease_expires_at) WHERE status = 'delivering';
CREATE INDEX deliveries_partner_created_idx ON deliveries (partner_id, created_at DESC, delivery_id DESC);

CREATE TABLE delivery_attempts (
  delivery_id uuid NOT NULL REFERENCES deliveries (delivery_id),
  attempt_number integer NOT NULL,
  started_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  status_code integer,
  -- Null when the outcome is unknown (the sending replica stopped; its lease expired).
  latency_ms integer,
  error text,
  PRIMARY KEY (delivery_id, attempt_number)
);

-- Down Migration
DROP TABLE delivery_attempts;
DROP TABLE deliveries;
DROP TABLE partners;
