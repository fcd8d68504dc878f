import { connect as connectAmqp } from 'amqplib';
import type { Pool } from 'pg';

/**
 * Helpers of the crash-safety tests: what a service's outbox holds for one business reference, and
 * a recorder of every message on a bus exchange, duplicates included, so a test can count how many
 * times one event id was published.
 */
export interface OutboxRow {
  id: string;
  routingKey: string;
  publishedAt: Date | null;
  attempts: number;
}

/** The outbox rows of a service (schema `collections` or `disbursements`) whose event data names the reference. */
export async function outboxRowsFor(database: Pool, schema: 'collections' | 'disbursements', referenceId: string): Promise<OutboxRow[]> {
  const result = await database.query<{ id: string; routing_key: string; published_at: Date | null; attempts: number }>(
    `SELECT id, routing_key, published_at, attempts FROM ${schema}.outbox WHERE payload -> 'data' ->> 'referenceId' = $1 ORDER BY created_at`,
    [referenceId],
  );
  return result.rows.map((row) => ({ id: row.id, routingKey: row.routing_key, publishedAt: row.published_at, attempts: row.attempts }));
}

export interface BusRecorder {
  /** How many messages carrying this event id arrived so far. */
  countOf(eventId: string): number;
  /** Resolves once a message with this event id has arrived, or rejects after timeoutMs. */
  waitFor(eventId: string, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** An exclusive, auto-deleted queue bound to the exchange; every message is recorded (no de-duplication). */
export async function recordBusEvents(amqpUrl: string, exchange: string, pattern: string): Promise<BusRecorder> {
  const connection = await connectAmqp(amqpUrl);
  const channel = await connection.createChannel();
  await channel.checkExchange(exchange);
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, pattern);
  const eventIds: string[] = [];
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const body = JSON.parse(message.content.toString('utf8')) as { eventId?: unknown };
      if (typeof body.eventId === 'string') eventIds.push(body.eventId);
    },
    { noAck: true },
  );
  const countOf = (eventId: string): number => eventIds.filter((candidate) => candidate === eventId).length;
  return {
    countOf,
    waitFor: async (eventId, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (countOf(eventId) === 0) {
        if (Date.now() > deadline) throw new Error(`event ${eventId} did not arrive on ${exchange} within ${timeoutMs} ms (got ${eventIds.length} others)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: async () => {
      await channel.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}
