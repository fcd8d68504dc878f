import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { connect, type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import { connectBus, deadLetterNames, deliveryLimit } from '@pwa/bus';
import { createLogger } from '@pwa/logging';
import { listDeadLetters, replayDeadLetters } from '../../src/dead-letters/dead-letter-queue';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string } };

const amqpUrl = serverUrls().amqp;
const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const exchange = `test.dead-letters.${randomUUID()}`;
const deadLetter = deadLetterNames(exchange);
const webhooksQueue = `${exchange}.webhooks.transaction-events`;
const otherQueue = `${exchange}.gateway.partner-events`;
let model: ChannelModel;
let channel: Channel;

/** A durable queue as libs/bus declares one: quorum, the exchange's dead-letter exchange, the delivery limit. */
async function declareDurableQueue(queue: string, routingKey: string): Promise<void> {
  await channel.assertQueue(queue, {
    durable: true,
    arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': deadLetter.exchange, 'x-delivery-limit': deliveryLimit },
  });
  await channel.bindQueue(queue, exchange, routingKey);
}

interface Published {
  eventId: string;
  body: string;
}

/** Publishes an event the way the services do, takes it off its queue and rejects it: a dead letter. */
async function deadLetterOne(queue: string, routingKey: string): Promise<Published> {
  const eventId = randomUUID();
  const body = JSON.stringify({ eventId, type: routingKey, data: { value: randomUUID() } });
  channel.publish(exchange, routingKey, Buffer.from(body), {
    persistent: true,
    contentType: 'application/json',
    messageId: eventId,
    type: routingKey,
    appId: 'dead-letter-test',
    timestamp: 1_700_000_000,
    headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-test-header': 'kept' },
  });
  const message = await eventually(() => channel.get(queue, { noAck: false }));
  channel.reject(message, false);
  return { eventId, body };
}

async function messageCount(queue: string): Promise<number> {
  return (await channel.checkQueue(queue)).messageCount;
}

async function eventually<T>(probe: () => Promise<T | false>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function untilCount(queue: string, count: number): Promise<void> {
  await eventually(async () => (await messageCount(queue)) === count || false);
}

async function drain(queue: string): Promise<GetMessage[]> {
  const messages: GetMessage[] = [];
  for (;;) {
    const message = await channel.get(queue, { noAck: true });
    if (message === false) return messages;
    messages.push(message);
  }
}

function runCli(args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'operator.js'), ...args, '--json'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', AMQP_URL: amqpUrl, BUS_EXCHANGE: exchange }, timeout: 30_000 },
      (error, stdout) => {
        try {
          resolve({ code: error ? Number(error.code ?? 1) : 0, json: JSON.parse(stdout) as Record<string, unknown> });
        } catch {
          reject(new Error(`operator printed no JSON: ${stdout}`));
        }
      },
    );
  });
}

beforeAll(async () => {
  // The project's own code declares the exchange, its dead-letter exchange and queue.
  const bus = await connectBus({ url: amqpUrl, exchange, serviceName: 'dead-letter-test', logger: createLogger({ service: 'test', level: 'silent' }) });
  await bus.close();
  model = await connect(amqpUrl);
  channel = await model.createChannel();
  await declareDurableQueue(webhooksQueue, 'collection.*');
  await declareDurableQueue(otherQueue, 'partner.*');
});

afterEach(async () => {
  await channel.purgeQueue(webhooksQueue);
  await channel.purgeQueue(otherQueue);
  await channel.purgeQueue(deadLetter.queue);
});

afterAll(async () => {
  for (const queue of [webhooksQueue, otherQueue, deadLetter.queue]) await channel.deleteQueue(queue);
  await channel.deleteExchange(exchange);
  await channel.deleteExchange(deadLetter.exchange);
  await model.close();
});

