import type { EventEnvelope } from '@pwa/contracts';
import type { Pool, PoolClient } from '@pwa/db';
import { scrubSecrets, type Logger } from '@pwa/logging';
import type { Bus } from './bus';

export interface OutboxRelayOptions {
  pool: Pool;
  bus: Bus;
  logger: Logger;
  /** Pause between polls when the outbox is drained; defaults to 1000. */
  pollIntervalMs?: number;
  /** Rows published per transaction; defaults to 100. */
  batchSize?: number;
}

export interface OutboxRelay {
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Publishes one batch now (after the one in flight) and returns how many rows it published. */
  flushNow(): Promise<number>;
}

const pollIntervalMsDefault = 1_000;
const batchSizeDefault = 100;
const lastErrorLengthMax = 1_000;

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
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  // Batches of one relay run one after another; parallelism comes from running more relays.
  let previousBatch: Promise<unknown> = Promise.resolve();

  const runBatch = (): Promise<number> => {
    const batch = previousBatch.then(() => (stopped ? 0 : publishBatch(options, batchSize)));
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
      wakeUp?.();
      await polling;
      await previousBatch;
    },
  };
}

async function publishBatch(options: OutboxRelayOptions, batchSize: number): Promise<number> {
  // Without a connection every publish would fail; leave the rows (and their attempts) untouched.
  if (!options.bus.isConnected()) return 0;
  const client = await options.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<OutboxRow>(
      'SELECT id, payload FROM outbox WHERE published_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED',
      [batchSize],
    );
    const published = await publishRows(client, rows, options);
    await client.query('COMMIT');
    return published;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Stops at the first failure: the next rows would most likely fail the same way, and order is kept. */
async function publishRows(client: PoolClient, rows: OutboxRow[], options: OutboxRelayOptions): Promise<number> {
  let published = 0;
  for (const row of rows) {
    try {
      await options.bus.publish(row.payload as EventEnvelope);
    } catch (error) {
      const lastError = scrubSecrets(error instanceof Error ? error.message : String(error)).slice(0, lastErrorLengthMax);
      await client.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [row.id, lastError]);
      options.logger.warn({ err: error, eventId: row.id }, 'outbox event not published; will retry');
      break;
    }
    await client.query('UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1', [row.id]);
    published += 1;
  }
  return published;
}
