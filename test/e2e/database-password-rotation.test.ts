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
import { repoRoot, startStack, type Stack } from '../support/stack';

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

    // Token requests to every replica in service, ten a second, the whole time.
    let targets: HttpsJsonClient[] = [stack.client];
    const refused: string[] = [];
    const issued = new Map<string, number>();
    let phase = '1 replicas on the first role';
    let sending = true;
    const traffic = (async () => {
      const deadline = Date.now() + 120_000;
      while (sending && Date.now() < deadline) {
        const answers = await Promise.all(targets.map((client) => client.post('/partner/auth/token', partner)));
        for (const answer of answers) {
          if (answer.status === 200) issued.set(phase, (issued.get(phase) ?? 0) + 1);
          else refused.push(`${phase}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
        await pause(100);
      }
    })();
    await pause(phaseMs);

    // 1. The second runtime role, with the same rights as the first, and a password of its own.
    await provisionAuthRoles(second, owner);
    // 2. The rolling update: a replica on the second role joins, the one on the first drains and stops.
    const onSecond = await stack.startExtraService('auth', { DATABASE_URL: second });
    const onSecondGateway = await stack.startExtraGateway({ AUTH_URL: onSecond.url });
    phase = '2 replicas on both roles';
    targets = [stack.client, onSecondGateway.client];
    await pause(phaseMs);
    phase = '3 replicas on the second role';
    targets = [onSecondGateway.client];
    await pause(300);
    await stack.stopService('auth');
    await pause(phaseMs);
    const duringSecond = await sessionsByRole();
    expect([duringSecond[secondRole] !== undefined && duringSecond[secondRole] > 0, duringSecond[firstRole] ?? 0]).toEqual([true, 0]);

    // 3. The first role's password changes: its old password opens nothing, while traffic carries on.
    const firstRenewed = databaseUrlForRole(first, firstRole, randomBytes(12).toString('hex'));
    await provisionAuthRoles(firstRenewed, owner);
    phase = '4 the first role’s password changed';
    await pause(phaseMs);
    expect(await opensSession(first)).toBe('28P01');
    expect(await opensSession(firstRenewed)).toBe(true);

    // 4. The next rotation goes back: replicas on the first role (its new password) join, the second's drain.
    const onFirst = await stack.startExtraService('auth', { DATABASE_URL: firstRenewed });
    const onFirstGateway = await stack.startExtraGateway({ AUTH_URL: onFirst.url });
    phase = '5 replicas on both roles again';
    targets = [onSecondGateway.client, onFirstGateway.client];
    await pause(phaseMs);
    phase = '6 replicas on the renewed first role';
    targets = [onFirstGateway.client];
    await pause(300);
    await onSecondGateway.stop();
    await onSecond.stop();
    await pause(phaseMs);
    sending = false;
    await traffic;

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
    await onFirstGateway.stop();
    await onFirst.stop();
  }, 180_000);
});
