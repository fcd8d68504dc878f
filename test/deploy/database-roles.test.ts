/**
 * Least privilege in PostgreSQL (libs/db service-roles): every service's runtime role reaches its
 * own schema's rows and nothing else, and runs no DDL; its owner role migrates its own schema only.
 * Run against a database of its own on the shared server, with every service's real migrations.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client, escapeLiteral } from 'pg';
import { auditMigrationsDirectory } from '@pwa/audit';
import { busMigrationsDirectory } from '@pwa/bus';
import { databaseUrlForRole, dropDatabase, ensureDatabase, migrate, provisionServiceRoles, scramSha256Verifier, serviceRoleNames } from '@pwa/db';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../support/server-urls') as { serverUrls: () => { postgres: string } };

const repoRoot = path.resolve(__dirname, '..', '..');
const services = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'dashboard'] as const;
const serviceSchemas = services.map((service) => ({ service, schema: service }));
const rolePrefix = 'pwa_roletest';
/**
 * What a service's migration run applies (services/<name>/src/service-paths.ts): the outbox and
 * inbox migrations the bus services share, then their own; the partner dashboard its own (members,
 * invitations, factors), then the audit log's of libs/audit.
 */
const migrationDirectoriesOf = (service: string): string[] =>
  service === 'dashboard' ? [path.join(repoRoot, 'services', service, 'migrations'), auditMigrationsDirectory] : [busMigrationsDirectory, path.join(repoRoot, 'services', service, 'migrations')];

const adminUrl = (() => {
  const url = new URL(serverUrls().postgres);
  url.pathname = `/pwa_roles_${randomBytes(6).toString('hex')}`;
  return url.toString();
})();

/** A table of each service's schema: the outbox (its first migration creates it), the dashboard's members. */
const tableOf = Object.fromEntries(services.map((service) => [service, service === 'dashboard' ? 'dashboard.members' : `${service}.outbox`])) as Record<(typeof services)[number], string>;

async function asRole<T>(role: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrlForRole(adminUrl, role) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The SQLSTATE a statement fails with, or 'ok'. */
async function outcome(client: Client, sql: string): Promise<string> {
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code';
  }
}

beforeAll(async () => {
  await ensureDatabase(adminUrl);
  await provisionServiceRoles({ adminUrl, services: serviceSchemas, rolePrefix });
  for (const service of services) {
    await migrate({
      databaseUrl: databaseUrlForRole(adminUrl, serviceRoleNames(service, rolePrefix).owner),
      schema: service,
      directories: migrationDirectoriesOf(service),
    });
  }
}, 120_000);

afterAll(async () => {
  await dropDatabase(adminUrl);
});

