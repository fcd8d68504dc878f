import type { Channel, Options } from 'amqplib';

export type QueueKind = 'durable' | 'ephemeral';

/**
 * How many times a durable queue hands a message to consumers before dead-lettering it. Bounds the
 * retries of a message whose handler keeps failing, so one poison message cannot spin forever.
 */
export const deliveryLimit = 5;

export interface DeadLetterNames {
  exchange: string;
  queue: string;
}

/**
 * The durable queues the services own, as `<service>.<purpose>`: each is named
 * `<exchange>.<service>.<purpose>` (serviceQueueName), every replica of its service consumes it, and
 * it outlives its consumers. One list, so whatever removes an exchange's topology (a test stack's
 * teardown) removes every one of them: a queue left behind keeps its share of the broker's file
 * handles, and enough of them stop the broker accepting connections.
 */
export const serviceQueueSuffixes = ['disbursements.wallet-events', 'webhooks.partner-events', 'webhooks.transaction-events'] as const;
export type ServiceQueueSuffix = (typeof serviceQueueSuffixes)[number];

export function serviceQueueName(exchange: string, suffix: ServiceQueueSuffix): string {
  return `${exchange}.${suffix}`;
}

/** Every durable queue of an exchange's topology: the services' and the dead-letter queue. */
export function durableQueueNames(exchange: string): string[] {
  return [...serviceQueueSuffixes.map((suffix) => serviceQueueName(exchange, suffix)), deadLetterNames(exchange).queue];
}

/** Dead-letter names follow from the main exchange, so each exchange (and each test run) has its own. */
export function deadLetterNames(exchange: string): DeadLetterNames {
  return { exchange: `${exchange}.dlx`, queue: `${exchange}.dead-letter` };
}

/**
 * Declares the exchanges and the dead-letter queue. Idempotent, so it runs on every (re)connect:
 * after a broker restart without persistence, or a deleted exchange, publishing must not fail.
 */
export async function assertExchangeTopology(channel: Channel, exchange: string): Promise<void> {
  const deadLetter = deadLetterNames(exchange);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertExchange(deadLetter.exchange, 'topic', { durable: true });
  await channel.assertQueue(deadLetter.queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(deadLetter.queue, deadLetter.exchange, '#');
}

/**
 * Durable queues are quorum queues: replicated, and they count deliveries, which is what makes
 * the delivery limit possible. Ephemeral queues serve one process (cache invalidation), so they are
 * exclusive and vanish with its connection. Both dead-letter what their consumer rejects.
 */
export function queueOptions(kind: QueueKind, exchange: string): Options.AssertQueue {
  const deadLetterExchange = deadLetterNames(exchange).exchange;
  switch (kind) {
    case 'durable':
      return {
        durable: true,
        arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': deadLetterExchange, 'x-delivery-limit': deliveryLimit },
      };
    case 'ephemeral':
      return { durable: false, exclusive: true, autoDelete: true, arguments: { 'x-dead-letter-exchange': deadLetterExchange } };
  }
}
