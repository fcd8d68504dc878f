import { Counter, Gauge, type Registry } from 'prom-client';

/** How the consumer settled a message (docs/metrics.md, Messaging). */
export const consumeOutcomes = ['ack', 'duplicate', 'retry', 'dead_letter'] as const;
export type ConsumeOutcome = (typeof consumeOutcomes)[number];

/** Ready messages of one queue at the last sample; NaN when it could not be read (broker away). */
export interface QueueSample {
  queue: string;
  messages: number;
}

export interface QueueSamples {
  consumed: QueueSample[];
  deadLetter: QueueSample[];
}

/** What a bus offers the scrape: its connection state and a sample of its queues (never rejects). */
export interface SampledBus {
  isConnected(): boolean;
  sampleQueues(): Promise<QueueSamples>;
}

/** What a relay offers the scrape: the backlog of its outbox (never rejects; NaN when unknown). */
export interface SampledOutbox {
  sampleOutbox(): Promise<OutboxSample>;
}

/** The outbox backlog at a scrape; NaN when it could not be read. */
export interface OutboxSample {
  /** Rows waiting to be published (parked rows not included). */
  pendingMessages: number;
  oldestPendingAgeSeconds: number;
  /** Rows the relay gave up on after its attempt bound, kept for the operator to replay. */
  parkedRows: number;
}

/**
 * The messaging metrics of one registry. A service's bus, its subscriptions and its relay share
 * them; the gauges read their sources at scrape time, so nothing polls between scrapes.
 */
export interface BusMetrics {
  consumed: Counter<'queue' | 'outcome'>;
  published: Counter<'event_type'>;
  publishFailures: Counter;
  buses: Set<SampledBus>;
  outboxes: Set<SampledOutbox>;
}

const metricsByRegistry = new WeakMap<Registry, BusMetrics>();

/** The messaging metrics registered in this registry, registering them on first use. */
export function busMetricsOf(registry: Registry): BusMetrics {
  const known = metricsByRegistry.get(registry);
  if (known) return known;
  const buses = new Set<SampledBus>();
  const outboxes = new Set<SampledOutbox>();
  const registers = [registry];
  const metrics: BusMetrics = {
    buses,
    outboxes,
    consumed: new Counter({
      name: 'bus_messages_consumed_total',
      help: 'Messages handled by this service, by queue and outcome (ack, duplicate, retry, dead_letter)',
      labelNames: ['queue', 'outcome'] as const,
      registers,
    }),
    published: new Counter({
      name: 'outbox_published_total',
      help: 'Events the outbox relay published with a broker confirm, by event type',
      labelNames: ['event_type'] as const,
      registers,
    }),
    publishFailures: new Counter({
      name: 'outbox_publish_failures_total',
      help: 'Outbox relay publish attempts that failed (the event is retried)',
      registers,
    }),
  };
  new Gauge({
    name: 'bus_connected',
    help: '1 while the AMQP connection and channel are up, 0 otherwise',
    registers,
    collect() {
      this.set(buses.size > 0 && [...buses].every((bus) => bus.isConnected()) ? 1 : 0);
    },
  });
  const samplesOfBuses = sharedPerScrape(async () => (await Promise.all([...buses].map((bus) => bus.sampleQueues()))));
  new Gauge({
    name: 'bus_queue_messages',
    help: 'Ready messages in each queue this service consumes (sampled at scrape; NaN while the broker is unreachable)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      for (const samples of await samplesOfBuses()) for (const sample of samples.consumed) this.set({ queue: sample.queue }, sample.messages);
    },
  });
  new Gauge({
    name: 'bus_dead_letter_messages',
    help: 'Messages waiting in the dead-letter queue that receives what this service rejects (sampled at scrape)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      for (const samples of await samplesOfBuses()) for (const sample of samples.deadLetter) this.set({ queue: sample.queue }, sample.messages);
    },
  });
  const samplesOfOutboxes = sharedPerScrape(() => Promise.all([...outboxes].map((outbox) => outbox.sampleOutbox())));
  new Gauge({
    name: 'outbox_pending_messages',
    help: 'Outbox rows not yet published (sampled at scrape)',
    registers,
    async collect() {
      const samples = await samplesOfOutboxes();
      this.set(samples.reduce((sum, sample) => sum + sample.pendingMessages, 0));
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest unpublished outbox row in seconds, 0 when the outbox is drained (outbox lag)',
    registers,
    async collect() {
      const samples = await samplesOfOutboxes();
      this.set(samples.reduce((oldest, sample) => Math.max(oldest, sample.oldestPendingAgeSeconds), 0));
    },
  });
  new Gauge({
    name: 'outbox_parked_rows',
    help: 'Outbox rows parked after OUTBOX_PUBLISH_ATTEMPTS_MAX failed attempts: kept, skipped by the relay, listed and replayed with npm run operator -- outbox-parked (sampled at scrape)',
    registers,
    async collect() {
      const samples = await samplesOfOutboxes();
      this.set(samples.reduce((sum, sample) => sum + sample.parkedRows, 0));
    },
  });
  metricsByRegistry.set(registry, metrics);
  return metrics;
}

/** Two gauges read the same sample: one scrape runs the sampling once, not once per gauge. */
function sharedPerScrape<T>(sample: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= sample().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

/** Counts start at 0 for every outcome of a queue, so alerts see the series before the first message. */
export function initialiseConsumedCounts(metrics: BusMetrics, queue: string): void {
  for (const outcome of consumeOutcomes) metrics.consumed.inc({ queue, outcome }, 0);
}

/** Resolves with the promise's value, or rejects after timeoutMs; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
