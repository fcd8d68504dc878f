import type { Channel, ChannelModel, ConfirmChannel, GetMessage, Message } from 'amqplib';
import { deadLetterNames } from '@pwa/bus';
import { deathReasonOf, originQueueOf, replayPublishOptions } from './dead-letter-message';

/**
 * Every durable queue of an exchange dead-letters into one queue, `<exchange>.dead-letter` (see
 * libs/bus topology). These functions read it with basic.get, one message at a time, and sort the
 * messages by the queue they died in. A message they do not take stays unacknowledged until the
 * end and then goes back (nack with requeue), so a run sees each message at most once and leaves
 * the others where they were.
 */

/** Bound of the messages one run looks at, so a huge dead-letter queue cannot hold a run forever. */
export const deadLetterScanMaxDefault = 10_000;
/** How long a replayed message may wait for the broker's confirm. */
const publishConfirmTimeoutMs = 10_000;

export interface DeadLetterQueueCount {
  /** The queue the messages died in. "(unknown)" when the broker recorded none. */
  queue: string;
  count: number;
  /** Why they died: rejected (by a consumer: unparseable, contract violation), delivery_limit, expired, maxlen. */
  reasons: Record<string, number>;
}

export interface DeadLetterListing {
  exchange: string;
  deadLetterQueue: string;
  /** Messages in the dead-letter queue when the run started. */
  total: number;
  /** Messages looked at (at most the scan bound). */
  scanned: number;
  queues: DeadLetterQueueCount[];
}

export interface ReplayOptions {
  exchange: string;
  /**
   * The original queue whose dead letters go back to it. The dead-letter queue's own name
   * (`<exchange>.dead-letter`, the `queue` label of bus_dead_letter_messages) replays every dead
   * letter, each to the queue it died in.
   */
  queue: string;
  /** Most messages to replay; default: every matching one among those there at the start. */
  limit?: number;
  dryRun: boolean;
  scanMax?: number;
}

export interface ReplayReport {
  exchange: string;
  deadLetterQueue: string;
  queue: string;
  dryRun: boolean;
  /** Messages in the dead-letter queue when the run started. */
  total: number;
  scanned: number;
  /** Dead letters of `queue` seen (with --dry-run: what a real run would replay, up to the limit). */
  matched: number;
  /** Republished with a broker confirm, then removed from the dead-letter queue. */
  replayed: number;
  /** Message ids (the events' ids) of the replayed, or with --dry-run matched, messages. */
  messageIds: string[];
}

export class DeadLetterReplayError extends Error {
  constructor(
    message: string,
    readonly replayedBeforeFailure: number,
  ) {
    super(message);
    this.name = 'DeadLetterReplayError';
  }
}

/** Counts the dead letters of an exchange by the queue they died in; leaves every message in place. */
export async function listDeadLetters(model: ChannelModel, exchange: string, scanMax = deadLetterScanMaxDefault): Promise<DeadLetterListing> {
  const deadLetterQueue = deadLetterNames(exchange).queue;
  const total = await messageCountOf(model, deadLetterQueue);
  const channel = await model.createChannel();
  channel.on('error', () => undefined);
  const byQueue = new Map<string, DeadLetterQueueCount>();
  let scanned = 0;
  try {
    for (; scanned < Math.min(total, scanMax); scanned += 1) {
      const message = await channel.get(deadLetterQueue, { noAck: false });
      if (message === false) break;
      const queue = originQueueOf(message) ?? '(unknown)';
      const entry = byQueue.get(queue) ?? { queue, count: 0, reasons: {} };
      entry.count += 1;
      const reason = deathReasonOf(message);
      entry.reasons[reason] = (entry.reasons[reason] ?? 0) + 1;
      byQueue.set(queue, entry);
    }
  } finally {
    await returnUntakenAndClose(channel);
  }
  const queues = [...byQueue.values()].sort((a, b) => b.count - a.count || a.queue.localeCompare(b.queue));
  return { exchange, deadLetterQueue, total, scanned, queues };
}

