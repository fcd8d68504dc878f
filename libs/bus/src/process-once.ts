import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { noteDuplicateDelivery } from './delivery-outcome';

export type ProcessOutcome = 'processed' | 'duplicate';

/**
 * Runs work at most once per (consumer, event id): the id is recorded in processed_events in the
 * same transaction as the work, so either both commit or neither does. A concurrent attempt with
 * the same id waits on the primary key until the first commits, then sees the duplicate; if the
 * first rolls back, the second does the work. Ack the message only after this resolves.
 */
export async function processOnce(
  pool: Pool,
  consumer: string,
  eventId: string,
  work: (client: PoolClient) => Promise<void>,
): Promise<ProcessOutcome> {
  const outcome = await withTransaction(pool, async (client): Promise<ProcessOutcome> => {
    const recorded = await client.query('INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [consumer, eventId]);
    if (recorded.rowCount === 0) return 'duplicate';
    await work(client);
    return 'processed';
  });
  if (outcome === 'duplicate') noteDuplicateDelivery();
  return outcome;
}
