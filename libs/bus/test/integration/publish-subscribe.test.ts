import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { connectBus, deadLetterNames, deliveryLimit, type Bus } from '@pwa/bus';
import { createEventEnvelope, parsePartnerEvent, type EventEnvelope } from '@pwa/contracts';
import { currentTraceparent, startTelemetry, type Telemetry } from '@pwa/telemetry';
import { amqpUrl, deleteTopology, eventually, sleep, testLogger, uniqueExchange } from '../support/test-environment';

const exchange = uniqueExchange();
const deadLetter = deadLetterNames(exchange);
const queues: string[] = [];
let bus: Bus;
let telemetry: Telemetry;
let admin: ChannelModel;
let adminChannel: Channel;

/** A queue name of this file's own; remembered so afterAll deletes it. */
function queueName(purpose: string): string {
  const name = `${exchange}.${purpose}`;
  queues.push(name);
  return name;
}

function envelopeOf(type: string, data: unknown = { value: randomUUID() }): EventEnvelope {
  return createEventEnvelope({ type, data, producer: 'bus-test' });
}

async function deadLettered(eventIdOrBody: string): Promise<boolean> {
  for (;;) {
    const message = await adminChannel.get(deadLetter.queue, { noAck: true });
    if (message === false) return false;
    if (message.content.toString('utf8').includes(eventIdOrBody)) return true;
  }
}

beforeAll(async () => {
  // The SDK's context manager is what lets a handler see the trace it runs in.
  telemetry = startTelemetry({ serviceName: 'bus-test', environment: 'sandbox', enabled: true, otlpEndpoint: 'http://127.0.0.1:9' });
  bus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test', logger: testLogger() });
  admin = await connect(amqpUrl);
  adminChannel = await admin.createChannel();
});

afterAll(async () => {
  await bus.close();
  await admin.close();
  await deleteTopology(exchange, queues);
  // Nothing listens on the exporter's port 9: the last export fails, and that is not what these tests check.
  await telemetry.shutdown().catch(() => undefined);
});

