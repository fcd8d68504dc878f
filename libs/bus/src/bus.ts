import type { Channel, ChannelModel, ConfirmChannel } from 'amqplib';
import type { Registry } from 'prom-client';
import { parseEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import type { Logger } from '@pwa/logging';
import { BusError } from './bus-error';
import { busMetricsOf, initialiseConsumedCounts, withTimeout, type BusMetrics, type QueueSample, type QueueSamples, type SampledBus } from './bus-metrics';
import { brokerAddressOf, brokerUrls, connectToFirstBroker, type BrokerAddress } from './connect-with-timeout';
import { startConsumer, type RunningConsumer, type SubscribeOptions } from './consumer';
import { encodeEnvelope, publishOptions } from './message-codec';
import { reconnectDelayMs, reconnectDelayMsMaxDefault } from './reconnect-delay';
import { databaseRetryDefaults, type DatabaseRetrySettings } from './retry-while-database-away';
import { assertExchangeTopology, deadLetterNames } from './topology';

export interface BusOptions {
  /** AMQP_URL: credentials, virtual host, scheme; and the broker, unless `hosts` lists a cluster's nodes. */
  url: string;
  /** AMQP_HOSTS: the cluster's nodes, tried in turn with `url`'s credentials; a lost connection moves on to the next. */
  hosts?: readonly BrokerAddress[] | undefined;
  /** The durable topic exchange every event goes through; dead-letter names derive from it. */
  exchange: string;
  serviceName: string;
  logger: Logger;
  /** Cap of the reconnect backoff; defaults to 5000. */
  reconnectDelayMsMax?: number;
  /** How long one connection attempt may take before it fails; defaults to 5000. */
  connectTimeoutMs?: number;
  /** How long publish waits for the broker's confirm before it rejects; defaults to 10000. */
  publishConfirmTimeoutMs?: number;
  /**
   * The service's metrics registry: the bus then reports bus_connected, bus_messages_consumed_total,
   * bus_queue_messages and bus_dead_letter_messages there (docs/metrics.md, Messaging).
   */
  registry?: Registry;
  /**
   * When the broker cannot be reached at start, start anyway and connect in the background (the
   * gateway, whose bus only invalidates caches). Without it, connectBus rejects.
   */
  startWithoutBroker?: boolean;
  /** How a consumer waits out its database being away before a delivery counts; defaults to databaseRetryDefaults. */
  databaseRetry?: DatabaseRetrySettings;
}

export interface Bus {
  /** Resolves once the broker has confirmed the message (persistent, routing key = type); rejects otherwise. */
  publish(envelope: EventEnvelope): Promise<void>;
  /** Declares the queue and consumes from it; re-established automatically after a reconnect. */
  subscribe(options: SubscribeOptions): Promise<void>;
  isConnected(): boolean;
  /** Called after the connection is re-established: consumers of ephemeral queues may have missed events. */
  onReconnect(listener: () => void): void;
  /** Stops consuming, lets running handlers finish (bounded), and closes the connection. */
  close(): Promise<void>;
}

const connectTimeoutMsDefault = 5_000;
const publishConfirmTimeoutMsDefault = 10_000;
/** Bounds how long close() waits for handlers still running, so shutdown cannot hang on one. */
const closeGraceMs = 5_000;
/** Bounds each step of a scrape's queue sample, so a broker that does not answer cannot hang /metrics. */
const queueSampleTimeoutMs = 2_000;

/** One live AMQP connection and what was set up on it; replaced wholesale on every reconnect. */
interface Connection {
  model: ChannelModel;
  publishChannel: ConfirmChannel;
  consumers: Map<SubscribeOptions, RunningConsumer | 'starting'>;
  lost: boolean;
}

/**
 * Connects, declares the topology, and keeps the connection alive. Rejects (after the connect
 * timeout at most) when the broker is unreachable at start, unless startWithoutBroker is set.
 * Later losses are repaired in the background; a loss does not make the service unready (its
 * outbox holds what it publishes, its consumers catch up), it is logged once when it starts and
 * once when it ends, and bus_connected reads 0 meanwhile.
 */
export async function connectBus(options: BusOptions): Promise<Bus> {
  const bus = new ReconnectingBus(options);
  await bus.start();
  return bus;
}

class ReconnectingBus implements Bus, SampledBus {
  private connection: Connection | undefined;
  private readonly subscriptions: SubscribeOptions[] = [];
  private readonly reconnectListeners: (() => void)[] = [];
  private readonly inFlightDeliveries = new Set<Promise<void>>();
  private reconnectLoopRunning = false;
  private reconnectLoop: Promise<void> | undefined;
  private cancelReconnectWait: (() => void) | undefined;
  private closing = false;
  private closed: Promise<void> | undefined;
  /** The metrics of every registry this bus reports to, and the queue label of each subscription. */
  private readonly metricsOf = new Map<SubscribeOptions, { metrics: BusMetrics; queueLabel: string }>();
  private sampling: Promise<QueueSamples> | undefined;
  /** When the current outage began (Date.now()); undefined while connected. */
  private disconnectedSinceMs: number | undefined;
  /** Which of the cluster's nodes (AMQP_HOSTS) the next connection attempt starts from. */
  private nextBroker = 0;

  constructor(private readonly options: BusOptions) {
    if (options.registry) busMetricsOf(options.registry).buses.add(this);
  }

  async start(): Promise<void> {
    try {
      this.connection = await this.openConnection();
    } catch (error) {
      if (this.options.startWithoutBroker !== true) throw error;
      this.disconnectedSinceMs = Date.now();
      this.options.logger.warn({ err: error, dependency: 'rabbitmq' }, 'broker unreachable at start; connecting in the background');
      this.reconnectLoop = this.reconnectUntilConnected();
    }
  }

  isConnected(): boolean {
    return this.connection !== undefined && !this.connection.lost;
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    const valid = parseEventEnvelope(envelope);
    const connection = this.connection;
    if (this.closing) throw new BusError('BUS_CLOSED', 'The bus is closed');
    if (!connection || connection.lost) throw new BusError('BUS_NOT_CONNECTED', `Cannot publish ${valid.type}: the bus is not connected`);
    const timeoutMs = this.options.publishConfirmTimeoutMs ?? publishConfirmTimeoutMsDefault;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BusError('BUS_PUBLISH_CONFIRM_TIMEOUT', `Publish of ${valid.type} not confirmed within ${timeoutMs} ms`));
      }, timeoutMs);
      const onConfirm = (error: unknown): void => {
        clearTimeout(timer);
        if (error === null || error === undefined) resolve();
        else reject(new BusError('BUS_PUBLISH_NOT_CONFIRMED', `Broker did not confirm ${valid.type}`, { cause: error }));
      };
      try {
        const content = encodeEnvelope(valid);
        connection.publishChannel.publish(this.options.exchange, valid.type, content, publishOptions(valid, this.options.serviceName), onConfirm);
      } catch (error) {
        onConfirm(error ?? new Error('publish failed'));
      }
    });
  }

  async subscribe(subscription: SubscribeOptions): Promise<void> {
    if (this.closing) throw new BusError('BUS_CLOSED', 'The bus is closed');
    assertValidSubscription(subscription);
    this.attachMetrics(subscription);
    this.subscriptions.push(subscription);
    const connection = this.connection;
    if (!connection || connection.lost) {
      this.options.logger.warn({ queue: subscription.queue }, 'bus not connected; the subscription starts when it reconnects');
      return;
    }
    try {
      await this.startSubscription(connection, subscription);
    } catch (error) {
      this.subscriptions.splice(this.subscriptions.indexOf(subscription), 1);
      throw error;
    }
  }

  /**
   * Ready messages of every consumed queue and of the dead-letter queue, read with checkQueue on a
   * channel of its own (a queue that does not exist closes that channel, never the bus's). Never
   * rejects: a queue that cannot be read, or a bus without a connection, is NaN.
   */
  sampleQueues(): Promise<QueueSamples> {
    this.sampling ??= this.readQueueSamples().finally(() => {
      this.sampling = undefined;
    });
    return this.sampling;
  }

  close(): Promise<void> {
    this.closing = true;
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.cancelReconnectWait?.();
    await this.reconnectLoop;
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    for (const consumer of connection.consumers.values()) {
      if (consumer !== 'starting') await consumer.cancel().catch(() => undefined);
    }
    await waitAtMost(Promise.allSettled([...this.inFlightDeliveries]), closeGraceMs);
    await connection.model.close().catch(() => undefined);
  }

  private attachMetrics(subscription: SubscribeOptions): void {
    const registry = subscription.registry ?? this.options.registry;
    if (!registry) return;
    const metrics = busMetricsOf(registry);
    metrics.buses.add(this);
    // An ephemeral queue's name holds a random id; its label must not (label values are bounded sets).
    const queueLabel = subscription.kind === 'ephemeral' ? `${this.options.exchange}.${this.options.serviceName}.ephemeral` : subscription.queue;
    initialiseConsumedCounts(metrics, queueLabel);
    this.metricsOf.set(subscription, { metrics, queueLabel });
  }

  private async readQueueSamples(): Promise<QueueSamples> {
    const consumed = [...new Map(this.subscriptions.map((subscription) => [subscription.queue, this.metricsOf.get(subscription)?.queueLabel ?? subscription.queue]))];
    const deadLetterQueue = deadLetterNames(this.options.exchange).queue;
    const queues = [...consumed.map(([queue]) => queue), deadLetterQueue];
    const counts = await this.countReadyMessages(queues);
    const countOf = (queue: string): number => counts.get(queue) ?? Number.NaN;
    return {
      consumed: consumed.map(([queue, label]): QueueSample => ({ queue: label, messages: countOf(queue) })),
      deadLetter: [{ queue: deadLetterQueue, messages: countOf(deadLetterQueue) }],
    };
  }

  private async countReadyMessages(queues: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    let channel: Channel | undefined;
    try {
      for (const queue of queues) {
        const connection = this.connection;
        if (!connection || connection.lost) break;
        if (!channel) {
          channel = await withTimeout(connection.model.createChannel(), queueSampleTimeoutMs, 'opening a sampling channel');
          // A failed checkQueue closes the channel with an error event; without a listener it would crash the process.
          channel.on('error', () => undefined);
        }
        try {
          const { messageCount } = await withTimeout(channel.checkQueue(queue), queueSampleTimeoutMs, `checking ${queue}`);
          counts.set(queue, messageCount);
        } catch {
          // The broker closes a channel whose checkQueue failed; the next queue gets a new one.
          const failed = channel;
          channel = undefined;
          void failed.close().catch(() => undefined);
        }
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'queue sample failed; reported as NaN');
    } finally {
      if (channel) void channel.close().catch(() => undefined);
    }
    return counts;
  }

  private async openConnection(): Promise<Connection> {
    const { logger } = this.options;
    const urls = brokerUrls(this.options.url, this.options.hosts);
    const { model, index } = await connectToFirstBroker(urls, this.nextBroker, this.options.connectTimeoutMs ?? connectTimeoutMsDefault, this.options.serviceName);
    // After a loss, start from the node after this one: the one that went away is tried last.
    this.nextBroker = (index + 1) % urls.length;
    if (urls.length > 1) logger.info({ broker: brokerAddressOf(urls[index] ?? ''), dependency: 'rabbitmq' }, 'bus connected to a cluster node');
    try {
      const publishChannel = await model.createConfirmChannel();
      const connection: Connection = { model, publishChannel, consumers: new Map(), lost: false };
      // Listeners before anything can fail: an 'error' event without a listener would crash the process.
      model.on('error', (error: Error) => logger.warn({ err: error }, 'bus connection error'));
      model.on('close', (error?: Error) => this.handleLoss(connection, error ?? new Error('bus connection closed')));
      // A broker short of memory or disk blocks publishers; publishes then time out waiting for confirms.
      model.on('blocked', (reason: string) => logger.warn({ reason }, 'broker blocked publishing on this connection'));
      model.on('unblocked', () => logger.info('broker unblocked publishing on this connection'));
      publishChannel.on('error', (error: Error) => logger.warn({ err: error }, 'bus publish channel error'));
      publishChannel.on('close', () => this.handleLoss(connection, new Error('bus publish channel closed')));
      await assertExchangeTopology(publishChannel, this.options.exchange);
      return connection;
    } catch (error) {
      await model.close().catch(() => undefined);
      throw error;
    }
  }

  private async startSubscription(connection: Connection, subscription: SubscribeOptions): Promise<void> {
    // Marked before the first await, so a reconnect running at the same time does not start it twice.
    connection.consumers.set(subscription, 'starting');
    try {
      const consumer = await startConsumer({
        model: connection.model,
        exchange: this.options.exchange,
        subscription,
        logger: this.options.logger,
        onLost: (error) => this.handleLoss(connection, error),
        trackDelivery: (delivery) => this.trackDelivery(delivery),
        databaseRetry: this.options.databaseRetry ?? databaseRetryDefaults,
        recordOutcome: (outcome) => {
          const attached = this.metricsOf.get(subscription);
          attached?.metrics.consumed.inc({ queue: attached.queueLabel, outcome });
        },
      });
      connection.consumers.set(subscription, consumer);
    } catch (error) {
      connection.consumers.delete(subscription);
      throw error;
    }
  }

  private trackDelivery(delivery: Promise<void>): void {
    this.inFlightDeliveries.add(delivery);
    const forget = (): void => {
      this.inFlightDeliveries.delete(delivery);
    };
    delivery.then(forget, forget);
  }

  /**
   * Any close or error of the connection, the publish channel or a consumer channel ends the whole
   * connection: rebuilding everything is simpler to reason about than repairing parts of it.
   */
  private handleLoss(connection: Connection, error: Error): void {
    connection.lost = true;
    if (this.closing || this.connection !== connection) return;
    this.connection = undefined;
    this.disconnectedSinceMs ??= Date.now();
    this.options.logger.warn(
      { err: error, dependency: 'rabbitmq' },
      'bus connection lost; reconnecting (the service stays ready: events wait in the outbox, consumers resume on reconnect)',
    );
    void connection.model.close().catch(() => undefined);
    if (!this.reconnectLoopRunning) this.reconnectLoop = this.reconnectUntilConnected();
  }

  /** Retries with capped exponential backoff until connected or closed; never more than one loop at a time. */
  private async reconnectUntilConnected(): Promise<void> {
    this.reconnectLoopRunning = true;
    const delayMsMax = this.options.reconnectDelayMsMax ?? reconnectDelayMsMaxDefault;
    try {
      for (let attempt = 1; !this.closing; attempt += 1) {
        await this.waitBeforeReconnect(reconnectDelayMs(attempt, delayMsMax));
        if (this.closing) return;
        if (await this.tryReconnect(attempt)) {
          this.reconnectLoopRunning = false;
          this.notifyReconnected();
          return;
        }
      }
    } finally {
      this.reconnectLoopRunning = false;
    }
  }

  private async tryReconnect(attempt: number): Promise<boolean> {
    let connection: Connection | undefined;
    try {
      connection = await this.openConnection();
      if (this.closing) {
        await connection.model.close().catch(() => undefined);
        return false;
      }
      this.connection = connection;
      // The live array: a subscribe() that arrives meanwhile is picked up by this loop or starts itself.
      for (const subscription of this.subscriptions) {
        if (!connection.consumers.has(subscription)) await this.startSubscription(connection, subscription);
      }
      if (connection.lost) throw new Error('connection lost while re-subscribing');
      const outageSeconds = this.disconnectedSinceMs === undefined ? undefined : (Date.now() - this.disconnectedSinceMs) / 1000;
      this.disconnectedSinceMs = undefined;
      this.options.logger.info({ attempt, subscriptions: this.subscriptions.length, outageSeconds, dependency: 'rabbitmq' }, 'bus reconnected');
      return true;
    } catch (error) {
      if (connection && this.connection === connection) this.connection = undefined;
      if (connection) await connection.model.close().catch(() => undefined);
      // The loss was logged once; each failed attempt is detail.
      this.options.logger.debug({ err: error, attempt }, 'bus reconnect attempt failed');
      return false;
    }
  }

  private waitBeforeReconnect(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      this.cancelReconnectWait = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private notifyReconnected(): void {
    for (const listener of this.reconnectListeners) {
      try {
        listener();
      } catch (error) {
        this.options.logger.error({ err: error }, 'onReconnect listener failed');
      }
    }
  }
}

function assertValidSubscription(subscription: SubscribeOptions): void {
  const problems: string[] = [];
  if (subscription.queue.trim() === '') problems.push('queue is empty');
  if (subscription.routingKeys.length === 0) problems.push('routingKeys is empty');
  if (subscription.prefetch !== undefined && !(Number.isInteger(subscription.prefetch) && subscription.prefetch > 0)) {
    problems.push('prefetch must be a positive integer');
  }
  if (problems.length > 0) throw new BusError('BUS_INVALID_SUBSCRIPTION', `Invalid subscription: ${problems.join('; ')}`);
}

function waitAtMost(promise: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  return Promise.race([promise.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
