import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { busMigrationsDirectory } from '@pwa/bus';
import { createPool, dropDatabase, ensureDatabase, migrate, type Pool } from '@pwa/db';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

/**
 * `npm run operator -- outbox-parked list|replay --service <name>` (the built CLI, as an operator
 * runs it) against a database of its own migrated with the quotes service's real migrations, the
 * outbox parking one included.
 */
const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const databaseUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_outbox_parked_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return url.toString();
})();
let pool: Pool;

function runCli(args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'operator.js'), ...args, '--json'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl }, timeout: 30_000 },
      (error, stdout) => {
        try {
          resolve({ code: error ? Number(error.code ?? 1) : 0, json: JSON.parse(stdout) as Record<string, unknown> });
        } catch {
          reject(new Error(`operator printed no JSON: ${stdout}`));
        }
      },
    );
  });
}

async function insertRow(parked: boolean): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO outbox (id, routing_key, payload, attempts, last_error, parked_at)
     VALUES ($1, 'quote.test', '{}'::jsonb, $2, $3, $4)`,
    [id, parked ? 5 : 1, parked ? 'Broker did not confirm quote.test' : null, parked ? new Date() : null],
  );
  return id;
}

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  await migrate({ databaseUrl, schema: 'quotes', directories: [busMigrationsDirectory, path.join(repoRoot, 'services', 'quotes', 'migrations')] });
  pool = createPool({ connectionString: databaseUrl, applicationName: 'outbox-parked-cli-test', schema: 'quotes', maxConnections: 2 });
});

afterAll(async () => {
  await pool?.end();
  await dropDatabase(databaseUrl);
});

describe('outbox-parked operator command', () => {
  test('when rows are parked, then list shows them with attempts and last error, and replay --id hands exactly that one back to the relay', async () => {
    const first = await insertRow(true);
    const second = await insertRow(true);
    await insertRow(false);

    const listed = await runCli(['outbox-parked', 'list', '--service', 'quotes']);
    const replayed = await runCli(['outbox-parked', 'replay', '--service', 'quotes', '--id', first]);
    const { rows } = await pool.query<{ id: string; parked: boolean; attempts: number }>('SELECT id, parked_at IS NOT NULL AS parked, attempts FROM outbox WHERE id = ANY($1::uuid[])', [[first, second]]);

    expect(listed.code).toBe(0);
    expect(listed.json).toMatchObject({ service: 'quotes', total: 2 });
    expect((listed.json.rows as { id: string; attempts: number; lastError: string }[]).map((row) => [row.id, row.attempts, row.lastError])).toEqual([
      [first, 5, 'Broker did not confirm quote.test'],
      [second, 5, 'Broker did not confirm quote.test'],
    ]);
    expect(replayed).toEqual({ code: 0, json: { service: 'quotes', replayed: [first] } });
    expect(rows.find((row) => row.id === first)).toMatchObject({ parked: false, attempts: 0 });
    expect(rows.find((row) => row.id === second)).toMatchObject({ parked: true, attempts: 5 });
  });

  test('when replay names a row that is not parked, or an unknown service, then the command fails and changes nothing', async () => {
    const notParked = await insertRow(false);

    const missing = await runCli(['outbox-parked', 'replay', '--service', 'quotes', '--id', notParked]);
    const unknownService = await runCli(['outbox-parked', 'list', '--service', 'ledger']);

    expect(missing.code).toBe(1);
    expect(missing.json.replayed).toEqual([]);
    expect(unknownService.code).toBe(2);
    expect(String(unknownService.json.error)).toMatch(/--service must be one of/);
  });
});
