import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { open, seal } from '@pwa/sealing';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import { totpSecretBinding } from '../../src/use-cases/people-dependencies';

const run = promisify(execFile);
const cliPath = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');

/**
 * `reseal-totp-secrets` as an operator runs it: the built CLI, one process per run, the keys in
 * its environment only. It never prints a secret, sealed or in clear.
 */
let database: TestDatabase;
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const operatorCount = 5;
const secretByOperator = new Map<string, Buffer>();

beforeAll(async () => {
  database = await openTestDatabase({ label: 'backoffice_totp_reseal_cli', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories });
  for (let index = 0; index < operatorCount; index += 1) {
    const operatorId = randomUUID();
    const secret = randomBytes(20);
    await database.pool.query(`INSERT INTO operators (id, email, display_name, roles) VALUES ($1, $2, $3, ARRAY['checker'])`, [operatorId, `checker.${index}@operator.example`, `Checker ${index}`]);
    await database.pool.query('INSERT INTO operator_totp_factors (operator_id, sealed_secret) VALUES ($1, $2)', [operatorId, seal(secret, oldKey, totpSecretBinding(operatorId)).toString('base64')]);
    secretByOperator.set(operatorId, secret);
  }
});

afterAll(async () => {
  await database?.drop();
});

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
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

async function sealedSecrets(): Promise<Map<string, string>> {
  const result = await database.pool.query<{ operator_id: string; sealed_secret: string }>('SELECT operator_id, sealed_secret FROM operator_totp_factors');
  return new Map(result.rows.map((row) => [row.operator_id, row.sealed_secret]));
}

/** Neither a key, nor a sealed secret, nor a secret in clear (base64 or hex) in what the CLI printed. */
async function expectNoSecretIn(output: string): Promise<void> {
  for (const key of [oldKey, newKey]) expect(output).not.toContain(key.toString('base64'));
  for (const sealed of (await sealedSecrets()).values()) expect(output).not.toContain(sealed);
  for (const secret of secretByOperator.values()) {
    expect(output).not.toContain(secret.toString('base64'));
    expect(output).not.toContain(secret.toString('hex'));
  }
}

const bothKeys = { BACKOFFICE_SEALING_KEY: newKey.toString('base64'), BACKOFFICE_SEALING_KEY_PREVIOUS: oldKey.toString('base64') };

describe('reseal-totp-secrets (built CLI)', () => {
  test('when a key is missing, the same twice or not a key, then it refuses, names the setting and changes nothing', async () => {
    const before = await sealedSecrets();
    const missing = await cli(['reseal-totp-secrets', '--json'], {});
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({ error: expect.stringContaining('needs BACKOFFICE_SEALING_KEY') });
    const same = await cli(['reseal-totp-secrets', '--json'], { BACKOFFICE_SEALING_KEY: newKey.toString('base64'), BACKOFFICE_SEALING_KEY_PREVIOUS: newKey.toString('base64') });
    expect(same.code).toBe(1);
    expect(same.stdout).toContain('BACKOFFICE_SEALING_KEY_PREVIOUS holds the same key');
    const short = await cli(['reseal-totp-secrets', '--json'], { ...bothKeys, BACKOFFICE_SEALING_KEY_PREVIOUS: 'c2hvcnQ=' });
    expect(short.code).toBe(1);
    expect(short.stdout).toContain('BACKOFFICE_SEALING_KEY_PREVIOUS: must be base64 of exactly 32 bytes');
    expect(await cli(['reseal-totp-secrets', '--batch-size', '0', '--json'], bothKeys)).toMatchObject({ code: 2, stdout: expect.stringContaining('--batch-size must be a whole number from 1 to 1000') });
    expect(await cli(['reseal-totp-secrets', 'now', '--json'], bothKeys)).toMatchObject({ code: 2, stdout: expect.stringContaining('takes no positional arguments') });
    expect(await sealedSecrets()).toEqual(before);
    for (const output of [missing, same, short]) await expectNoSecretIn(output.stdout + output.stderr);
  });

  test('when the previous key is wrong, then it exits 1 naming the operators whose secrets open with neither key, and changes nothing', async () => {
    const before = await sealedSecrets();
    const refused = await cli(['reseal-totp-secrets', '--json'], { ...bothKeys, BACKOFFICE_SEALING_KEY_PREVIOUS: randomBytes(32).toString('base64') });
    expect(refused.code).toBe(1);
    const answer = JSON.parse(refused.stdout) as { error: string; unopenable: number; operatorIds: string[] };
    expect(answer.unopenable).toBe(operatorCount);
    expect([...answer.operatorIds].sort()).toEqual([...secretByOperator.keys()].sort());
    expect(answer.error).toContain('nothing was re-sealed');
    await expectNoSecretIn(refused.stdout + refused.stderr);
    expect(await sealedSecrets()).toEqual(before);
  });

  test('when run with the previous and the new key, then it re-seals every secret in small pages and prints counts; run again, it changes nothing and says so', async () => {
    const first = await cli(['reseal-totp-secrets', '--batch-size', '2', '--json'], bothKeys);
    expect(first).toMatchObject({ code: 0 });
    expect(JSON.parse(first.stdout)).toEqual({ operators: operatorCount, resealed: operatorCount, alreadyUnderCurrentKey: 0, changed: true });
    for (const [operatorId, sealed] of await sealedSecrets()) {
      expect(open(Buffer.from(sealed, 'base64'), newKey, totpSecretBinding(operatorId))).toEqual(secretByOperator.get(operatorId));
    }
    await expectNoSecretIn(first.stdout + first.stderr);

    const afterFirst = await sealedSecrets();
    const second = await cli(['reseal-totp-secrets'], bothKeys);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Nothing to re-seal: all ${operatorCount} operator(s)' TOTP secrets open with the current BACKOFFICE_SEALING_KEY; nothing changed.`);
    expect(await sealedSecrets()).toEqual(afterFirst);

    const withoutPrevious = await cli(['reseal-totp-secrets', '--json'], { BACKOFFICE_SEALING_KEY: newKey.toString('base64'), BACKOFFICE_SEALING_KEY_PREVIOUS: '' });
    expect(withoutPrevious.code).toBe(0);
    expect(JSON.parse(withoutPrevious.stdout)).toEqual({ operators: operatorCount, resealed: 0, alreadyUnderCurrentKey: operatorCount, changed: false });
    await expectNoSecretIn(second.stdout + second.stderr + withoutPrevious.stdout + withoutPrevious.stderr);

    const runs = await database.pool.query<{ outcome: string; after: Record<string, unknown> }>(`SELECT outcome, after FROM audit_log WHERE action = 'sealing_key.reseal' ORDER BY sequence`);
    expect(runs.rows.map((row) => [row.outcome, row.after.resealed ?? null, row.after.unopenable ?? null])).toEqual([
      ['refused', null, operatorCount],
      ['done', operatorCount, null],
      ['done', 0, null],
      ['done', 0, null],
    ]);
  });
});
