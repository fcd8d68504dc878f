import { Pool, type PoolClient } from 'pg';
import { prepareParameterisedStatements } from './prepared-statements';

export type { Pool, PoolClient };

export interface CreatePoolOptions {
  connectionString: string;
  applicationName: string;
  /** The service's own schema; it is put first on the search path of every connection. */
  schema: string;
  maxConnections?: number;
  statementTimeoutMs?: number;
}

/** Every service statement's limit: the pools set it at connect, and provisioning sets it on each runtime role (for a pooler that drops startup parameters). */
export const serviceStatementTimeoutMs = 15_000;

/** The search path of a service's connections: its own schema, then public. */
export function serviceSearchPath(schema: string): string {
  assertSafeIdentifier(schema);
  return `${schema},public`;
}

export function createPool(options: CreatePoolOptions): Pool {
  assertSafeIdentifier(options.schema);
  const pool = new Pool({
    connectionString: options.connectionString,
    application_name: options.applicationName,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? serviceStatementTimeoutMs,
    options: `-c search_path=${serviceSearchPath(options.schema)}`,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener it would
  // crash the process. The next checkout reconnects, so it is only worth a debug note.
  pool.on('error', () => undefined);
  // A checked-out client whose connection ends between two queries (PostgreSQL restarted, say)
  // emits 'error' on itself, where the pool does not listen. Its holder learns of it from the next
  // query, which rejects, and releases it; the event itself must not end the process.
  pool.on('connect', ignoreConnectionErrorEvents);
  pool.on('connect', prepareParameterisedStatements);
  return pool;
}

function ignoreConnectionErrorEvents(client: PoolClient): void {
  client.on('error', () => undefined);
}

/** How a transaction begins: the default read-write, or a read-only snapshot for checks and reports. */
export type TransactionMode = 'read_write' | 'read_only_snapshot';

const beginStatements: Record<TransactionMode, string> = {
  read_write: 'BEGIN',
  read_only_snapshot: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
};

/** Runs fn inside BEGIN/COMMIT on one client, rolling back on any error. */
export async function withTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
  mode: TransactionMode = 'read_write',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(beginStatements[mode]);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export async function pingDatabase(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}

const safeIdentifier = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema and database names are interpolated into SQL, so they must be plain identifiers. */
export function assertSafeIdentifier(name: string): void {
  if (!safeIdentifier.test(name)) throw new Error(`Unsafe SQL identifier: ${JSON.stringify(name)}`);
}
