import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { databaseUrlForRole } from '@pwa/db';
import type { HttpsJsonClient } from '../support/https-client';
import { startPrivatePostgresServer, type PrivatePostgresServer } from '../support/private-postgres';
import { repoRoot, startStack, type ExtraServiceProcess, type GatewayProcess, type Stack } from '../support/stack';
import { startTokenTraffic, type TokenTraffic } from '../support/token-traffic';

/**
 * A service's database password rotated with two runtime roles in turn (docs/operations.md,
 * "Rotate a service's database password"): a second runtime role with the same rights is
 * provisioned, replicas on it join while those on the first drain, then the first role's password
 * changes; the next rotation goes back the other way. Auth is the service (every token request
 * reads its database), with token requests to every replica in service ten times a second: none
 * is refused, and the old password stops opening sessions once it changed.
 */
const runFile = promisify(execFile);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('database password rotation with two roles in turn', () => {
  let postgres: PrivatePostgresServer | undefined;
  let stack: Stack;
  const secretsDirectory = mkdtempSync(path.join(os.tmpdir(), 'pwa-rotation-'));

  // A server of its own that checks passwords (the shared one trusts every local connection, and
  // its roles are shared by every stack): the roles, their passwords and the rotation stay here.
  beforeAll(async () => {
    postgres = await startPrivatePostgresServer({ passwordAuthentication: true });
    stack = await startStack({ logLevel: 'warn', servers: { postgres: postgres.url }, databaseRolePasswordsFile: path.join(secretsDirectory, 'secrets.json') });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await postgres?.dispose();
    rmSync(secretsDirectory, { recursive: true, force: true });
  }, 60_000);

  /** `npm run operator -- provision-database-roles` for auth with these two URLs, as the runbook runs it. */
  async function provisionAuthRoles(runtimeUrl: string, ownerUrl: string): Promise<void> {
    const { stdout } = await runFile(process.execPath, [path.join(repoRoot, 'scripts', 'operator.js'), 'provision-database-roles', '--json'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: stack.databaseUrl, AUTH_DATABASE_URL: runtimeUrl, AUTH_MIGRATION_DATABASE_URL: ownerUrl },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ provisioned: [{ service: 'auth', runtime: new URL(runtimeUrl).username }] });
  }

  /** The auth service's sessions (its pools' application_name; the stack's operator CLI holds its own) by role. */
  /**
   * A rolling update of auth onto a runtime role's URL: a replica on it and its gateway join the one
   * in service (`before`), which then leaves service and drains (`retire`).
   */
  async function rollAuthOnto(
    traffic: TokenTraffic,
    databaseUrl: string,
    phases: { before: HttpsJsonClient; both: string; after: string },
    retire: () => Promise<void>,
  ): Promise<{ auth: ExtraServiceProcess; gateway: GatewayProcess }> {
    const auth = await stack.startExtraService('auth', { DATABASE_URL: databaseUrl });
    const gateway = await stack.startExtraGateway({ AUTH_URL: auth.url });
    traffic.serve(phases.both, [phases.before, gateway.client]);
    await pause(3_000);
    traffic.serve(phases.after, [gateway.client]);
    await pause(300);
    await retire();
    return { auth, gateway };
  }

  async function sessionsByRole(): Promise<Record<string, number>> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const rows = await client.query<{ role: string; sessions: number }>('SELECT usename AS role, count(*)::int AS sessions FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 GROUP BY usename', ['auth']);
      return Object.fromEntries(rows.rows.map((row) => [row.role, row.sessions]));
    } finally {
      await client.end();
    }
  }

  async function opensSession(url: string): Promise<true | string> {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      return true;
    } catch (error) {
      return String((error as { code?: string }).code);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  test('when auth moves to a second runtime role in a rolling update and the first role’s password changes, then no token request is refused and the old password opens nothing', async () => {
    const onboarded = await stack.operator(['onboard', '--name', `Rotation partner ${randomUUID().slice(0, 8)}`, '--permissions', 'collection', '--rate-limit', '100000']);
    const partner = { client_id: String(onboarded.clientId), client_secret: String(onboarded.clientSecret) };
    const first = stack.serviceDatabaseUrls.auth.runtime;
    const owner = stack.serviceDatabaseUrls.auth.owner;
    const firstRole = new URL(first).username;
    const secondRole = `${firstRole}_b`;
    const second = databaseUrlForRole(first, secondRole, randomBytes(12).toString('hex'));
    const phaseMs = 3_000;

    const traffic = startTokenTraffic(partner, '1 replicas on the first role', [stack.client]);
    await pause(phaseMs);

    // 1. The second runtime role, with the same rights as the first, and a password of its own.
    await provisionAuthRoles(second, owner);
    // 2. The rolling update: a replica on the second role joins, the one on the first drains and stops.
    const onSecond = await rollAuthOnto(traffic, second, { before: stack.client, both: '2 replicas on both roles', after: '3 replicas on the second role' }, () => stack.stopService('auth'));
    await pause(phaseMs);
    const duringSecond = await sessionsByRole();
    expect([duringSecond[secondRole] !== undefined && duringSecond[secondRole] > 0, duringSecond[firstRole] ?? 0]).toEqual([true, 0]);

    // 3. The first role's password changes: its old password opens nothing, while traffic carries on.
    const firstRenewed = databaseUrlForRole(first, firstRole, randomBytes(12).toString('hex'));
    await provisionAuthRoles(firstRenewed, owner);
    traffic.serve('4 the first role’s password changed', [onSecond.gateway.client]);
    await pause(phaseMs);
    expect(await opensSession(first)).toBe('28P01');
    expect(await opensSession(firstRenewed)).toBe(true);

    // 4. The next rotation goes back: replicas on the first role (its new password) join, the second's drain.
    const onFirst = await rollAuthOnto(traffic, firstRenewed, { before: onSecond.gateway.client, both: '5 replicas on both roles again', after: '6 replicas on the renewed first role' }, async () => {
      await onSecond.gateway.stop();
      await onSecond.auth.stop();
    });
    await pause(phaseMs);
    const { issued, refused } = await traffic.stop();

    expect(refused).toEqual([]);
    expect([...issued.keys()].sort()).toEqual([
      '1 replicas on the first role',
      '2 replicas on both roles',
      '3 replicas on the second role',
      '4 the first role’s password changed',
      '5 replicas on both roles again',
      '6 replicas on the renewed first role',
    ]);
    const afterwards = await sessionsByRole();
    expect([afterwards[firstRole] !== undefined && afterwards[firstRole] > 0, afterwards[secondRole] ?? 0]).toEqual([true, 0]);
    await onFirst.gateway.stop();
    await onFirst.auth.stop();
  }, 180_000);
});
