import { randomUUID } from 'node:crypto';
import { createPool, dropDatabase, ensureDatabase, type Pool } from '../../src';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_db_loss_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();

let pool: Pool;
let admin: Pool;

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  pool = createPool({ connectionString: databaseUrl, applicationName: 'connection-loss-test', schema: 'public', maxConnections: 2 });
  admin = createPool({ connectionString: databaseUrl, applicationName: 'connection-loss-admin', schema: 'public', maxConnections: 1 });
});

afterAll(async () => {
  await pool.end();
  await admin.end();
  await dropDatabase(databaseUrl);
});

async function terminateBackend(pid: number): Promise<void> {
  await admin.query('SELECT pg_terminate_backend($1::int)', [pid]);
}

describe('a pooled connection that PostgreSQL ends', () => {
  it('when a checked-out client loses its connection between two queries, then the process lives on, the next query on it rejects and the pool serves again', async () => {
    const client = await pool.connect();
    try {
      // The pool's own listener; the test adds none, so an unhandled 'error' would fail this test.
      expect(client.listenerCount('error')).toBeGreaterThan(0);
      // (events.once would reject on 'error' itself, which is what must be ignored here.)
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminateBackend((rows[0] as { pid: number }).pid);
      // The server's termination notice arrives as an 'error' event on the idle client, then 'end'.
      await ended;

      await expect(client.query('SELECT 1')).rejects.toThrow();
    } finally {
      client.release(true);
    }
    const answer = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(answer.rows[0]?.one).toBe(1);
  });
});
