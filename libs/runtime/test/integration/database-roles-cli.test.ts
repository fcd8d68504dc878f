import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrlForRole, dropDatabase, ensureDatabase } from '@pwa/db';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string } };

/**
 * `npm run operator -- provision-database-roles` (the built CLI, as an operator, the chart's hook
 * and compose run it) against a database of its own: the roles its URLs name, their passwords as
 * SCRAM verifiers, each runtime role reaching its own schema only; no password in what it prints.
 */
const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const adminUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_roles_cli_${randomBytes(6).toString('hex')}`;
  return url.toString();
})();
const suffix = randomBytes(3).toString('hex');
const roles = {
  walletRuntime: `pwa_clitest_${suffix}_wallet_rt`,
  walletOwner: `pwa_clitest_${suffix}_wallet_own`,
  quotesRuntime: `pwa_clitest_${suffix}_quotes_rt`,
  quotesOwner: `pwa_clitest_${suffix}_quotes_own`,
};
const passwords = Object.fromEntries(Object.values(roles).map((role) => [role, randomBytes(12).toString('hex')]));
const urlOf = (role: string): string => databaseUrlForRole(adminUrl, role, passwords[role]);

function runCli(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'operator.js'), 'provision-database-roles', '--json'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function query(url: string, sql: string, values: unknown[] = []): Promise<{ rows: Record<string, unknown>[] }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await ensureDatabase(adminUrl);
});

afterAll(async () => {
  await dropDatabase(adminUrl);
  for (const role of Object.values(roles)) await query(serverUrls().postgres, `DROP ROLE IF EXISTS ${role}`);
});

describe('provision-database-roles', () => {
  it('when two services are given, then their roles exist with SCRAM passwords, own and reach their own schemas only, and nothing printed holds a password', async () => {
    const result = await runCli({
      DATABASE_URL: adminUrl,
      WALLET_DATABASE_URL: urlOf(roles.walletRuntime),
      WALLET_MIGRATION_DATABASE_URL: urlOf(roles.walletOwner),
      QUOTES_DATABASE_URL: urlOf(roles.quotesRuntime),
      QUOTES_MIGRATION_DATABASE_URL: urlOf(roles.quotesOwner),
    });
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { provisioned: { service: string; owner: string; runtime: string }[] };
    expect(printed.provisioned.map(({ service, owner, runtime }) => ({ service, owner, runtime }))).toEqual([
      { service: 'wallet', owner: roles.walletOwner, runtime: roles.walletRuntime },
      { service: 'quotes', owner: roles.quotesOwner, runtime: roles.quotesRuntime },
    ]);
    for (const password of Object.values(passwords)) expect(`${result.stdout}${result.stderr}`).not.toContain(password);

    const stored = await query(adminUrl, 'SELECT rolname, rolpassword FROM pg_authid WHERE rolname = ANY($1) ORDER BY rolname', [Object.values(roles)]);
    expect(stored.rows).toHaveLength(4);
    for (const row of stored.rows) {
      expect(row.rolpassword).toMatch(/^SCRAM-SHA-256\$4096:/);
      expect(row.rolpassword).not.toContain(passwords[row.rolname as string]);
    }
    const schemas = await query(adminUrl, "SELECT nspname, pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname IN ('wallet', 'quotes') ORDER BY nspname");
    expect(schemas.rows).toEqual([
      { nspname: 'quotes', owner: roles.quotesOwner },
      { nspname: 'wallet', owner: roles.walletOwner },
    ]);
    // The wallet's owner creates a table (a migration); the wallet's runtime role uses it, the quotes' cannot.
    await query(urlOf(roles.walletOwner), 'CREATE TABLE wallet.sample (id int PRIMARY KEY)');
    await query(urlOf(roles.walletRuntime), 'INSERT INTO wallet.sample VALUES (1)');
    await expect(query(urlOf(roles.quotesRuntime), 'SELECT * FROM wallet.sample')).rejects.toMatchObject({ code: '42501' });
    await expect(query(urlOf(roles.walletRuntime), 'CREATE TABLE wallet.other (id int)')).rejects.toMatchObject({ code: '42501' });
    // Without the pools' startup parameters (a pooler that drops them), a runtime session still has
    // its service's search path and statement timeout: the role carries them in this database.
    const settings = await query(urlOf(roles.walletRuntime), "SELECT current_setting('search_path') AS path, current_setting('statement_timeout') AS timeout, (SELECT count(*) FROM sample)::int AS rows");
    expect(settings.rows).toEqual([{ path: 'wallet, public', timeout: '15s', rows: 1 }]);
    expect((await query(urlOf(roles.quotesRuntime), "SELECT current_setting('search_path') AS path")).rows).toEqual([{ path: 'quotes, public' }]);
  });

  it('when a service has only one of its two URLs, then it refuses naming the variables, creates no role and prints no value', async () => {
    const lonely = `pwa_clitest_${suffix}_lonely`;
    const result = await runCli({ DATABASE_URL: adminUrl, AUTH_DATABASE_URL: databaseUrlForRole(adminUrl, lonely, 'never-printed-secret') });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'AUTH_DATABASE_URL and AUTH_MIGRATION_DATABASE_URL must be set together' });
    expect(`${result.stdout}${result.stderr}`).not.toContain('never-printed-secret');
    expect((await query(adminUrl, 'SELECT 1 FROM pg_roles WHERE rolname = $1', [lonely])).rows).toEqual([]);
  });

  it('when no service URL is given, then it refuses with what to set', async () => {
    const result = await runCli({ DATABASE_URL: adminUrl });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'no service to provision: set <SVC>_DATABASE_URL and <SVC>_MIGRATION_DATABASE_URL' });
  });
});
