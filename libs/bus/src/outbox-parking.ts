import type { Pool } from '@pwa/db';

/** A parked outbox row as the operator sees it: what it is, how often it failed, and why. */
export interface ParkedOutboxRow {
  id: string;
  routingKey: string;
  createdAt: string;
  parkedAt: string;
  attempts: number;
  lastError: string | null;
}

const listLimitMax = 1_000;

/** Parked rows of the pool's schema, oldest first, at most `limit` (bounded by 1000), and how many there are. */
export async function listParkedOutboxRows(pool: Pool, limit = 100): Promise<{ total: number; rows: ParkedOutboxRow[] }> {
  const bounded = Math.min(Math.max(1, Math.trunc(limit)), listLimitMax);
  const [{ rows: counted }, { rows }] = await Promise.all([
    pool.query<{ total: number }>('SELECT count(*)::int AS total FROM outbox WHERE parked_at IS NOT NULL'),
    pool.query<{ id: string; routing_key: string; created_at: Date; parked_at: Date; attempts: number; last_error: string | null }>(
      `SELECT id, routing_key, created_at, parked_at, attempts, last_error FROM outbox
       WHERE parked_at IS NOT NULL ORDER BY created_at, id LIMIT $1`,
      [bounded],
    ),
  ]);
  return {
    total: counted[0]?.total ?? 0,
    rows: rows.map((row) => ({
      id: row.id,
      routingKey: row.routing_key,
      createdAt: row.created_at.toISOString(),
      parkedAt: row.parked_at.toISOString(),
      attempts: row.attempts,
      lastError: row.last_error,
    })),
  };
}

/**
 * Hands parked rows back to the relay: parked_at is cleared and the attempt count starts over (the
 * last error stays until the next attempt replaces it), so the running relay publishes them at its
 * next poll, oldest first, and parks them again after as many attempts if the cause is not fixed.
 * With `id`, that one row only; without, every parked row. Returns the ids handed back.
 */
export async function replayParkedOutboxRows(pool: Pool, options: { id?: string } = {}): Promise<string[]> {
  const { rows } = options.id === undefined
    ? await pool.query<{ id: string }>('UPDATE outbox SET parked_at = NULL, attempts = 0 WHERE parked_at IS NOT NULL RETURNING id')
    : await pool.query<{ id: string }>('UPDATE outbox SET parked_at = NULL, attempts = 0 WHERE parked_at IS NOT NULL AND id = $1::uuid RETURNING id', [options.id]);
  return rows.map((row) => row.id);
}
