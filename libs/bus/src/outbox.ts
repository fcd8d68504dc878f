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
  const valid = parseEventEnvelope(envelope);
  const traceparent = valid.traceparent ?? currentTraceparent();
  const requestId = valid.requestId ?? currentLogContext()?.requestId;
  const stored = {
    ...valid,
    ...(traceparent === undefined ? {} : { traceparent }),
    ...(requestId === undefined ? {} : { requestId }),
  };
  await client.query('INSERT INTO outbox (id, routing_key, payload) VALUES ($1, $2, $3::jsonb)', [stored.eventId, stored.type, JSON.stringify(stored)]);
}
