import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { appendAuditEntry } from '@pwa/audit';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { backofficeSchema } from '../../src/service-paths';

const run = promisify(execFile);
const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');

/** The built set-up CLI as an operator runs it: one process per command, against its own database (it migrates it). */
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase({ label: 'backoffice_setup_cli', schema: backofficeSchema });
});

afterAll(async () => {
  await database?.drop();
});

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cliPath, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.databaseUrl, BACKOFFICE_PUBLIC_URL: 'https://backoffice.internal.example', LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('back-office set-up CLI (built)', () => {
  test('when the first admin is bootstrapped, then the link is printed once in JSON and in text, and a second address is refused with exit 1', async () => {
    const created = await cli(['bootstrap-admin', '--email', 'first.admin@operator.example', '--name', 'First Admin', '--json']);
    expect(created.code).toBe(0);
    const json = JSON.parse(created.stdout) as Record<string, string>;
    expect(json).toMatchObject({ outcome: 'created', email: 'first.admin@operator.example', setupLink: expect.stringMatching(/^https:\/\/backoffice\.internal\.example\/setup#token=/) });

    const renewed = await cli(['bootstrap-admin', '--email', 'first.admin@operator.example', '--name', 'First Admin']);
    expect(renewed.code).toBe(0);
    expect(renewed.stdout).toMatch(/Renewed the set-up link of the first admin first\.admin@operator\.example/);
    expect(renewed.stdout).toMatch(/https:\/\/backoffice\.internal\.example\/setup#token=[A-Za-z0-9_-]{43}/);
    expect(renewed.stdout).not.toContain(json.setupLink);

    const other = await cli(['bootstrap-admin', '--email', 'other@operator.example', '--name', 'Other', '--json']);
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout)).toEqual({ error: expect.stringContaining('Another admin was invited') });
  });

  test('when the command is called wrongly, then it exits 2 with a message naming what to fix', async () => {
    expect(await cli(['bootstrap-admin', '--name', 'X', '--json'])).toMatchObject({ code: 2, stdout: expect.stringContaining('needs --email') });
    expect(await cli(['bootstrap-admin', '--email', 'not-an-address', '--name', 'X', '--json'])).toMatchObject({ code: 2, stdout: expect.stringContaining('--email must be an e-mail address') });
    expect(await cli(['bootstrap-admin', '--email', 'a@operator.example', '--json'])).toMatchObject({ code: 2, stdout: expect.stringContaining('needs --name') });
    expect(await cli(['make-me-admin', '--json'])).toMatchObject({ code: 2, stdout: expect.stringContaining('Unknown command: make-me-admin') });
  });

  test('when the console address is missing or plain http on a public host, then it refuses to print a link and names the setting', async () => {
    const missing = await cli(['bootstrap-admin', '--email', 'a@operator.example', '--name', 'A', '--json'], { BACKOFFICE_PUBLIC_URL: '' });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('BACKOFFICE_PUBLIC_URL');
    const plain = await cli(['bootstrap-admin', '--email', 'a@operator.example', '--name', 'A', '--json'], { BACKOFFICE_PUBLIC_URL: 'http://backoffice.example.com' });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('https://');
    expect(plain.stdout).not.toContain('setupLink');
  });

  test('when the audit chain is verified, then it holds and prints its head; after the database owner alters an entry, the command names it and exits 1, and a bad anchor is a usage error', async () => {
    // The bootstrap above was audited as the set-up command: the invitation, its renewal, the refusal; never the link.
    const bootstrapEntries = await database.pool.query<{ action: string; outcome: string; reason: string | null; after: unknown }>(`SELECT action, outcome, reason, after FROM audit_log ORDER BY sequence`);
    expect(bootstrapEntries.rows.map((row) => [row.action, row.outcome, row.reason])).toEqual([
      ['operator.bootstrap', 'done', null],
      ['operator.bootstrap.link_renew', 'done', null],
      ['operator.bootstrap', 'refused', 'another-admin-invited'],
    ]);
    expect(JSON.stringify(bootstrapEntries.rows)).not.toMatch(/token=|setup#/);
    for (const name of ['musu', 'kollie', 'weah']) {
      await appendAuditEntry(database.pool, { actor: { kind: 'system', id: 'setup-cli-test', displayName: 'set-up CLI test' }, action: 'operator.invite', target: { kind: 'operator', id: name }, after: { name }, outcome: 'done' });
    }
    const holds = await cli(['verify-audit-log', '--json']);
    expect(holds.code).toBe(0);
    const verified = JSON.parse(holds.stdout) as { ok: boolean; entries: number; head: { sequence: number; hash: string } };
    expect(verified).toMatchObject({ ok: true, entries: expect.any(Number), head: { sequence: verified.entries, hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(verified.entries).toBe(6);
    const anchored = await cli(['verify-audit-log', '--anchor-sequence', String(verified.head.sequence), '--anchor-hash', verified.head.hash]);
    expect(anchored).toMatchObject({ code: 0, stdout: expect.stringContaining(`The audit chain holds: ${verified.entries} entries`) });

    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await client.query(`UPDATE audit_log SET occurred_at = occurred_at - interval '1 day' WHERE sequence = 5`);
      await client.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const broken = await cli(['verify-audit-log']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^BROKEN at entry 5 \(hash_mismatch, entry id [0-9a-f-]{36}\)/);
    expect(JSON.parse((await cli(['verify-audit-log', '--json'])).stdout)).toMatchObject({ ok: false, firstBrokenSequence: 5, problem: 'hash_mismatch', entries: 4 });

    expect(await cli(['verify-audit-log', '--anchor-sequence', '3', '--json'])).toMatchObject({ code: 2, stdout: expect.stringContaining('go together') });
    expect(await cli(['verify-audit-log', '--anchor-sequence', '3', '--anchor-hash', 'abc', '--json'])).toMatchObject({ code: 2, stdout: expect.stringContaining('64 hexadecimal') });
  });
});
