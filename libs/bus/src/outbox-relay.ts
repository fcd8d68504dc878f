import type { Registry } from 'prom-client';
import type { EventEnvelope } from '@pwa/contracts';
import type { Pool, PoolClient } from '@pwa/db';
import { runWithLogContext, scrubSecrets, type Logger } from '@pwa/logging';
import { currentTraceparent, inSpan, runInTraceOrNewTrace } from '@pwa/telemetry';
import type { Bus } from './bus';
import { busMetricsOf, withTimeout, type BusMetrics, type OutboxSample, type SampledBus, type SampledOutbox } from './bus-metrics';

export interface OutboxRelayOptions {
  pool: Pool;
  bus: Bus;
  logger: Logger;
  /** Pause between polls when the outbox is drained; defaults to 1000. */
  pollIntervalMs?: number;
  /** Rows published per transaction; defaults to 100. */
  batchSize?: number;
  /**
   * Failed attempts after which a row that is itself the problem (the broker refused it, or it is
   * not a valid envelope) is parked, so the rows behind it go on; defaults to 5. Failures of the
   * connection (not connected, closed, no confirm in time) are counted but never park a row.
   */
  publishAttemptsMax?: number;
  /**
   * The service's metrics registry: the relay then reports outbox_published_total,
   * outbox_publish_failures_total, and the outbox backlog sampled at scrape (docs/metrics.md).
   */
  registry?: Registry;
}

export interface OutboxRelay {
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Publishes one batch now (after the one in flight) and returns how many rows it published. */
  flushNow(): Promise<number>;
}

const pollIntervalMsDefault = 1_000;
const batchSizeDefault = 100;
export const publishAttemptsMaxDefault = 5;
const lastErrorLengthMax = 1_000;
/** A scrape must not wait on a slow database: past this the backlog is reported as NaN. */
const outboxSampleTimeoutMs = 2_000;

interface OutboxRow {
  id: string;
  /** The whole envelope; the bus validates it again before publishing. */
  payload: unknown;
}

/**
 * Publishes committed outbox rows in order of creation, each with a publisher confirm, and marks
 * them published in the same transaction that locked them. SKIP LOCKED lets several replicas
 * relay side by side without publishing a row twice. Delivery is at least once: if the commit
 * fails after a confirm, the row is published again, which idempotent consumers absorb.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const pollIntervalMs = options.pollIntervalMs ?? pollIntervalMsDefault;
  const batchSize = options.batchSize ?? batchSizeDefault;
  const publishAttemptsMax = options.publishAttemptsMax ?? publishAttemptsMaxDefault;
  const metrics = options.registry ? busMetricsOf(options.registry) : undefined;
  const sampled: SampledOutbox = { sampleOutbox: () => sampleOutbox(options.pool) };
  metrics?.outboxes.add(sampled);
  // A service that only publishes reports its connection (and dead letters) through its relay's registry.
  if (metrics && isSampledBus(options.bus)) metrics.buses.add(options.bus);
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  // Batches of one relay run one after another; parallelism comes from running more relays.
  let previousBatch: Promise<unknown> = Promise.resolve();
  // After a batch that published nothing, the next poll first asks whether anything waits (one
  // statement) before opening a transaction for it (three): an idle relay polls five times a second.
  let lastBatchPublished = true;

  const runBatch = (): Promise<number> => {
    const batch = previousBatch.then(async () => {
      if (stopped) return 0;
      const published = await publishBatch(options, { batchSize, publishAttemptsMax }, metrics, { askFirst: !lastBatchPublished });
      lastBatchPublished = published > 0;
      return published;
    });
    previousBatch = batch.catch(() => undefined);
    return batch;
  };

  const pause = (): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, pollIntervalMs);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  // One loop per relay, ended by stop(); every turn either publishes a full batch or pauses.
  const poll = async (): Promise<void> => {
    while (!stopped) {
      let published = 0;
      try {
        published = await runBatch();
      } catch (error) {
        options.logger.error({ err: error }, 'outbox relay batch failed');
      }
      // A full batch means more rows are waiting: continue at once rather than after a pause.
      if (published < batchSize && !stopped) await pause();
    }
  };

  // Rows that piled up while the broker was away need not wait for the next poll.
  options.bus.onReconnect(() => wakeUp?.());
  const polling = poll();

  return {
    flushNow: runBatch,
    stop: async () => {
      stopped = true;
      metrics?.outboxes.delete(sampled);
      wakeUp?.();
      await polling;
      await previousBatch;
    },
  };
}

/** Whether any row waits to be published: one statement on the partial index of unpublished rows (parked ones are few). */
async function hasUnpublishedRows(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ pending: boolean }>('SELECT EXISTS (SELECT 1 FROM outbox WHERE published_at IS NULL AND parked_at IS NULL) AS pending');
  return rows[0]?.pending === true;
}

interface BatchBounds {
  batchSize: number;
  publishAttemptsMax: number;
}

