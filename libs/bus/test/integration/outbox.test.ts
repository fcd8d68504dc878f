import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import { connectBus, enqueueEvent, startOutboxRelay, type Bus, type OutboxRelay } from '@pwa/bus';
import { withTransaction } from '@pwa/db';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { currentTraceparent, runWithTraceparent, startTelemetry, type Telemetry } from '@pwa/telemetry';
import { amqpUrl, createTestDatabase, deleteTopology, eventually, sleep, testLogger, uniqueExchange, type TestDatabase } from '../support/test-environment';

const exchange = uniqueExchange();
const queue = `${exchange}.outbox-observer`;
const fullQueue = `${exchange}.outbox-full`;
let database: TestDatabase;
let bus: Bus;
let telemetry: Telemetry;
const receivedById = new Map<string, { count: number; traceparent: string | undefined }>();
const receivedInOrder: string[] = [];
const relays: OutboxRelay[] = [];

/** Relays under test; a long poll interval so only flushNow (or the first poll) publishes, unless a test says otherwise. */
function relay(options: { pollIntervalMs?: number; batchSize?: number; bus?: Bus } = {}): OutboxRelay {
  const started = startOutboxRelay({
    pool: database.pool,
    bus: options.bus ?? bus,
    logger: testLogger(),
    pollIntervalMs: options.pollIntervalMs ?? 60_000,
    batchSize: options.batchSize ?? 100,
  });
  relays.push(started);
  return started;
}

function envelopeOf(type = 'outbox.test'): EventEnvelope {
  return createEventEnvelope({ type, data: { value: randomUUID() }, producer: 'bus-test' });
}

interface OutboxRow {
  published_at: Date | null;
  attempts: number;
  last_error: string | null;
}

async function outboxRow(eventId: string): Promise<OutboxRow | undefined> {
  const result = await database.pool.query<OutboxRow>('SELECT published_at, attempts, last_error FROM outbox WHERE id = $1', [eventId]);
  return result.rows[0];
}

async function commitEvents(count: number, type = 'outbox.test'): Promise<EventEnvelope[]> {
  const envelopes = Array.from({ length: count }, () => envelopeOf(type));
  await withTransaction(database.pool, async (client) => {
    for (const envelope of envelopes) await enqueueEvent(client, envelope);
  });
  return envelopes;
}

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: 'bus-test', environment: 'sandbox', enabled: true, otlpEndpoint: 'http://127.0.0.1:9' });
  database = await createTestDatabase();
  bus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test', logger: testLogger() });
  await bus.subscribe({
    queue,
    routingKeys: ['outbox.#'],
    kind: 'durable',
    prefetch: 50,
    handler: (envelope) => {
      receivedInOrder.push(envelope.eventId);
      const seen = receivedById.get(envelope.eventId);
      receivedById.set(envelope.eventId, { count: (seen?.count ?? 0) + 1, traceparent: currentTraceparent() });
      return Promise.resolve();
    },
  });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((started) => started.stop()));
  // Each test starts from an empty outbox, so one test's leftovers never count in another.
  await database.pool.query('UPDATE outbox SET published_at = now() WHERE published_at IS NULL');
});

afterAll(async () => {
  await bus.close();
  await database.drop();
  await deleteTopology(exchange, [queue, fullQueue]);
  // Nothing listens on the exporter's port 9: the last export fails, and that is not what these tests check.
  await telemetry.shutdown().catch(() => undefined);
});