describe('publish and subscribe', () => {
  test('when an event is published, then a durable subscriber receives the same envelope inside its trace', async () => {
    const received: { envelope: EventEnvelope; traceparent: string | undefined }[] = [];
    await bus.subscribe({
      queue: queueName('round-trip'),
      routingKeys: ['round.trip'],
      kind: 'durable',
      handler: (envelope) => {
        received.push({ envelope, traceparent: currentTraceparent() });
        return Promise.resolve();
      },
    });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const sent = { ...envelopeOf('round.trip'), traceparent };
    await bus.publish(sent);

    expect(await eventually(() => received.length === 1)).toBe(true);
    expect(received[0]?.envelope).toEqual(sent);
    // The handler runs in a consumer span of its own, a child of the message's context, in the same trace.
    expect(received[0]?.traceparent?.split('-')[1]).toBe(traceparent.split('-')[1]);
    expect(received[0]?.traceparent).not.toBe(traceparent);
  });

  test('when publish resolves, then the broker already holds the message, persistent and with the trace header', async () => {
    const queue = queueName('confirm');
    await adminChannel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await adminChannel.bindQueue(queue, exchange, 'confirm.check');
    const sent = { ...envelopeOf('confirm.check'), traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

    await bus.publish(sent);

    // No waiting: the confirm means the queue has it the moment publish resolves.
    const message = await adminChannel.get(queue, { noAck: true });
    expect(message).not.toBe(false);
    if (message === false) return;
    expect(JSON.parse(message.content.toString('utf8'))).toEqual(sent);
    expect(message.fields.routingKey).toBe('confirm.check');
    expect(message.properties.deliveryMode).toBe(2);
    expect(message.properties.messageId).toBe(sent.eventId);
    expect(message.properties.headers?.traceparent).toBe(sent.traceparent);
  });

  test('when the broker refuses the message (nack), then publish rejects instead of forgetting it', async () => {
    const queue = queueName('full');
    // A full queue that rejects new publishes makes the broker nack the confirm.
    await adminChannel.assertQueue(queue, { durable: true, arguments: { 'x-max-length': 1, 'x-overflow': 'reject-publish' } });
    await adminChannel.bindQueue(queue, exchange, 'full.queue');

    await bus.publish(envelopeOf('full.queue'));
    await expect(bus.publish(envelopeOf('full.queue'))).rejects.toMatchObject({ code: 'BUS_PUBLISH_NOT_CONFIRMED' });
    expect(bus.isConnected()).toBe(true);
  });

  test('when the envelope is invalid, then publish rejects before anything is sent', async () => {
    const invalid = { ...envelopeOf('invalid.envelope'), eventId: 'not-a-uuid' };
    await expect(bus.publish(invalid)).rejects.toMatchObject({ code: 'CONTRACT_VIOLATION' });
  });

  test('when a message is not JSON, then it is dead-lettered without reaching the handler', async () => {
    const handled: EventEnvelope[] = [];
    await bus.subscribe({
      queue: queueName('poison'),
      routingKeys: ['poison.#'],
      kind: 'durable',
      handler: (envelope) => {
        handled.push(envelope);
        return Promise.resolve();
      },
    });
    const marker = `not json ${randomUUID()}`;
    adminChannel.publish(exchange, 'poison.text', Buffer.from(marker));
    const notAnEnvelope = JSON.stringify({ hello: marker });
    adminChannel.publish(exchange, 'poison.json', Buffer.from(notAnEnvelope));

    expect(await eventually(() => deadLettered(marker))).toBe(true);
    expect(await eventually(() => deadLettered(notAnEnvelope))).toBe(true);
    expect(handled).toEqual([]);
  });

  test('when the handler finds a contract violation, then the message is dead-lettered at once, not retried', async () => {
    let attempts = 0;
    await bus.subscribe({
      queue: queueName('contract'),
      routingKeys: ['partner.updated'],
      kind: 'durable',
      handler: (envelope) => {
        attempts += 1;
        parsePartnerEvent(envelope);
        return Promise.resolve();
      },
    });
    const sent = envelopeOf('partner.updated', { partnerId: 'not-a-uuid' });
    await bus.publish(sent);

    expect(await eventually(() => deadLettered(sent.eventId))).toBe(true);
    expect(attempts).toBe(1);
  });

  test('when the handler fails once, then the message is redelivered and acked after the retry succeeds', async () => {
    const attemptsById = new Map<string, number>();
    await bus.subscribe({
      queue: queueName('retry-once'),
      routingKeys: ['retry.once'],
      kind: 'durable',
      handler: (envelope) => {
        const attempt = (attemptsById.get(envelope.eventId) ?? 0) + 1;
        attemptsById.set(envelope.eventId, attempt);
        return attempt === 1 ? Promise.reject(new Error('database briefly unavailable')) : Promise.resolve();
      },
    });
    const sent = envelopeOf('retry.once');
    await bus.publish(sent);

    expect(await eventually(() => attemptsById.get(sent.eventId) === 2)).toBe(true);
    await sleep(200);
    expect(attemptsById.get(sent.eventId)).toBe(2);
  });

  test('when the handler always fails, then the message is dead-lettered after the delivery limit', async () => {
    let attempts = 0;
    await bus.subscribe({
      queue: queueName('always-fails'),
      routingKeys: ['always.fails'],
      kind: 'durable',
      handler: () => {
        attempts += 1;
        return Promise.reject(new Error('bug in handler'));
      },
    });
    const sent = envelopeOf('always.fails');
    await bus.publish(sent);

    expect(await eventually(() => deadLettered(sent.eventId))).toBe(true);
    expect(attempts).toBeGreaterThanOrEqual(deliveryLimit);
    expect(attempts).toBeLessThanOrEqual(deliveryLimit + 1);
  });

  test('when subscribing ephemerally, then events arrive and the queue disappears with the connection', async () => {
    const ephemeralBus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-test-ephemeral', logger: testLogger() });
    const queue = `${exchange}.cache-${randomUUID()}`;
    const received: EventEnvelope[] = [];
    await ephemeralBus.subscribe({
      queue,
      routingKeys: ['cache.invalidate'],
      kind: 'ephemeral',
      handler: (envelope) => {
        received.push(envelope);
        return Promise.resolve();
      },
    });
    await bus.publish(envelopeOf('cache.invalidate'));
    expect(await eventually(() => received.length === 1)).toBe(true);

    await ephemeralBus.close();
    const probe = await admin.createChannel();
    probe.on('error', () => undefined);
    await expect(probe.checkQueue(queue)).rejects.toThrow(/NOT_FOUND/);
  });

  test('when the subscription names no routing key, then subscribe rejects', async () => {
    await expect(bus.subscribe({ queue: queueName('no-keys'), routingKeys: [], kind: 'durable', handler: () => Promise.resolve() })).rejects.toMatchObject({
      code: 'BUS_INVALID_SUBSCRIPTION',
    });
  });
});

describe('connecting', () => {
  test('when nothing listens at the broker address, then connectBus rejects', async () => {
    const closedPort = await unusedPort();
    await expect(
      connectBus({ url: `amqp://guest:guest@127.0.0.1:${closedPort}`, exchange, serviceName: 'bus-test', logger: testLogger() }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  test('when the broker accepts TCP but never answers, then connectBus rejects after the connect timeout', async () => {
    const accepted = new Set<net.Socket>();
    const silent = net.createServer((socket) => accepted.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const startedAt = Date.now();
    try {
      await expect(
        connectBus({ url: `amqp://guest:guest@127.0.0.1:${port}`, exchange, serviceName: 'bus-test', logger: testLogger(), connectTimeoutMs: 300 }),
      ).rejects.toThrow(/within 300 ms|ETIMEDOUT/);
      expect(Date.now() - startedAt).toBeLessThan(3_000);
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
