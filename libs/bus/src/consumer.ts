import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Registry } from 'prom-client';
import { isContractViolation, type EventEnvelope } from '@pwa/contracts';
import { runWithLogContext, type Logger } from '@pwa/logging';
import { inSpan, runInTraceOrNewTrace } from '@pwa/telemetry';
import type { ConsumeOutcome } from './bus-metrics';
import { runWithDeliveryNotes } from './delivery-outcome';
import { decodeEnvelope } from './message-codec';
import { retryWhileDatabaseAway, type DatabaseRetrySettings } from './retry-while-database-away';
import { queueOptions, type QueueKind } from './topology';

export interface SubscribeOptions {
  /** Full queue name chosen by the caller, e.g. "wallet.partner-events". */
  queue: string;
  /** Topic patterns bound to the exchange, e.g. ["partner.*"]. */
  routingKeys: string[];
  /**
   * durable: quorum queue with dead-letter exchange and a delivery limit (events a service must not
   * miss). ephemeral: exclusive, auto-delete classic queue (per-process cache invalidation).
   */
  kind: QueueKind;
  /** The message is acked only after this resolves; a rejection sends it back for a retry. */
  handler: (envelope: EventEnvelope) => Promise<void>;
  /** Unacked messages the broker hands this consumer at once; defaults to 10. */
  prefetch?: number;
  /** Where this queue's messaging metrics go; defaults to the bus's registry. */
  registry?: Registry;
}

export const prefetchDefault = 10;

export interface RunningConsumer {
  /** Stops new deliveries; messages already delivered are still settled by their handler. */
  cancel(): Promise<void>;
}

export interface StartConsumerOptions {
  model: ChannelModel;
  exchange: string;
  subscription: SubscribeOptions;
  logger: Logger;
  /** Called when the channel closes or the broker cancels the consumer (for example, queue deleted). */
  onLost: (error: Error) => void;
  /** Lets the bus wait for handlers still running when it closes. */
  trackDelivery: (delivery: Promise<void>) => void;
  /** Counts how each message was settled. */
  recordOutcome: (outcome: ConsumeOutcome) => void;
  /** How a handler failing with the database away is retried in place (retry-while-database-away.ts). */
  databaseRetry: DatabaseRetrySettings;
}

/** Declares the queue and its bindings on a channel of its own, then consumes from it. */
export async function startConsumer(options: StartConsumerOptions): Promise<RunningConsumer> {
  const { subscription, exchange, logger } = options;
  const channel = await options.model.createChannel();
  let cancelled = false;
  channel.on('error', (error: Error) => logger.warn({ err: error, queue: subscription.queue }, 'consumer channel error'));
  try {
    await channel.prefetch(subscription.prefetch ?? prefetchDefault);
    await channel.assertQueue(subscription.queue, queueOptions(subscription.kind, exchange));
    for (const routingKey of subscription.routingKeys) await channel.bindQueue(subscription.queue, exchange, routingKey);
    const { consumerTag } = await channel.consume(subscription.queue, (message) => {
      if (message === null) {
        options.onLost(new Error(`consumer of ${subscription.queue} cancelled by the broker`));
        return;
      }
      options.trackDelivery(deliver(channel, options, message, () => cancelled));
    });
    channel.on('close', () => options.onLost(new Error(`consumer channel of ${subscription.queue} closed`)));
    return {
      cancel: () => {
        cancelled = true;
        return channel.cancel(consumerTag).then(() => undefined);
      },
    };
  } catch (error) {
    await channel.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Settles one message. Unparseable messages and contract violations are dead-lettered at once:
 * no retry can make them valid. Other handler failures are requeued; a durable (quorum) queue
 * dead-letters after the delivery limit, and an ephemeral (classic) queue, which counts nothing,
 * gets one retry.
 */
async function deliver(channel: Channel, options: StartConsumerOptions, message: ConsumeMessage, isCancelled: () => boolean): Promise<void> {
  const { subscription, logger } = options;
  const context = { queue: subscription.queue, routingKey: message.fields.routingKey, messageId: message.properties.messageId as string | undefined };
  let envelope: EventEnvelope;
  try {
    envelope = decodeEnvelope(message);
  } catch (error) {
    logger.error({ reason: describeDecodeFailure(error), ...context }, 'unparseable message dead-lettered');
    settle(() => channel.nack(message, false, false), logger);
    options.recordOutcome('dead_letter');
    return;
  }
  // The handler, and every line logged about this message, continue the trace and the request of
  // the operation that caused the event.
  await runInTraceOrNewTrace(envelope.traceparent, () =>
    runWithLogContext({ requestId: envelope.requestId }, () => handleInSpan(channel, options, message, envelope, context, isCancelled)),
  );
}

async function handleInSpan(
  channel: Channel,
  options: StartConsumerOptions,
  message: ConsumeMessage,
  envelope: EventEnvelope,
  context: Record<string, unknown>,
  isCancelled: () => boolean,
): Promise<void> {
  const { subscription, logger } = options;
  const attributes = {
    'messaging.system': 'rabbitmq',
    'messaging.operation.type': 'process',
    'messaging.destination.name': subscription.queue,
    'messaging.rabbitmq.destination.routing_key': message.fields.routingKey,
    'messaging.message.id': envelope.eventId,
  };
  const notes = { duplicate: false };
  try {
    await inSpan(`process ${envelope.type}`, 'consumer', attributes, () =>
      runWithDeliveryNotes(notes, () =>
        retryWhileDatabaseAway(() => subscription.handler(envelope), options.databaseRetry, isCancelled, (error) =>
          logger.warn({ err: error, ...context, eventId: envelope.eventId, type: envelope.type }, 'database away; retrying the event in place (its delivery is not counted)'),
        ),
      ),
    );
    settle(() => channel.ack(message), logger);
    options.recordOutcome(notes.duplicate ? 'duplicate' : 'ack');
    logger.debug({ ...context, eventId: envelope.eventId, type: envelope.type, duplicate: notes.duplicate }, 'event handled');
  } catch (error) {
    const permanent = isContractViolation(error);
    const requeue = !permanent && (subscription.kind === 'durable' || !message.fields.redelivered);
    const outcome = requeue ? 'requeued' : 'dead-lettered';
    logger.warn({ err: error, ...context, eventId: envelope.eventId, type: envelope.type }, `event handler failed; message ${outcome}`);
    settle(() => channel.nack(message, false, requeue), logger);
    options.recordOutcome(requeue ? 'retry' : 'dead_letter');
  }
}

/**
 * Acking on a channel that closed meanwhile throws; the broker then redelivers the message on the
 * next connection, and the idempotent consumer turns that into a no-op.
 */
function settle(action: () => void, logger: Logger): void {
  try {
    action();
  } catch (error) {
    logger.debug({ err: error }, 'could not settle a message on a closed channel; it will be redelivered');
  }
}

/**
 * JSON.parse quotes the start of the body in its message, and a body may hold personal data, so
 * only a contract violation (which names fields, never values) is logged in full.
 */
function describeDecodeFailure(error: unknown): string {
  if (error instanceof SyntaxError) return 'body is not valid JSON';
  return error instanceof Error ? error.message : 'body could not be decoded';
}