describe('transactional outbox', () => {
  test('when the transaction that enqueued an event rolls back, then the event is never published', async () => {
    const envelope = envelopeOf();
    await expect(
      withTransaction(database.pool, async (client) => {
        await enqueueEvent(client, envelope);
        throw new Error('business rule failed after the event was written');
      }),
    ).rejects.toThrow('business rule failed');

    await expect(relay().flushNow()).resolves.toBe(0);
    expect(await outboxRow(envelope.eventId)).toBeUndefined();
    await sleep(200);
    expect(receivedById.has(envelope.eventId)).toBe(false);
  });

  test('when the transaction commits, then the event is published exactly once and marked published', async () => {
    const [envelope] = await commitEvents(1);
    if (!envelope) throw new Error('no envelope');
    const started = relay();

    expect(await eventually(async () => (await outboxRow(envelope.eventId))?.published_at != null)).toBe(true);
    await expect(started.flushNow()).resolves.toBe(0);
    expect(await eventually(() => receivedById.get(envelope.eventId)?.count === 1)).toBe(true);
    await sleep(200);
    expect(receivedById.get(envelope.eventId)?.count).toBe(1);
    expect(await outboxRow(envelope.eventId)).toMatchObject({ attempts: 1, last_error: null });
  });

  test('when the outbox is idle, then a poll asks with one statement and opens no transaction, and a row committed later is still published', async () => {
    const counted = { transactions: 0, statements: 0 };
    // The test database's pool, counting what the relay asks of it.
    const pool = new Proxy(database.pool, {
      get(target, property) {
        if (property === 'connect') return () => ((counted.transactions += 1), target.connect());
        if (property === 'query') return (...args: Parameters<typeof target.query>) => ((counted.statements += 1), target.query(...args));
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    relays.push(startOutboxRelay({ pool, bus, logger: testLogger(), pollIntervalMs: 20, batchSize: 100 }));

    await sleep(400);
    // The first poll opens its transaction (nothing was known yet); the idle ones after it only ask.
    expect(counted.transactions).toBeLessThanOrEqual(1);
    expect(counted.statements).toBeGreaterThanOrEqual(5);

    const [envelope] = await commitEvents(1);
    if (!envelope) throw new Error('no envelope');
    expect(await eventually(() => receivedById.get(envelope.eventId)?.count === 1)).toBe(true);
    expect(counted.transactions).toBeGreaterThanOrEqual(2);
  });

  test('when two relays run at the same time, then every row is published by exactly one of them', async () => {
    const envelopes = await commitEvents(60);
    relay({ pollIntervalMs: 10, batchSize: 5 });
    relay({ pollIntervalMs: 10, batchSize: 5 });

    expect(await eventually(() => envelopes.every((envelope) => receivedById.has(envelope.eventId)))).toBe(true);
    await sleep(300);
    expect(envelopes.map((envelope) => receivedById.get(envelope.eventId)?.count)).toEqual(envelopes.map(() => 1));
    const rows = await database.pool.query<{ attempts: number; published: boolean }>(
      'SELECT attempts, published_at IS NOT NULL AS published FROM outbox WHERE id = ANY($1::uuid[])',
      [envelopes.map((envelope) => envelope.eventId)],
    );
    expect(rows.rows.every((row) => row.published && row.attempts === 1)).toBe(true);
  });

  test('when nudged with flushNow, then pending rows are published without waiting for the poll, oldest first', async () => {
    const started = relay();
    await started.flushNow();
    const first = await commitEvents(1);
    const second = await commitEvents(2);
    await expect(started.flushNow()).resolves.toBe(3);

    const ids = [...first, ...second].map((envelope) => envelope.eventId);
    expect(await eventually(() => ids.every((id) => receivedById.has(id)))).toBe(true);
    const positions = ids.map((id) => receivedInOrder.indexOf(id));
    expect(positions[0]).toBeLessThan(Math.min(positions[1] ?? -1, positions[2] ?? -1));
  });

  test('when the broker refuses an event, then its attempts and scrubbed error are stored and the batch stops there', async () => {
    const admin: ChannelModel = await connect(amqpUrl);
    try {
      const channel = await admin.createChannel();
      await channel.assertQueue(fullQueue, { durable: true, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
      await channel.bindQueue(fullQueue, exchange, 'outbox.refused');
    } finally {
      await admin.close();
    }
    // The relay's first poll runs at start; once it is done, only the flushNow below publishes.
    const started = relay();
    await started.flushNow();
    const [refused, waiting] = await commitEvents(2, 'outbox.refused');
    if (!refused || !waiting) throw new Error('no envelopes');

    await expect(started.flushNow()).resolves.toBe(0);

    // Both rows were enqueued in one transaction (same created_at), so either may come first;
    // the first is tried and refused, and the batch stops before the second.
    const rows = [await outboxRow(refused.eventId), await outboxRow(waiting.eventId)];
    const tried = rows.find((row) => row?.attempts === 1);
    const untried = rows.find((row) => row?.attempts === 0);
    expect(tried).toMatchObject({ published_at: null, last_error: expect.stringMatching(/not confirm/) });
    expect(tried?.last_error).not.toContain('guest:guest');
    expect(untried).toMatchObject({ published_at: null, last_error: null });
  });

  test('when the bus is not connected, then the relay leaves rows untouched for later', async () => {
    const closedBus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test-closed', logger: testLogger() });
    await closedBus.close();
    const [envelope] = await commitEvents(1);
    if (!envelope) throw new Error('no envelope');

    await expect(relay({ bus: closedBus }).flushNow()).resolves.toBe(0);
    expect(await outboxRow(envelope.eventId)).toMatchObject({ published_at: null, attempts: 0, last_error: null });
  });

  test('when stopped during a batch, then stop waits for that batch to commit and later flushes publish nothing', async () => {
    const started = relay({ batchSize: 200 });
    await started.flushNow();
    const envelopes = await commitEvents(200);
    let publishedByBatch: number | undefined;
    const batch = started.flushNow().then((published) => {
      publishedByBatch = published;
    });
    // The batch is in flight once its first event reaches the consumer (rows commit only at its end).
    expect(await eventually(() => envelopes.some((envelope) => receivedById.has(envelope.eventId)), 5_000)).toBe(true);
    expect(publishedByBatch).toBeUndefined();

    await started.stop();

    expect(publishedByBatch).toBe(200);
    await batch;
    const unpublished = await database.pool.query('SELECT 1 FROM outbox WHERE published_at IS NULL');
    expect(unpublished.rowCount).toBe(0);
    await commitEvents(1);
    await expect(started.flushNow()).resolves.toBe(0);
  });

  test('when an event is enqueued inside a trace, then the consumer handles it in that trace', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const envelope = envelopeOf();
    await runWithTraceparent(traceparent, () => withTransaction(database.pool, (client) => enqueueEvent(client, envelope)));

    await relay().flushNow();

    expect(await eventually(() => receivedById.has(envelope.eventId))).toBe(true);
    // The handler runs in a consumer span of that trace (below the relay's producer span).
    const seen = receivedById.get(envelope.eventId)?.traceparent;
    expect(seen?.split('-')[1]).toBe(traceparent.split('-')[1]);
    expect(seen).not.toBe(traceparent);
  });
});