describe('database roles per service', () => {
  it('when every service migrated as its owner role, then each schema and each of its tables belong to that role', async () => {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const owners = await admin.query<{ schema: string; owner: string; tables: string }>(
        `SELECT n.nspname AS schema, pg_get_userbyid(n.nspowner) AS owner,
                count(c.oid) FILTER (WHERE pg_get_userbyid(c.relowner) <> pg_get_userbyid(n.nspowner))::text AS tables
           FROM pg_namespace n LEFT JOIN pg_class c ON c.relnamespace = n.oid AND c.relkind IN ('r', 'p', 'S', 'v')
          WHERE n.nspname = ANY($1) GROUP BY n.nspname, n.nspowner ORDER BY n.nspname`,
        [[...services]],
      );
      expect(owners.rows).toEqual(
        [...services].sort().map((service) => ({ schema: service, owner: serviceRoleNames(service, rolePrefix).owner, tables: '0' })),
      );
    } finally {
      await admin.end();
    }
  });

  it.each(services)("when %s's runtime role connects, then it reads and writes its own tables only and runs no DDL", async (service) => {
    const { runtime } = serviceRoleNames(service, rolePrefix);
    await asRole(runtime, async (client) => {
      expect(await outcome(client, `SELECT count(*) FROM ${tableOf[service]}`)).toBe('ok');
      // DML rights on its own tables (a DELETE that matches nothing changes nothing).
      expect(await outcome(client, `DELETE FROM ${tableOf[service]} WHERE false`)).toBe('ok');
      for (const other of services.filter((candidate) => candidate !== service)) {
        expect([other, await outcome(client, `SELECT count(*) FROM ${tableOf[other]}`)]).toEqual([other, '42501']);
        expect([other, await outcome(client, `DELETE FROM ${tableOf[other]} WHERE false`)]).toEqual([other, '42501']);
        expect([other, await outcome(client, `CREATE TABLE ${other}.intruder (id int)`)]).toEqual([other, '42501']);
      }
      // No DDL, not even in its own schema, and no new schema.
      expect(await outcome(client, `CREATE TABLE ${service}.extra (id int)`)).toBe('42501');
      expect(await outcome(client, `ALTER TABLE ${tableOf[service]} ADD COLUMN extra int`)).toBe('42501');
      expect(await outcome(client, `DROP TABLE ${tableOf[service]}`)).toBe('42501');
      expect(await outcome(client, `TRUNCATE ${tableOf[service]}`)).toBe('42501');
      expect(await outcome(client, `CREATE SCHEMA ${service}_extra`)).toBe('42501');
      expect(await outcome(client, `CREATE FUNCTION ${service}.f() RETURNS int LANGUAGE sql AS 'SELECT 1'`)).toBe('42501');
    });
  });

  it.each(services)("when %s's owner role connects, then it cannot reach another service's schema", async (service) => {
    const { owner } = serviceRoleNames(service, rolePrefix);
    await asRole(owner, async (client) => {
      for (const other of services.filter((candidate) => candidate !== service)) {
        expect([other, await outcome(client, `SELECT count(*) FROM ${tableOf[other]}`)]).toEqual([other, '42501']);
        expect([other, await outcome(client, `CREATE TABLE ${other}.intruder (id int)`)]).toEqual([other, '42501']);
      }
      expect(await outcome(client, `CREATE SCHEMA ${service}_extra`)).toBe('42501');
    });
  });

  it('when a later migration creates a table, then the runtime role can use it through the default privileges, and provisioning again changes nothing', async () => {
    const { owner, runtime } = serviceRoleNames('wallet', rolePrefix);
    await asRole(owner, (client) => client.query('CREATE TABLE wallet.later_table (id bigserial PRIMARY KEY, note text)'));
    await asRole(runtime, async (client) => {
      await client.query("INSERT INTO wallet.later_table (note) VALUES ('from a later migration')");
      expect((await client.query('SELECT note FROM wallet.later_table')).rows).toEqual([{ note: 'from a later migration' }]);
    });
    const again = await provisionServiceRoles({ adminUrl, services: serviceSchemas, rolePrefix });
    expect(again.map((provisioned) => provisioned.adopted)).toEqual(services.map(() => 0));
    await asRole(owner, (client) => client.query('DROP TABLE wallet.later_table'));
  });

  it('when a schema was migrated before the roles existed (one shared login), then provisioning adopts it and its runtime role works', async () => {
    const legacyUrl = (() => {
      const url = new URL(adminUrl);
      url.pathname = `${url.pathname}_legacy`;
      return url.toString();
    })();
    await ensureDatabase(legacyUrl);
    try {
      await migrate({ databaseUrl: legacyUrl, schema: 'quotes', directories: migrationDirectoriesOf('quotes') });
      const [provisioned] = await provisionServiceRoles({ adminUrl: legacyUrl, services: [{ service: 'quotes', schema: 'quotes' }], rolePrefix });
      expect(provisioned?.adopted).toBeGreaterThan(0);
      const runtime = new Client({ connectionString: databaseUrlForRole(legacyUrl, serviceRoleNames('quotes', rolePrefix).runtime) });
      await runtime.connect();
      try {
        expect(await outcome(runtime, 'SELECT count(*) FROM quotes.outbox')).toBe('ok');
        expect(await outcome(runtime, 'DROP TABLE quotes.outbox')).toBe('42501');
      } finally {
        await runtime.end();
      }
      // The owner migrates on from there: nothing left to apply, no error.
      const applied = await migrate({
        databaseUrl: databaseUrlForRole(legacyUrl, serviceRoleNames('quotes', rolePrefix).owner),
        schema: 'quotes',
        directories: migrationDirectoriesOf('quotes'),
      });
      expect(applied).toEqual([]);
    } finally {
      await dropDatabase(legacyUrl);
    }
  });

  it('when a password is given, then the server stores a SCRAM verifier that PostgreSQL itself would compute, never the password', async () => {
    const { runtime } = serviceRoleNames('webhooks', rolePrefix);
    const password = randomBytes(12).toString('hex');
    await provisionServiceRoles({ adminUrl, services: [{ service: 'webhooks', schema: 'webhooks' }], rolePrefix, passwords: { [runtime]: password } });
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    const probeRole = `${rolePrefix}_scram_probe_${randomBytes(4).toString('hex')}`;
    try {
      const stored = await admin.query<{ rolpassword: string }>('SELECT rolpassword FROM pg_authid WHERE rolname = $1', [runtime]);
      const verifier = stored.rows[0]?.rolpassword ?? '';
      expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
      expect(verifier).not.toContain(password);
      // PostgreSQL hashes a clear-text password itself; with its salt and iteration count our
      // function must give the very same verifier.
      await admin.query("SET password_encryption = 'scram-sha-256'");
      await admin.query(`CREATE ROLE ${probeRole} PASSWORD ${escapeLiteral(password)}`);
      const serverMade = (await admin.query<{ rolpassword: string }>('SELECT rolpassword FROM pg_authid WHERE rolname = $1', [probeRole])).rows[0]?.rolpassword ?? '';
      const [, iterations = '', salt = ''] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(serverMade) ?? [];
      expect(scramSha256Verifier(password, { salt: Buffer.from(salt, 'base64'), iterations: Number(iterations) })).toBe(serverMade);
      expect(scramSha256Verifier(`${password}x`, { salt: Buffer.from(salt, 'base64'), iterations: Number(iterations) })).not.toBe(serverMade);
    } finally {
      await admin.query(`DROP ROLE IF EXISTS ${probeRole}`);
      await admin.end();
    }
  });
});
