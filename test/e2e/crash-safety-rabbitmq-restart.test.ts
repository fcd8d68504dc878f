import { connectBus, enqueueEvent, processOnce, startOutboxRelay, type Bus, type OutboxRelay } from '@pwa/bus';
import { createEventEnvelope } from '@pwa/contracts';
import { withTransaction } from '@pwa/db';
import { createLogger } from '@pwa/logging';
import { createTestDatabase, type TestDatabase } from '../../libs/bus/test/support/test-environment';
import { startPrivateRabbitNode, type PrivateRabbitNode } from '../support/crash-rabbitmq';

/**
 * Crash safety (issue 4): a RabbitMQ restart loses no event. The broker restarted is a private node
 * started for this file (test/support/crash-rabbitmq.ts), never the shared one. An outbox relay and a
 * consumer (both @pwa/bus, in process, on a database of their own) run across a stop and start of
 * that node: events confirmed into the durable quorum queue before the stop, events delivered but
 * not yet acked when it stops, and events committed to the outbox while it is down must all be
 * processed after it is back. Redeliveries are allowed; the consumer de-duplicates by eventId.
 */
const exchange = 'pwa.crash-test';
const queue = 'crash-test.collections';
const consumer = 'crash-test';
const confirmedBeforeStop = 60;
const committedWhileDown = 40;
const prefetch = 5;

describe('crash safety: a RabbitMQ restart loses no event', () => {
  let node: PrivateRabbitNode;
  let database: TestDatabase;
  let publisher: Bus | undefined;
  let subscriber: Bus | undefined;
  let relay: OutboxRelay | undefined;
  const logger = createLogger({ service: 'crash-test', level: process.env.LOG_LEVEL ?? 'silent' });
  const processed = new Set<string>();
  let deliveries = 0;

  beforeAll(async () => {
    [node, database] = await Promise.all([startPrivateRabbitNode(), createTestDatabase()]);
  });

  afterAll(async () => {
    await relay?.stop();
    await subscriber?.close();
    await publisher?.close();
    await database?.drop();
    await node?.dispose();
  });

  const connect = (serviceName: string): Promise<Bus> =>
    connectBus({ url: node.amqpUrl, exchange, serviceName, logger, reconnectDelayMsMax: 500, publishConfirmTimeoutMs: 2_000 });

  /** Commits events to the outbox, one transaction each, as a service's state changes would. */
  async function commitEvents(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const envelope = createEventEnvelope({ type: 'collection.completed', data: { index }, producer: 'crash-test' });
      await withTransaction(database.pool, (client) => enqueueEvent(client, envelope));
      ids.push(envelope.eventId);
    }
    return ids;
  }

  /**
   * A consumer whose handlers wait until the node has stopped: before the stop, `prefetch` messages
   * are delivered but unacked and the rest are queued. The handlers then record their events, but
   * their acks cannot reach the stopped broker, so those messages come again after the restart.
   */
  async function subscribe(bus: Bus, nodeStopped: Promise<void>): Promise<void> {
    await bus.subscribe({
      queue,
      routingKeys: ['collection.*'],
      kind: 'durable',
      prefetch,
      handler: async (envelope) => {
        deliveries += 1;
        await nodeStopped;
        const outcome = await processOnce(database.pool, consumer, envelope.eventId, () => Promise.resolve());
        if (outcome === 'processed') processed.add(envelope.eventId);
      },
    });
  }

  async function unpublishedCount(): Promise<number> {
    const result = await database.pool.query<{ count: string }>('SELECT count(*) FROM outbox WHERE published_at IS NULL');
    return Number(result.rows[0]?.count ?? -1);
  }

  async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms (processed ${processed.size}, deliveries ${deliveries})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('when the broker stops and starts again while events are queued, unacked and still in the outbox, then every event is processed exactly once by eventId', async () => {
    let openGate: () => void = () => undefined;
    const nodeStopped = new Promise<void>((resolve) => (openGate = resolve));
    publisher = await connect('crash-test-relay');
    subscriber = await connect('crash-test-consumer');
    await subscribe(subscriber, nodeStopped);
    relay = startOutboxRelay({ pool: database.pool, bus: publisher, logger, pollIntervalMs: 100 });

    // Confirmed into the quorum queue before the stop; the consumer holds `prefetch` of them unacked.
    const beforeStop = await commitEvents(confirmedBeforeStop);
    await eventually(async () => (await unpublishedCount()) === 0, 10_000);
    await eventually(() => deliveries === prefetch, 5_000);
    expect(processed.size).toBe(0);

    await node.stop();
    openGate();
    // Committed while the broker is down: they wait in the outbox (the relay skips polls while disconnected).
    const whileDown = await commitEvents(committedWhileDown);
    expect(await unpublishedCount()).toBe(committedWhileDown);
    await node.start();

    const everyEvent = [...beforeStop, ...whileDown];
    await eventually(() => everyEvent.every((eventId) => processed.has(eventId)), 30_000);
    await eventually(async () => (await unpublishedCount()) === 0, 5_000);
    expect(processed.size).toBe(everyEvent.length);
    const inbox = await database.pool.query<{ count: string }>('SELECT count(*) FROM processed_events WHERE consumer = $1', [consumer]);
    expect(Number(inbox.rows[0]?.count)).toBe(everyEvent.length);
    // The messages unacked at the stop came again (at least once delivery); the inbox absorbed them.
    expect(deliveries).toBeGreaterThanOrEqual(everyEvent.length + prefetch);
  });
});
