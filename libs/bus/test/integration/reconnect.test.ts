import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@pwa/bus';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { amqpUrl, deleteTopology, eventually, sleep, testLogger, uniqueExchange } from '../support/test-environment';
import { startTcpProxy, viaProxy, type TcpProxy } from '../support/tcp-proxy';

const exchange = uniqueExchange();
const durableQueue = `${exchange}.reconnect-durable`;
let proxy: TcpProxy;
/** Connected through the proxy: the one whose connection the tests cut. */
let bus: Bus;
/** Connected directly: publishes while the other is away. */
let publisher: Bus;
let reconnects = 0;
const durableReceived: EventEnvelope[] = [];
const ephemeralReceived: EventEnvelope[] = [];

function envelopeOf(type: string): EventEnvelope {
  return createEventEnvelope({ type, data: { value: randomUUID() }, producer: 'bus-test' });
}

function receivedIds(received: EventEnvelope[]): string[] {
  return received.map((envelope) => envelope.eventId);
}

beforeAll(async () => {
  const broker = new URL(amqpUrl);
  proxy = await startTcpProxy(broker.hostname, Number(broker.port) || 5672);
  bus = await connectBus({ url: viaProxy(amqpUrl, proxy), exchange, serviceName: 'bus-test', logger: testLogger(), reconnectDelayMsMax: 200 });
  bus.onReconnect(() => {
    reconnects += 1;
  });
  publisher = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test-publisher', logger: testLogger() });
  await bus.subscribe({
    queue: durableQueue,
    routingKeys: ['reconnect.#'],
    kind: 'durable',
    handler: (envelope) => {
      durableReceived.push(envelope);
      return Promise.resolve();
    },
  });
  await bus.subscribe({
    queue: `${exchange}.reconnect-ephemeral-${randomUUID()}`,
    routingKeys: ['reconnect.#'],
    kind: 'ephemeral',
    handler: (envelope) => {
      ephemeralReceived.push(envelope);
      return Promise.resolve();
    },
  });
});

afterAll(async () => {
  await bus.close();
  await publisher.close();
  await proxy.close();
  await deleteTopology(exchange, [durableQueue]);
});

// Delivery is at least once: an ack still in flight when the connection is cut is lost, and the
// broker redelivers that message after the reconnect. So these tests check arrival, never counts;
// processOnce is what turns redeliveries into no-ops.
describe('reconnection', () => {
  test('when the connection drops, then the bus reconnects, calls onReconnect and both subscriptions keep receiving', async () => {
    const before = envelopeOf('reconnect.before');
    await publisher.publish(before);
    expect(await eventually(() => receivedIds(durableReceived).includes(before.eventId))).toBe(true);

    proxy.dropConnections();

    expect(await eventually(() => reconnects === 1)).toBe(true);
    expect(bus.isConnected()).toBe(true);
    const after = envelopeOf('reconnect.after');
    await publisher.publish(after);
    expect(await eventually(() => receivedIds(durableReceived).includes(after.eventId))).toBe(true);
    expect(await eventually(() => receivedIds(ephemeralReceived).includes(after.eventId))).toBe(true);
  });

  test('when the broker stays unreachable for a while, then publish rejects meanwhile and the durable queue delivers what was published during the outage', async () => {
    const reconnectsBefore = reconnects;
    proxy.setRefusing(true);
    proxy.dropConnections();
    expect(await eventually(() => !bus.isConnected())).toBe(true);

    await expect(bus.publish(envelopeOf('reconnect.rejected'))).rejects.toMatchObject({ code: 'BUS_NOT_CONNECTED' });
    const duringOutage = envelopeOf('reconnect.during-outage');
    await publisher.publish(duringOutage);
    // Several reconnect attempts fail against the refusing proxy before it lets them through.
    await sleep(600);
    expect(reconnects).toBe(reconnectsBefore);
    proxy.setRefusing(false);

    expect(await eventually(() => reconnects === reconnectsBefore + 1)).toBe(true);
    expect(await eventually(() => receivedIds(durableReceived).includes(duringOutage.eventId))).toBe(true);
    const afterOutage = envelopeOf('reconnect.after-outage');
    await bus.publish(afterOutage);
    expect(await eventually(() => receivedIds(durableReceived).includes(afterOutage.eventId))).toBe(true);
  });
});
