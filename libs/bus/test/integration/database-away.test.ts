import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { connectBus, deadLetterNames, deliveryLimit, type Bus } from '@pwa/bus';
import { createEventEnvelope } from '@pwa/contracts';
import { amqpUrl, deleteTopology, eventually, testLogger, uniqueExchange } from '../support/test-environment';

/**
 * A consumer whose own database is away (PostgreSQL restarting) must not burn the queue's delivery
 * limit: five immediate redeliveries would dead-letter every event that arrived during the restart.
 */
const exchange = uniqueExchange();
const deadLetter = deadLetterNames(exchange);
const queues: string[] = [];
let bus: Bus;
let admin: ChannelModel;
let adminChannel: Channel;

beforeAll(async () => {
  bus = await connectBus({
    url: amqpUrl,
    exchange,
    serviceName: 'bus-test',
    logger: testLogger(),
    databaseRetry: { delayMsInitial: 10, delayMsMax: 40, attemptsMax: 3 * deliveryLimit },
  });
  admin = await connect(amqpUrl);
  adminChannel = await admin.createChannel();
});

afterAll(async () => {
  await bus.close();
  await admin.close();
  await deleteTopology(exchange, queues);
});

function databaseAway(): Error {
  return Object.assign(new Error('the database system is starting up'), { code: '57P03' });
}

async function deadLetteredCount(eventId: string): Promise<number> {
  let count = 0;
  for (;;) {
    const message = await adminChannel.get(deadLetter.queue, { noAck: true });
    if (message === false) return count;
    if (message.content.toString('utf8').includes(eventId)) count += 1;
  }
}

describe('a consumer whose database is away', () => {
  test('when the handler fails with the database away more times than the delivery limit, then the event is retried in place and handled once, not dead-lettered', async () => {
    const queue = `${exchange}.database-away`;
    queues.push(queue);
    const failuresBeforeBack = 2 * deliveryLimit;
    let calls = 0;
    const handled: string[] = [];
    await bus.subscribe({
      queue,
      routingKeys: ['database.away'],
      kind: 'durable',
      handler: (envelope) => {
        calls += 1;
        if (calls <= failuresBeforeBack) return Promise.reject(databaseAway());
        handled.push(envelope.eventId);
        return Promise.resolve();
      },
    });
    const envelope = createEventEnvelope({ type: 'database.away', data: { value: randomUUID() }, producer: 'bus-test' });
    await bus.publish(envelope);

    expect(await eventually(() => handled.length === 1)).toBe(true);
    expect(handled).toEqual([envelope.eventId]);
    expect(calls).toBe(failuresBeforeBack + 1);
    expect(await deadLetteredCount(envelope.eventId)).toBe(0);
  });

  test('when the handler fails for another reason, then the delivery counts as before and the event is dead-lettered after the limit', async () => {
    const queue = `${exchange}.other-failure`;
    queues.push(queue);
    let calls = 0;
    await bus.subscribe({
      queue,
      routingKeys: ['other.failure'],
      kind: 'durable',
      handler: () => {
        calls += 1;
        return Promise.reject(new Error('a bug, not an outage'));
      },
    });
    const envelope = createEventEnvelope({ type: 'other.failure', data: { value: randomUUID() }, producer: 'bus-test' });
    await bus.publish(envelope);

    expect(await eventually(async () => (await deadLetteredCount(envelope.eventId)) === 1)).toBe(true);
    expect(calls).toBeGreaterThanOrEqual(deliveryLimit);
    expect(calls).toBeLessThanOrEqual(deliveryLimit + 1);
  });
});
