import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { connectBus, deadLetterNames, enqueueEvent, processOnce, startOutboxRelay, type Bus, type OutboxRelay } from '@pwa/bus';
import { ContractViolationError, createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { withTransaction } from '@pwa/db';
import { amqpUrl, createTestDatabase, deleteTopology, eventually, testLogger, uniqueExchange, type TestDatabase } from '../support/test-environment';
import { startTcpProxy, viaProxy, type TcpProxy } from '../support/tcp-proxy';

const exchange = uniqueExchange();
const queue = `${exchange}.metrics`;
const registry = new Registry();
let database: TestDatabase;
let proxy: TcpProxy;
let bus: Bus;
let publisher: Bus;
let relay: OutboxRelay;
const handled: string[] = [];

function envelopeOf(type: string): EventEnvelope {
  return createEventEnvelope({ type, data: { value: randomUUID() }, producer: 'bus-test' });
}

/** The value of one series in the registry's text exposition, or undefined when it is absent. */
async function valueOf(metric: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const wanted = Object.entries(labels).map(([name, value]) => `${name}="${value}"`);
  for (const line of (await registry.metrics()).split('\n')) {
    if (!line.startsWith(`${metric}{`) && !line.startsWith(`${metric} `)) continue;
    if (!wanted.every((pair) => line.includes(pair))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const broker = new URL(amqpUrl);
  proxy = await startTcpProxy(broker.hostname, Number(broker.port) || 5672);
  // Through the proxy, so a test can take the broker away from this bus only.
  bus = await connectBus({ url: viaProxy(amqpUrl, proxy), exchange, serviceName: 'bus-metrics-test', logger: testLogger(), registry, reconnectDelayMsMax: 200 });
  publisher = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-metrics-publisher', logger: testLogger() });
  await bus.subscribe({
    queue,
    routingKeys: ['metrics.#'],
    kind: 'durable',
    handler: async (envelope) => {
      if (envelope.type === 'metrics.poison') throw new ContractViolationError('poison for the test', []);
      await processOnce(database.pool, 'metrics-test', envelope.eventId, () => Promise.resolve());
      handled.push(envelope.eventId);
    },
  });
});

afterAll(async () => {
  await relay.stop();
  await bus.close();
  await publisher.close();
  await proxy.close();
  await deleteTopology(exchange, [queue]);
  await database.drop();
});

describe('messaging metrics', () => {
  test('when events wait in the outbox, then the scrape shows them and their age; once relayed, they are counted as published by type', async () => {
    // A long poll: after its first (empty) batch, only flushNow publishes.
    relay = startOutboxRelay({ pool: database.pool, bus, logger: testLogger(), pollIntervalMs: 60_000, registry });
    await relay.flushNow();
    const envelopes = [envelopeOf('metrics.counted'), envelopeOf('metrics.counted')];
    await withTransaction(database.pool, async (client) => {
      for (const envelope of envelopes) await enqueueEvent(client, envelope);
    });
    await database.pool.query("UPDATE outbox SET created_at = now() - interval '30 seconds' WHERE published_at IS NULL");

    expect(await valueOf('outbox_pending_messages')).toBe(2);
    expect(await valueOf('outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(29);

    await relay.flushNow();

    expect(await valueOf('outbox_pending_messages')).toBe(0);
    expect(await valueOf('outbox_oldest_pending_age_seconds')).toBe(0);
    expect(await valueOf('outbox_published_total', { event_type: 'metrics.counted' })).toBe(2);
    expect(await valueOf('outbox_publish_failures_total')).toBe(0);
    expect(await eventually(() => envelopes.every((envelope) => handled.includes(envelope.eventId)))).toBe(true);
    expect(await eventually(async () => (await valueOf('bus_messages_consumed_total', { queue, outcome: 'ack' })) === 2)).toBe(true);
  });

  test('when the same event arrives twice, then the second is counted as a duplicate', async () => {
    const envelope = envelopeOf('metrics.duplicated');
    const duplicatesBefore = (await valueOf('bus_messages_consumed_total', { queue, outcome: 'duplicate' })) ?? 0;
    await publisher.publish(envelope);
    await publisher.publish(envelope);
    expect(await eventually(async () => (await valueOf('bus_messages_consumed_total', { queue, outcome: 'duplicate' })) === duplicatesBefore + 1)).toBe(true);
  });

  test('when a handler refuses a message for good, then it is counted as dead-lettered and the dead-letter queue shows it', async () => {
    await publisher.publish(envelopeOf('metrics.poison'));
    expect(await eventually(async () => (await valueOf('bus_messages_consumed_total', { queue, outcome: 'dead_letter' })) === 1)).toBe(true);
    const deadLetterQueue = deadLetterNames(exchange).queue;
    expect(await eventually(async () => ((await valueOf('bus_dead_letter_messages', { queue: deadLetterQueue })) ?? 0) >= 1)).toBe(true);
    expect(await valueOf('bus_queue_messages', { queue })).toBe(0);
    expect(await valueOf('bus_connected')).toBe(1);
  });

  test('when the broker is unreachable, then the scrape still answers: disconnected, queue depths unknown (NaN)', async () => {
    proxy.setRefusing(true);
    proxy.dropConnections();
    try {
      expect(await eventually(() => !bus.isConnected())).toBe(true);
      await expect(registry.metrics()).resolves.toContain('bus_connected');
      expect(await valueOf('bus_connected')).toBe(0);
      expect(await valueOf('bus_queue_messages', { queue })).toBeNaN();
      expect(await valueOf('bus_dead_letter_messages', { queue: deadLetterNames(exchange).queue })).toBeNaN();
    } finally {
      proxy.setRefusing(false);
    }
    expect(await eventually(() => bus.isConnected())).toBe(true);
    expect(await eventually(async () => (await valueOf('bus_queue_messages', { queue })) === 0)).toBe(true);
  });
});
