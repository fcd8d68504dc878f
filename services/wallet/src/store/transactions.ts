import { withTransaction, type Pool, type PoolClient } from '@pwa/db';

/**
 * Transaction helpers beyond @pwa/db's withTransaction: a read-only snapshot for checks and
 * reports, and a bounded retry for the conflicts Postgres resolves by aborting one transaction.
 */
export function withReadOnlySnapshot<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, work, 'read_only_snapshot');
}

const deadlockDetected = '40P01';
const serializationFailure = '40001';
const attemptsMax = 3;

/**
 * Runs a whole transaction again when Postgres aborted it for a deadlock or a serialization
 * failure. Postings lock rows in one order, so neither should happen; this is a bounded safety
 * net, not a mechanism the design relies on.
 */
export async function retryOnTransientConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const transient = code === deadlockDetected || code === serializationFailure;
      if (!transient || attemptNumber >= attemptsMax) throw error;
    }
  }
}
