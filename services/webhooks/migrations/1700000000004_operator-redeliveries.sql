-- Up Migration
-- Intent: a delivery sent again by a person on the back-office (issue 27) records who: one row per
-- back-office request (its id is the idempotency key: a double click finds this row and does not
-- start a second cycle, which could send the event twice), the delivery, the person and their
-- display name at the time, and the delivery's state before and after. Written in the
-- transaction of the redelivery; append-only.
CREATE TABLE operator_redeliveries (
  request_id uuid PRIMARY KEY,
  -- No foreign key: the record outlives the 30-day event retention's pruning of the delivery.
  delivery_id uuid NOT NULL,
  partner_id uuid NOT NULL,
  state_before text NOT NULL,
  state_after text NOT NULL,
  next_attempt_at timestamptz,
  operator_id uuid NOT NULL,
  operator_name text NOT NULL CHECK (length(operator_name) BETWEEN 1 AND 100),
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX operator_redeliveries_delivery_idx ON operator_redeliveries (delivery_id);

CREATE FUNCTION refuse_operator_redelivery_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_redeliveries is append-only';
END;
$$;
CREATE TRIGGER operator_redeliveries_append_only BEFORE UPDATE OR DELETE ON operator_redeliveries
  FOR EACH ROW EXECUTE FUNCTION refuse_operator_redelivery_rewrite();

-- Down Migration
DROP TABLE operator_redeliveries;
DROP FUNCTION refuse_operator_redelivery_rewrite();
