import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import { Registry } from 'prom-client';
import { brokerPermissionsOf, connectBus, type Bus } from '@pwa/bus';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { amqpUrl, deleteTopology, eventually, testLogger, uniqueExchange } from '../support/test-environment';

/**
 * One RabbitMQ user per service (the chart's services.<name>.amqpSecretRef): a user with exactly
 * brokerPermissionsOf(service, exchange), made with rabbitmqctl as docs/operations.md says, runs
 * the service's bus (topology, its own durable queue, publishing, the queue-depth metrics), and is
 * refused another service's queue.
 */
const run = promisify(execFile);
const exchange = uniqueExchange();
const user = `pwa-test-${randomBytes(4).toString('hex')}`;
const password = randomBytes(12).toString('hex');
const ownQueue = `${exchange}.ledgerkeeper.wallet-events`;
const othersQueue = `${exchange}.webhooks.partner-events`;
const buses: Bus[] = [];

const rabbitmqctl = (...args: string[]) => run('rabbitmqctl', ['--quiet', ...args], { timeout: 60_000 });
const asUser = (): string => {
  const url = new URL(amqpUrl);
  url.username = user;
  url.password = password;
  return url.toString();
};

beforeAll(async () => {
  const permissions = brokerPermissionsOf('ledgerkeeper', exchange);
  const vhost = decodeURIComponent(new URL(amqpUrl).pathname.replace(/^\//, '')) || '/';
  await rabbitmqctl('add_user', user, password);
  await rabbitmqctl('set_permissions', '-p', vhost, user, permissions.configure, permissions.write, permissions.read);
}, 120_000);

afterAll(async () => {
  for (const bus of buses) await bus.close();
  await rabbitmqctl('delete_user', user).catch(() => undefined);
  await deleteTopology(exchange, [ownQueue, othersQueue]);
}, 120_000);

describe('a service’s own RabbitMQ user', () => {
  test('when a service connects with exactly its permissions, then it declares the topology, consumes its own durable queue, publishes, and samples its queue depths', async () => {
    const registry = new Registry();
    const bus = await connectBus({ url: asUser(), exchange, serviceName: 'ledgerkeeper', logger: testLogger(), registry });
    buses.push(bus);
    const received: EventEnvelope[] = [];
    await bus.subscribe({
      queue: ownQueue,
      routingKeys: ['wallet.#'],
      kind: 'durable',
      handler: (envelope) => {
        received.push(envelope);
        return Promise.resolve();
      },
    });
    const event = createEventEnvelope({ type: 'wallet.checked', data: { value: randomUUID() }, producer: 'bus-permissions-test' });
    await bus.publish(event);
    expect(await eventually(() => received.some((envelope) => envelope.eventId === event.eventId))).toBe(true);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(new RegExp(`bus_queue_messages\\{[^}]*\\} \\d+`));
    expect(bus.isConnected()).toBe(true);
  });

  test('when the same user asks for another service’s queue, then the broker refuses it', async () => {
    const connection = await connect(asUser());
    try {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await expect(channel.assertQueue(othersQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } })).rejects.toThrow(/ACCESS_REFUSED/);
    } finally {
      await connection.close().catch(() => undefined);
    }
  });
});
