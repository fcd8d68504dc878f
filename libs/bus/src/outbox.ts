import { parseEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import type { PoolClient } from '@pwa/db';
import { currentLogContext } from '@pwa/logging';
import { currentTraceparent } from '@pwa/telemetry';

/**
 * Records the event in the caller's transaction (the client must be inside BEGIN), so the event
 * exists if and only if the state change commits; the relay publishes it afterwards. The table is
 * unqualified: the pool's search_path puts the service's own schema first. An envelope without a
 * traceparent gets the one of the active trace, so the trace follows the event; one without a
 * request id gets the one of the request being handled, so its consumers' log lines can be found.
 */
export async function enqueueEvent(client: PoolClient, envelope: EventEnvelope): Promise<void> {
  await client.query('INSERT INTO outbox (id, routing_key, payload) VALUES ($1, $2, $3::jsonb)', outboxValuesOf(envelope));
}

/** The outbox row of an event: id, routing key and the stored envelope (with trace and request id). */
function outboxValuesOf(envelope: EventEnvelope): [string, string, string] {
  const valid = parseEventEnvelope(envelope);
  const traceparent = valid.traceparent ?? currentTraceparent();
  const requestId = valid.requestId ?? currentLogContext()?.requestId;
  const stored = {
    ...valid,
    ...(traceparent === undefined ? {} : { traceparent }),
    ...(requestId === undefined ? {} : { requestId }),
  };
  return [stored.eventId, stored.type, JSON.stringify(stored)];
}

/**
 * The outbox rows of many events as three parallel arrays (ids, routing keys, stored envelopes),
 * for a caller whose one statement changes many rows and inserts each changed row's event with
 * `INSERT INTO outbox (id, routing_key, payload) SELECT … FROM unnest($ids::uuid[], $keys::text[], $payloads::jsonb[])`
 * joined to the rows it changed, so every event exists if and only if its change happened.
 */
export function outboxColumnsOf(envelopes: readonly EventEnvelope[]): { ids: string[]; routingKeys: string[]; payloads: string[] } {
  const rows = envelopes.map(outboxValuesOf);
  return { ids: rows.map((row) => row[0]), routingKeys: rows.map((row) => row[1]), payloads: rows.map((row) => row[2]) };
}

/**
 * The outbox insert as a part of a caller's statement, for a state change and its event written
 * by one statement (one round trip, atomic without BEGIN/COMMIT):
 *
 *   WITH changed AS (UPDATE … WHERE … RETURNING …), event AS (${insert.sql}) SELECT … FROM changed
 *
 * The event is inserted once when `rowsOf` (a CTE name of that statement) has a row, and not at
 * all when it has none, so the event exists if and only if the change happened. Its parameters
 * are numbered from `firstParameter`; append `insert.values` to the statement's own.
 */
export function outboxInsertWhenRowsIn(rowsOf: string, firstParameter: number, envelope: EventEnvelope): { sql: string; values: unknown[] } {
  if (!/^[a-z_][a-z0-9_]*$/.test(rowsOf)) throw new Error(`not a CTE name: ${JSON.stringify(rowsOf)}`);
  const p = (offset: number): string => `$${firstParameter + offset}`;
  return {
    sql: `INSERT INTO outbox (id, routing_key, payload) SELECT ${p(0)}::uuid, ${p(1)}::text, ${p(2)}::jsonb FROM ${rowsOf} LIMIT 1`,
    values: outboxValuesOf(envelope),
  };
}
