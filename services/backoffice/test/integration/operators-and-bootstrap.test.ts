import { randomUUID } from 'node:crypto';
import { createPool, type Pool } from '@pwa/db';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { setupTokenDigest } from '@pwa/web-auth';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import { acceptTotpStep, activateInvitedOperator, consumeSetupLink, findOperatorByEmail, insertOperator, signInCredentialsOf, totpFactorOf } from '../../src/store/operator-store';
import { bootstrapFirstAdmin } from '../../src/use-cases/bootstrap-first-admin';

/** Operators and the first admin's bootstrap against the real Postgres, a fresh database per test. */
let database: TestDatabase;
let concurrent: Pool;
const consoleBaseUrl = 'https://backoffice.internal.example:8443';

beforeEach(async () => {
  database = await openTestDatabase({ label: 'backoffice_operators', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories });
  concurrent = createPool({ connectionString: database.databaseUrl, applicationName: 'backoffice-bootstrap-races', schema: backofficeSchema, maxConnections: 8 });
});

afterEach(async () => {
  await concurrent.end();
  await database.drop();
});

const tokenOf = (setupLink: string): string => new URL(setupLink).hash.replace(/^#token=/, '');

describe('bootstrap of the first admin', () => {
  test('when the back-office has no operator, then bootstrap creates an invited admin and a one-time link whose token is stored only as its digest', async () => {
    const outcome = await bootstrapFirstAdmin(database.pool, { email: '  Musu.Kollie@Operator.example ', displayName: 'Musu Kollie', consoleBaseUrl });
    expect(outcome).toMatchObject({ kind: 'created', email: 'musu.kollie@operator.example' });
    if (outcome.kind === 'refused') throw new Error('refused');
    expect(outcome.setupLink).toMatch(/^https:\/\/backoffice\.internal\.example:8443\/setup#token=[A-Za-z0-9_-]{43}$/);
    expect(await findOperatorByEmail(database.pool, 'musu.kollie@operator.example')).toMatchObject({ roles: ['admin'], status: 'invited', createdBy: null });
    const token = tokenOf(outcome.setupLink);
    const stored = await database.pool.query<{ dump: string }>(`SELECT row_to_json(l)::text AS dump FROM operator_setup_links l`);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.dump).not.toContain(token);
    const passwordColumns = await database.pool.query<{ password_hash: string | null }>(`SELECT password_hash FROM operators`);
    expect(passwordColumns.rows).toEqual([{ password_hash: null }]);
  });

  test('when the link is opened five times at once, then it works exactly once and never again', async () => {
    const outcome = await bootstrapFirstAdmin(database.pool, { email: 'admin@operator.example', displayName: 'First Admin', consoleBaseUrl });
    if (outcome.kind === 'refused') throw new Error('refused');
    const digest = setupTokenDigest(tokenOf(outcome.setupLink));
    const uses = await Promise.all(Array.from({ length: 5 }, () => consumeSetupLink(concurrent, digest)));
    expect(uses.filter((operatorId) => operatorId !== undefined)).toEqual([outcome.operatorId]);
    expect(await consumeSetupLink(database.pool, digest)).toBeUndefined();
    expect(await consumeSetupLink(database.pool, setupTokenDigest('not-a-token'))).toBeUndefined();
  });

  test('when bootstrap runs again before the link was used, then the same admin gets a new link and the old one stops working', async () => {
    const first = await bootstrapFirstAdmin(database.pool, { email: 'admin@operator.example', displayName: 'First Admin', consoleBaseUrl });
    const second = await bootstrapFirstAdmin(database.pool, { email: 'ADMIN@operator.example', displayName: 'First Admin', consoleBaseUrl });
    if (first.kind === 'refused' || second.kind === 'refused') throw new Error('refused');
    expect(second).toMatchObject({ kind: 'link-renewed', operatorId: first.operatorId });
    expect(await consumeSetupLink(database.pool, setupTokenDigest(tokenOf(first.setupLink)))).toBeUndefined();
    expect(await consumeSetupLink(database.pool, setupTokenDigest(tokenOf(second.setupLink)))).toBe(first.operatorId);
  });

  test('when an admin can sign in already, or another admin was invited, then bootstrap is refused and creates nothing', async () => {
    const first = await bootstrapFirstAdmin(database.pool, { email: 'admin@operator.example', displayName: 'First Admin', consoleBaseUrl });
    expect(await bootstrapFirstAdmin(database.pool, { email: 'someone.else@operator.example', displayName: 'Other', consoleBaseUrl })).toEqual({ kind: 'refused', reason: 'another-admin-invited' });
    if (first.kind === 'refused') throw new Error('refused');
    await database.pool.query(`UPDATE operators SET status = 'active', password_hash = '$argon2id$placeholder-for-the-test' WHERE id = $1`, [first.operatorId]);
    expect(await bootstrapFirstAdmin(database.pool, { email: 'admin@operator.example', displayName: 'First Admin', consoleBaseUrl })).toEqual({ kind: 'refused', reason: 'an-admin-exists' });
    expect((await database.pool.query(`SELECT count(*)::int AS count FROM operators`)).rows).toEqual([{ count: 1 }]);
  });

  test('when two bootstraps with different addresses run at once, then exactly one admin is created', async () => {
    const outcomes = await Promise.all([
      bootstrapFirstAdmin(concurrent, { email: 'one@operator.example', displayName: 'One', consoleBaseUrl }),
      bootstrapFirstAdmin(concurrent, { email: 'two@operator.example', displayName: 'Two', consoleBaseUrl }),
    ]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['created', 'refused']);
    expect((await database.pool.query(`SELECT count(*)::int AS count FROM operators`)).rows).toEqual([{ count: 1 }]);
  });

  test('when the address is not an e-mail address, then bootstrap is refused', async () => {
    for (const email of ['', 'admin', 'admin@', '@operator.example', 'a b@operator.example']) {
      expect(await bootstrapFirstAdmin(database.pool, { email, displayName: 'X', consoleBaseUrl })).toEqual({ kind: 'refused', reason: 'not-an-email' });
    }
  });
});

describe('operators table', () => {
  test('when a row breaks a rule (unknown role, no role, upper-case address, active without a password), then the database refuses it', async () => {
    const base = { operatorId: randomUUID(), email: 'x@operator.example', displayName: 'X', createdBy: null };
    await expect(insertOperator(database.pool, { ...base, roles: ['root' as never] })).rejects.toThrow(/check constraint/);
    await expect(insertOperator(database.pool, { ...base, roles: [] })).rejects.toThrow(/check constraint/);
    await expect(insertOperator(database.pool, { ...base, email: 'X@operator.example', roles: ['viewer'] })).rejects.toThrow(/check constraint/);
    const created = await insertOperator(database.pool, { ...base, roles: ['viewer'] });
    await expect(database.pool.query(`UPDATE operators SET status = 'active' WHERE id = $1`, [created.operatorId])).rejects.toThrow(/check constraint/);
    await expect(insertOperator(database.pool, { ...base, operatorId: randomUUID(), roles: ['maker'] })).rejects.toThrow(/unique/);
  });

  test('when an invited operator is activated, then sign-in credentials exist only from then on, and activating twice does nothing', async () => {
    const invited = await insertOperator(database.pool, { operatorId: randomUUID(), email: 'kebeh@operator.example', displayName: 'Kebeh', roles: ['maker'], createdBy: null });
    expect(await signInCredentialsOf(database.pool, 'kebeh@operator.example')).toBeUndefined();
    const setup = { operatorId: invited.operatorId, passwordHash: '$argon2id$v=19$m=47104,t=2,p=1$c2FsdA$aGFzaA', sealedTotpSecret: 'sealed-secret-1' };
    expect(await activateInvitedOperator(database.pool, setup)).toBe(true);
    expect(await activateInvitedOperator(database.pool, { ...setup, sealedTotpSecret: 'sealed-secret-2' })).toBe(false);
    expect(await signInCredentialsOf(database.pool, 'kebeh@operator.example')).toMatchObject({ operator: { status: 'active', roles: ['maker'] }, passwordHash: setup.passwordHash });
    expect(await totpFactorOf(database.pool, invited.operatorId)).toEqual({ sealedSecret: 'sealed-secret-1', lastAcceptedStep: null });
  });

  test('when the same TOTP step is accepted by five sign-ins at once, then exactly one passes, and an earlier step never passes again', async () => {
    const invited = await insertOperator(database.pool, { operatorId: randomUUID(), email: 'totp@operator.example', displayName: 'T', roles: ['viewer'], createdBy: null });
    await activateInvitedOperator(database.pool, { operatorId: invited.operatorId, passwordHash: '$argon2id$placeholder', sealedTotpSecret: 'sealed' });
    const step = 59_000_000;
    const accepted = await Promise.all(Array.from({ length: 5 }, () => acceptTotpStep(concurrent, invited.operatorId, step)));
    expect(accepted.filter(Boolean)).toHaveLength(1);
    expect(await acceptTotpStep(database.pool, invited.operatorId, step - 1)).toBe(false);
    expect(await acceptTotpStep(database.pool, invited.operatorId, step + 1)).toBe(true);
    expect((await totpFactorOf(database.pool, invited.operatorId))?.lastAcceptedStep).toBe(step + 1);
  });
});
