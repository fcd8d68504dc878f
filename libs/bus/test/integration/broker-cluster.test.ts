import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@pwa/bus';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { amqpUrl, deleteTopology, eventually, testLogger, uniqueExchange } from '../support/test-environment';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

/**
 * AMQP_HOSTS: a RabbitMQ cluster's nodes, here three relays to the one test broker that a test can
 * take down one by one. The bus connects to the first node that answers with AMQP_URL's
 * credentials, and when its node goes away it reconnects to another: subscriptions and publishing
 * carry on. When no node answers, the refusal names each node and never the credentials.
 */
const exchange = uniqueExchange();
const queue = `${exchange}.cluster-durable`;
const nodes: TcpProxy[] = [];
const buses: Bus[] = [];
const received: EventEnvelope[] = [];
let reconnects = 0;

const addressOf = (node: TcpProxy) => ({ host: '127.0.0.1', port: node.port });
const envelopeOf = (type: string): EventEnvelope => createEventEnvelope({ type, data: { value: randomUUID() }, producer: 'bus-cluster-test' });

beforeAll(async () => {
  const broker = new URL(amqpUrl);
  for (let index = 0; index < 3; index += 1) nodes.push(await startTcpProxy(broker.hostname, Number(broker.port) || 5672));
});

afterAll(async () => {
  for (const bus of buses) await bus.close();
  for (const node of nodes) await node.close();
  await deleteTopology(exchange, [queue]);
});

describe('a RabbitMQ cluster named by AMQP_HOSTS', () => {
  test('when the first node is down at start and the node in use goes away later, then the bus connects to the next one each time and keeps delivering', async () => {
    const [down, first, second] = nodes as [TcpProxy, TcpProxy, TcpProxy];
    down.setRefusing(true);
    const bus = await connectBus({ url: amqpUrl, hosts: [addressOf(down), addressOf(first), addressOf(second)], exchange, serviceName: 'bus-cluster-test', logger: testLogger(), reconnectDelayMsMax: 200 });
    buses.push(bus);
    bus.onReconnect(() => {
      reconnects += 1;
    });
    await bus.subscribe({
      queue,
      routingKeys: ['cluster.#'],
      kind: 'durable',
      handler: (envelope) => {
        received.push(envelope);
        return Promise.resolve();
      },
    });
    expect([down.relayedClients(), first.relayedClients() > 0, second.relayedClients()]).toEqual([0, true, 0]);
    const before = envelopeOf('cluster.before');
    await bus.publish(before);
    expect(await eventually(() => received.some((envelope) => envelope.eventId === before.eventId))).toBe(true);

    // The node in use goes down: the bus moves to the next one that answers (the down one is skipped).
    first.setRefusing(true);
    first.dropConnections();
    expect(await eventually(() => reconnects === 1)).toBe(true);
    expect([down.relayedClients(), first.relayedClients(), second.relayedClients() > 0]).toEqual([0, 0, true]);
    const after = envelopeOf('cluster.after');
    await bus.publish(after);
    expect(await eventually(() => received.some((envelope) => envelope.eventId === after.eventId))).toBe(true);
  });

  test('when no node answers, then connecting is refused naming every node tried, without the credentials', async () => {
    const [down, first] = nodes as [TcpProxy, TcpProxy];
    down.setRefusing(true);
    first.setRefusing(true);
    const attempt = connectBus({ url: amqpUrl, hosts: [addressOf(down), addressOf(first)], exchange, serviceName: 'bus-cluster-refused', logger: testLogger(), connectTimeoutMs: 2_000 });
    const error = (await attempt.then(
      () => undefined,
      (failure: unknown) => failure,
    )) as Error | undefined;
    expect(error?.message).toContain(`no RabbitMQ node answered (amqp://127.0.0.1:${down.port}: `);
    expect(error?.message).toContain(`; amqp://127.0.0.1:${first.port}: `);
    const password = new URL(amqpUrl).password;
    expect(password.length).toBeGreaterThan(0);
    expect(error?.message).not.toContain(`:${password}@`);
  });
});
