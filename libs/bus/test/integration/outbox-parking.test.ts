import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import { Registry } from 'prom-client';
import { connectBus, enqueueEvent, listParkedOutboxRows, replayParkedOutboxRows, startOutboxRelay, type Bus, type OutboxRelay } from '@pwa/bus';
import { withTransaction } from '@pwa/db';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { seriesValue } from '../../../../test/support/prometheus-text';
import { amqpUrl, createTestDatabase, deleteTopology, eventually, testLogger, uniqueExchange, type TestDatabase } from '../support/test-environment';

/**
 * A poison row must not stop a service's events: after OUTBOX_PUBLISH_ATTEMPTS_MAX failed attempts
 * the relay parks it (kept, with attempts and last error), the rows behind it go on, the metric says
 * so, and the operator hands it back once its cause is fixed.
 */
const exchange = uniqueExchange();
const observerQueue = `${exchange}.parking-observer`;
const fullQueue = `${exchange}.parking-full`;
const attemptsMax = 3;
let database: TestDatabase;
let bus: Bus;
let admin: ChannelModel;
let relay: OutboxRelay;
const registry = new Registry();
const received = new Set<string>();

function envelopeOf(type: string): EventEnvelope {
  return createEventEnvelope({ type, data: { value: randomUUID() }, producer: 'bus-test' });
}

/** One transaction per event, so their created_at (and so the relay's order) follow the calls. */
async function commitEvent(type: string): Promise<EventEnvelope> {
  const envelope = envelopeOf(type);
  await withTransaction(database.pool, (client) => enqueueEvent(client, envelope));
  return envelope;
}

async function outboxRow(eventId: string) {
  const { rows } = await database.pool.query<{ published_at: Date | null; parked_at: Date | null; attempts: number; last_error: string | null }>(
    'SELECT published_at, parked_at, attempts, last_error FROM outbox WHERE id = $1',
    [eventId],
  );
  return rows[0];
}

beforeAll(async () => {
  database = await createTestDatabase();
  bus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test', logger: testLogger() });
  await bus.subscribe({
    queue: observerQueue,
    kind: 'durable',
    // Not bound to parking.refused until the fix: a refusal by one bound queue still leaves a copy in the others.
    routingKeys: ['parking.good'],
    handler: (envelope) => {
      received.add(envelope.eventId);
      return Promise.resolve();
    },
  });
  // A queue that refuses every message: the broker answers the publish with a negative confirm.
  admin = await connect(amqpUrl);
  const channel = await admin.createChannel();
  await channel.assertQueue(fullQueue, { durable: true, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
  await channel.bindQueue(fullQueue, exchange, 'parking.refused');
  await channel.close();
  // A long poll interval: only flushNow publishes (after the first, empty, poll).
  relay = startOutboxRelay({ pool: database.pool, bus, logger: testLogger(), pollIntervalMs: 60_000, publishAttemptsMax: attemptsMax, registry });
  await relay.flushNow();
});

afterAll(async () => {
  await relay?.stop();
  await bus?.close();
  await admin?.close();
  await deleteTopology(exchange, [observerQueue, fullQueue]);
  await database?.drop();
});

describe('outbox parking', () => {
  test('when the broker refuses a row between two good ones, then the good ones are delivered, the bad one is parked with its attempts and last error, and once fixed the operator replays it', async () => {
    const first = await commitEvent('parking.good');
    const refused = await commitEvent('parking.refused');
    const second = await commitEvent('parking.good');

    const publishedPerFlush: number[] = [];
    for (let flush = 0; flush < attemptsMax; flush += 1) publishedPerFlush.push(await relay.flushNow());
    const parkedRow = await outboxRow(refused.eventId);
    const listing = await listParkedOutboxRows(database.pool);
    const parkedGauge = seriesValue(await registry.metrics(), 'outbox_parked_rows', {});

    // Flush 1 publishes the first and stops at the refusal; flush 3 parks it and goes on to the second.
    expect(publishedPerFlush).toEqual([1, 0, 1]);
    expect(await eventually(() => received.has(first.eventId) && received.has(second.eventId))).toBe(true);
    expect(parkedRow).toMatchObject({ published_at: null, attempts: attemptsMax, last_error: expect.stringMatching(/did not confirm/) });
    expect(parkedRow?.parked_at).toBeInstanceOf(Date);
    expect(listing.total).toBe(1);
    expect(listing.rows[0]).toMatchObject({ id: refused.eventId, routingKey: 'parking.refused', attempts: attemptsMax });
    expect(parkedGauge).toBe(1);
    expect(await relay.flushNow()).toBe(0);
    expect(received.has(refused.eventId)).toBe(false);

    // The fix: the queue that refused everything is gone; then the operator replays the row.
    const channel = await admin.createChannel();
    await channel.deleteQueue(fullQueue);
    await channel.bindQueue(observerQueue, exchange, 'parking.refused');
    await channel.close();
    const replayed = await replayParkedOutboxRows(database.pool, { id: refused.eventId });
    const publishedAfterReplay = await relay.flushNow();

    expect(replayed).toEqual([refused.eventId]);
    expect(publishedAfterReplay).toBe(1);
    expect(await eventually(() => received.has(refused.eventId))).toBe(true);
    expect((await outboxRow(refused.eventId))?.published_at).toBeInstanceOf(Date);
    expect(seriesValue(await registry.metrics(), 'outbox_parked_rows', {})).toBe(0);
  });

  test('when a row is not a valid event, then it is parked after its attempts and the row behind it is delivered', async () => {
    const invalidId = randomUUID();
    await database.pool.query(`INSERT INTO outbox (id, routing_key, payload) VALUES ($1, 'parking.good', '{"type":"parking.good"}'::jsonb)`, [invalidId]);
    const behind = await commitEvent('parking.good');

    for (let flush = 0; flush < attemptsMax; flush += 1) await relay.flushNow();

    expect(await eventually(() => received.has(behind.eventId))).toBe(true);
    expect(await outboxRow(invalidId)).toMatchObject({ published_at: null, attempts: attemptsMax, parked_at: expect.any(Date) });
  });

  test('when the bus is not connected, then no attempt is made and nothing is parked, however often the relay runs', async () => {
    const closedBus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test-closed', logger: testLogger() });
    await closedBus.close();
    const waiting = await commitEvent('parking.good');
    const closedRelay = startOutboxRelay({ pool: database.pool, bus: closedBus, logger: testLogger(), pollIntervalMs: 60_000, publishAttemptsMax: 1 });
    try {
      for (let flush = 0; flush < 3; flush += 1) await closedRelay.flushNow();

      expect(await outboxRow(waiting.eventId)).toMatchObject({ published_at: null, parked_at: null, attempts: 0 });
    } finally {
      await closedRelay.stop();
    }
  });
});