/**
 * Moves the dead letters of one queue back to it, oldest first, one at a time: republish to the
 * queue itself (default exchange, so no other queue bound to the topic gets a copy) with the
 * original body, properties and headers minus the death bookkeeping, wait for the broker's
 * confirm, and only then acknowledge the dead letter. A failure stops the run; the message being
 * replayed stays in the dead-letter queue (and may also have reached the queue: consumers are
 * idempotent by event id).
 */
export async function replayDeadLetters(model: ChannelModel, options: ReplayOptions): Promise<ReplayReport> {
  const deadLetterQueue = deadLetterNames(options.exchange).queue;
  await messageCountOf(model, options.queue);
  const total = await messageCountOf(model, deadLetterQueue);
  const scanBound = Math.min(total, options.scanMax ?? deadLetterScanMaxDefault);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const everyQueue = options.queue === deadLetterQueue;
  const reading = await model.createChannel();
  const publishing = options.dryRun ? undefined : await model.createConfirmChannel();
  // A channel error also rejects the operation in flight, which is where it is reported.
  reading.on('error', () => undefined);
  publishing?.on('error', () => undefined);
  const report: ReplayReport = {
    exchange: options.exchange,
    deadLetterQueue,
    queue: options.queue,
    dryRun: options.dryRun,
    total,
    scanned: 0,
    matched: 0,
    replayed: 0,
    messageIds: [],
  };
  try {
    while (report.scanned < scanBound && report.matched < limit) {
      const message = await reading.get(deadLetterQueue, { noAck: false });
      if (message === false) break;
      report.scanned += 1;
      const origin = originQueueOf(message);
      if (origin === undefined || (!everyQueue && origin !== options.queue)) continue;
      report.matched += 1;
      report.messageIds.push(messageIdOf(message));
      if (publishing === undefined) continue;
      try {
        await republish(publishing, origin, message);
      } catch (error) {
        report.messageIds.pop();
        throw new DeadLetterReplayError(
          `replay stopped after ${report.replayed} message(s): ${error instanceof Error ? error.message : String(error)}; message ${messageIdOf(message)} stays in ${deadLetterQueue}`,
          report.replayed,
        );
      }
      reading.ack(message);
      report.replayed += 1;
    }
  } finally {
    await publishing?.close().catch(() => undefined);
    await returnUntakenAndClose(reading);
  }
  return report;
}

/** The queue's message count; a clear error when it does not exist (the check closes its own channel then). */
async function messageCountOf(model: ChannelModel, queue: string): Promise<number> {
  const channel = await model.createChannel();
  channel.on('error', () => undefined);
  try {
    const { messageCount } = await channel.checkQueue(queue);
    return messageCount;
  } catch (error) {
    throw new Error(`queue ${queue} does not exist on this broker (check --queue and BUS_EXCHANGE)`, { cause: error });
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** Resolves once the broker confirmed the copy and routed it to the queue; rejects otherwise. */
function republish(channel: ConfirmChannel, queue: string, message: GetMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    let returned = false;
    // The broker sends basic.return before the confirm of an unroutable mandatory message.
    const onReturn = (): void => {
      returned = true;
    };
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      channel.off('return', onReturn);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`no broker confirm within ${publishConfirmTimeoutMs} ms`)), publishConfirmTimeoutMs);
    channel.on('return', onReturn);
    try {
      channel.publish('', queue, message.content, replayPublishOptions(message), (error: unknown) => {
        if (error !== null && error !== undefined) finish(new Error('the broker refused the message (nack)'));
        else if (returned) finish(new Error(`queue ${queue} no longer exists; the message was returned`));
        else finish();
      });
    } catch (error) {
      finish(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** Every message this channel took and did not acknowledge goes back to the dead-letter queue. */
async function returnUntakenAndClose(channel: Channel): Promise<void> {
  try {
    channel.nackAll(true);
  } catch {
    // The channel is already closed: the broker has returned its unacknowledged messages itself.
  }
  await channel.close().catch(() => undefined);
}

function messageIdOf(message: Message): string {
  const id: unknown = message.properties.messageId;
  return typeof id === 'string' && id !== '' ? id : '(no message id)';
}