async function publishBatch(options: OutboxRelayOptions, bounds: BatchBounds, metrics: BusMetrics | undefined, { askFirst }: { askFirst: boolean }): Promise<number> {
  // Without a connection every publish would fail; leave the rows (and their attempts) untouched.
  if (!options.bus.isConnected()) return 0;
  if (askFirst && !(await hasUnpublishedRows(options.pool))) return 0;
  const client = await options.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<OutboxRow>(
      'SELECT id, payload FROM outbox WHERE published_at IS NULL AND parked_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED',
      [bounds.batchSize],
    );
    const published = await publishRows(client, rows, { ...options, publishAttemptsMax: bounds.publishAttemptsMax }, metrics);
    await client.query('COMMIT');
    return published;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

type PublishOutcome = 'published' | 'retry' | 'parked';
type RelayRowOptions = OutboxRelayOptions & { publishAttemptsMax: number };

/**
 * Publishes the rows in order, each with its broker confirm, and stops at the first failure: the
 * next rows would most likely fail the same way, and order is kept. A row parked at its attempt
 * bound is skipped instead, and the rows behind it go on (their order relative to it is then
 * lost: it comes later, when the operator replays it). The published rows are marked by one
 * statement at the end (in the batch's transaction, so a crash before the commit publishes them
 * again: at least once, and consumers are idempotent).
 */
async function publishRows(client: PoolClient, rows: OutboxRow[], options: RelayRowOptions, metrics: BusMetrics | undefined): Promise<number> {
  const publishedIds: string[] = [];
  for (const row of rows) {
    // Read defensively: the bus validates the envelope, and a row that is not one must fail there, logged.
    const envelope = (typeof row.payload === 'object' && row.payload !== null ? row.payload : {}) as Partial<EventEnvelope>;
    const outcome = await runInTraceOrNewTrace(envelope.traceparent, () =>
      runWithLogContext({ requestId: envelope.requestId }, () => publishRow(client, row, String(envelope.type), options)),
    );
    if (outcome !== 'published') metrics?.publishFailures.inc();
    if (outcome === 'parked') continue;
    if (outcome === 'retry') break;
    metrics?.published.inc({ event_type: String(envelope.type) });
    publishedIds.push(row.id);
  }
  if (publishedIds.length > 0) {
    await client.query('UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1::uuid[])', [publishedIds]);
  }
  return publishedIds.length;
}

/**
 * Publishes one row with its confirm. A failure is recorded on the row (attempts, last error), and
 * a row that is itself the problem is parked at its attempt bound; the caller marks successes.
 */
async function publishRow(client: PoolClient, row: OutboxRow, type: string, options: RelayRowOptions): Promise<PublishOutcome> {
  const attributes = { 'messaging.system': 'rabbitmq', 'messaging.operation.type': 'send', 'messaging.message.id': row.id };
  try {
    await inSpan(`publish ${type}`, 'producer', attributes, () => options.bus.publish(withCurrentTraceparent(row.payload as EventEnvelope)));
  } catch (error) {
    const lastError = scrubSecrets(error instanceof Error ? error.message : String(error)).slice(0, lastErrorLengthMax);
    const { rows } = await client.query<{ attempts: number; parked: boolean }>(
      `UPDATE outbox SET attempts = attempts + 1, last_error = $2,
         parked_at = CASE WHEN $3::boolean AND attempts + 1 >= $4::int THEN now() END
       WHERE id = $1 RETURNING attempts, parked_at IS NOT NULL AS parked`,
      [row.id, lastError, isTheRowsFault(error, options.bus), options.publishAttemptsMax],
    );
    const attempts = rows[0]?.attempts;
    if (rows[0]?.parked === true) {
      options.logger.error(
        { err: error, eventId: row.id, type, attempts },
        'outbox event parked after its last attempt; the events behind it go on (npm run operator -- outbox-parked list)',
      );
      return 'parked';
    }
    options.logger.warn({ err: error, eventId: row.id, attempts }, 'outbox event not published; will retry');
    return 'retry';
  }
  options.logger.debug({ eventId: row.id, type }, 'outbox event published');
  return 'published';
}

/** Connection trouble is not the row's fault and never parks it; a refusal or an invalid envelope is. */
function isTheRowsFault(error: unknown, bus: Bus): boolean {
  if (!bus.isConnected()) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return code !== 'BUS_NOT_CONNECTED' && code !== 'BUS_CLOSED' && code !== 'BUS_PUBLISH_CONFIRM_TIMEOUT';
}

/**
 * The message carries the producer span's context (while tracing), so the consumer's span is its
 * child; otherwise the stored traceparent is handed on unchanged.
 */
function withCurrentTraceparent(envelope: EventEnvelope): EventEnvelope {
  const traceparent = currentTraceparent();
  return traceparent === undefined || typeof envelope !== 'object' || envelope === null ? envelope : { ...envelope, traceparent };
}

function isSampledBus(bus: Bus): bus is Bus & SampledBus {
  return typeof (bus as Partial<SampledBus>).sampleQueues === 'function';
}

/** The backlog for the scrape: one cheap query on the partial index of unpublished rows; NaN when it fails. */
async function sampleOutbox(pool: Pool): Promise<OutboxSample> {
  try {
    const { rows } = await withTimeout(
      pool.query<{ pending: number; parked: number; age_seconds: number | null }>(
        `SELECT count(*) FILTER (WHERE parked_at IS NULL)::int AS pending,
                count(*) FILTER (WHERE parked_at IS NOT NULL)::int AS parked,
                extract(epoch FROM now() - min(created_at) FILTER (WHERE parked_at IS NULL))::double precision AS age_seconds
         FROM outbox WHERE published_at IS NULL`,
      ),
      outboxSampleTimeoutMs,
      'sampling the outbox',
    );
    return { pendingMessages: rows[0]?.pending ?? 0, oldestPendingAgeSeconds: Math.max(0, rows[0]?.age_seconds ?? 0), parkedRows: rows[0]?.parked ?? 0 };
  } catch {
    return { pendingMessages: Number.NaN, oldestPendingAgeSeconds: Number.NaN, parkedRows: Number.NaN };
  }
}