describe('dead-letter replay', () => {
  it('when a queue has dead letters, then the replay puts them back on it with body and headers intact and the death bookkeeping gone', async () => {
    const mine = await deadLetterOne(webhooksQueue, 'collection.completed');
    const theirs = await deadLetterOne(otherQueue, 'partner.updated');
    await untilCount(deadLetter.queue, 2);

    const report = await replayDeadLetters(model, { exchange, queue: webhooksQueue, dryRun: false });

    expect(report).toMatchObject({ queue: webhooksQueue, total: 2, matched: 1, replayed: 1, messageIds: [mine.eventId] });
    await untilCount(webhooksQueue, 1);
    const [replayed] = await drain(webhooksQueue);
    expect(replayed?.content.toString('utf8')).toBe(mine.body);
    expect(replayed?.properties).toMatchObject({ messageId: mine.eventId, type: 'collection.completed', appId: 'dead-letter-test', contentType: 'application/json', deliveryMode: 2, timestamp: 1_700_000_000 });
    const { 'x-delivery-count': deliveryCount, ...headers } = replayed?.properties.headers ?? {};
    expect(headers).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-test-header': 'kept' });
    // No x-death and first-death summaries; a quorum queue counts deliveries from zero again.
    expect(deliveryCount ?? 0).toBe(0);
    // Only the other queue's dead letter is left, untouched.
    await untilCount(deadLetter.queue, 1);
    const [left] = await drain(deadLetter.queue);
    expect(left?.content.toString('utf8')).toBe(theirs.body);
  });

  it('when run with --dry-run, then it reports what it would replay and changes nothing', async () => {
    const mine = await deadLetterOne(webhooksQueue, 'collection.failed');
    await deadLetterOne(otherQueue, 'partner.created');
    await untilCount(deadLetter.queue, 2);

    const report = await replayDeadLetters(model, { exchange, queue: webhooksQueue, dryRun: true });

    expect(report).toMatchObject({ dryRun: true, matched: 1, replayed: 0, messageIds: [mine.eventId] });
    await untilCount(deadLetter.queue, 2);
    expect(await messageCount(webhooksQueue)).toBe(0);
    const bodies = (await drain(deadLetter.queue)).map((message) => message.content.toString('utf8'));
    expect(bodies).toContain(mine.body);
  });

  it('when a limit is given, then it replays that many, oldest first, and leaves the rest', async () => {
    const first = await deadLetterOne(webhooksQueue, 'collection.expired');
    await deadLetterOne(webhooksQueue, 'collection.declined');
    await untilCount(deadLetter.queue, 2);

    const report = await replayDeadLetters(model, { exchange, queue: webhooksQueue, limit: 1, dryRun: false });

    expect(report).toMatchObject({ matched: 1, replayed: 1, messageIds: [first.eventId] });
    await untilCount(webhooksQueue, 1);
    await untilCount(deadLetter.queue, 1);
  });

  it('when the dead-letter queue itself is named, then every dead letter goes back to the queue it died in', async () => {
    const mine = await deadLetterOne(webhooksQueue, 'collection.completed');
    const theirs = await deadLetterOne(otherQueue, 'partner.updated');
    await untilCount(deadLetter.queue, 2);

    const report = await replayDeadLetters(model, { exchange, queue: deadLetter.queue, dryRun: false });

    expect(report).toMatchObject({ matched: 2, replayed: 2 });
    await untilCount(webhooksQueue, 1);
    await untilCount(otherQueue, 1);
    await untilCount(deadLetter.queue, 0);
    expect((await drain(webhooksQueue)).map((message) => message.properties.messageId as string)).toEqual([mine.eventId]);
    expect((await drain(otherQueue)).map((message) => message.properties.messageId as string)).toEqual([theirs.eventId]);
  });

  it('when the queue does not exist, then it refuses before touching the dead letters', async () => {
    await deadLetterOne(webhooksQueue, 'collection.completed');
    await untilCount(deadLetter.queue, 1);
    await expect(replayDeadLetters(model, { exchange, queue: `${exchange}.no-such-queue`, dryRun: false })).rejects.toThrow('does not exist');
    await untilCount(deadLetter.queue, 1);
  });

  it('when run through npm run operator, then list counts per queue and replay moves the messages', async () => {
    await deadLetterOne(webhooksQueue, 'collection.completed');
    await deadLetterOne(webhooksQueue, 'collection.failed');
    await deadLetterOne(otherQueue, 'partner.updated');
    await untilCount(deadLetter.queue, 3);

    const listed = await runCli(['list-dead-letters']);
    expect(listed.code).toBe(0);
    expect(listed.json).toMatchObject({
      deadLetterQueue: deadLetter.queue,
      total: 3,
      queues: [
        { queue: webhooksQueue, count: 2, reasons: { rejected: 2 } },
        { queue: otherQueue, count: 1, reasons: { rejected: 1 } },
      ],
    });
    expect(await listDeadLetters(model, exchange)).toMatchObject({ total: 3 });

    const dryRun = await runCli(['replay-dead-letters', '--queue', webhooksQueue, '--dry-run']);
    expect(dryRun.json).toMatchObject({ dryRun: true, matched: 2, replayed: 0 });
    const replayed = await runCli(['replay-dead-letters', '--queue', webhooksQueue]);
    expect(replayed).toMatchObject({ code: 0, json: { replayed: 2 } });
    await untilCount(webhooksQueue, 2);
    await untilCount(deadLetter.queue, 1);

    const usage = await runCli(['replay-dead-letters']);
    expect(usage).toMatchObject({ code: 2, json: { error: '--queue <queue> is required' } });
  });
});
