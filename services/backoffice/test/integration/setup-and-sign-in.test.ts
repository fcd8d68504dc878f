import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Secret } from 'otpauth';
import { open, seal } from '@pwa/sealing';
import { defaultSessionTimeouts, defaultSignInThrottlePolicy, readSession, totpCodeAt, type SecretSealer } from '@pwa/web-auth';
import { verifyAuditChain } from '@pwa/audit';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import { bootstrapFirstAdmin } from '../../src/use-cases/bootstrap-first-admin';
import { beginOperatorSetup, completeOperatorSetup } from '../../src/use-cases/operator-setup';
import { completeSignInWithTotp, signInWithPassword } from '../../src/use-cases/operator-sign-in';
import type { PeopleDependencies, RequestOrigin } from '../../src/use-cases/people-dependencies';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/**
 * The first admin from bootstrap to a signed-in session, through the use cases the HTTP API will
 * call, against the real Postgres and Redis; the TOTP clock is fixed so codes are computed here.
 */
let database: TestDatabase;
let redis: Redis;
let deps: PeopleDependencies;
let nowMs = Date.parse('2026-11-28T12:00:00Z');
const keyPrefix = `pwa-test:backoffice-sign-in:${randomBytes(6).toString('hex')}:`;
const sealingKey = randomBytes(32);
const sealer: SecretSealer = {
  seal: (plaintext, associatedData) => seal(plaintext, sealingKey, associatedData).toString('base64'),
  open: (sealed, associatedData) => open(Buffer.from(sealed, 'base64'), sealingKey, associatedData),
};
const origin: RequestOrigin = { address: '10.0.0.7', userAgent: 'jest', requestId: 'req-1' };
const password = 'correct horse battery staple 42';

beforeAll(async () => {
  database = await openTestDatabase({ label: 'backoffice_sign_in', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories });
  redis = new Redis(serverUrls().redis);
  deps = {
    pool: database.pool,
    redis,
    sessions: { keyPrefix, ...defaultSessionTimeouts },
    throttle: { keyPrefix, policy: defaultSignInThrottlePolicy },
    sealer,
    totpIssuer: 'Partner Wallet Back-office (test)',
    now: () => nowMs,
  };
});

afterAll(async () => {
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await database?.drop();
});

const tokenOf = (setupLink: string): string => new URL(setupLink).hash.replace(/^#token=/, '');
const codeFor = (secretBase32: string, atMs: number): string => totpCodeAt(Secret.fromBase32(secretBase32).bytes, atMs);

describe('set-up and sign-in of an operator', () => {
  let admin: { operatorId: string; secretBase32: string };

  test('when the first admin completes set-up, then the link is spent, weak passwords and wrong codes were refused first, and the audit chain holds the activation', async () => {
    const bootstrap = await bootstrapFirstAdmin(database.pool, { email: 'first.admin@operator.example', displayName: 'First Admin', consoleBaseUrl: 'https://backoffice.internal.example' });
    if (bootstrap.kind === 'refused') throw new Error('refused');
    const token = tokenOf(bootstrap.setupLink);
    const begun = await beginOperatorSetup(deps, token);
    if (begun.kind !== 'enrol') throw new Error('setup refused');
    expect(begun.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(begun.sealedSecret).not.toContain(begun.secretBase32);
    const code = codeFor(begun.secretBase32, nowMs);
    expect(await completeOperatorSetup(deps, { token, password: 'short', sealedSecret: begun.sealedSecret, code }, origin)).toEqual({ kind: 'refused', reason: 'password-policy', failedRule: 'too_short' });
    expect(await completeOperatorSetup(deps, { token, password: 'first.admin@operator.example', sealedSecret: begun.sealedSecret, code }, origin)).toMatchObject({ reason: 'password-policy' });
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(await completeOperatorSetup(deps, { token, password, sealedSecret: begun.sealedSecret, code: wrongCode }, origin)).toEqual({ kind: 'refused', reason: 'wrong-code' });
    expect(await completeOperatorSetup(deps, { token, password, sealedSecret: sealer.seal(randomBytes(20), 'backoffice:operator:someone-else:totp') as string, code }, origin)).toEqual({ kind: 'refused', reason: 'enrolment-not-for-this-link' });

    const [first, second] = await Promise.all([
      completeOperatorSetup(deps, { token, password, sealedSecret: begun.sealedSecret, code }, origin),
      completeOperatorSetup(deps, { token, password, sealedSecret: begun.sealedSecret, code }, origin),
    ]);
    expect([first.kind, second.kind].sort()).toEqual(['activated', 'refused']);
    expect(await beginOperatorSetup(deps, token)).toEqual({ kind: 'refused', reason: 'link-unusable' });
    admin = { operatorId: bootstrap.operatorId, secretBase32: begun.secretBase32 };
    // The bootstrap's invitation and the activation.
    expect(await verifyAuditChain(database.pool)).toMatchObject({ ok: true, entries: 2 });
  });

  test('when the admin signs in with the password and then the code, then the signed-in session has a new id and the pending one is gone', async () => {
    nowMs += 60_000;
    const passwordStep = await signInWithPassword(deps, { email: ' First.Admin@operator.example', password }, origin);
    if (passwordStep.kind !== 'mfa-required') throw new Error(`refused: ${passwordStep.reason}`);
    expect((await readSession(redis, deps.sessions, passwordStep.sessionId, 'signed_in')).found).toBe(false);
    const totpStep = await completeSignInWithTotp(deps, { sessionId: passwordStep.sessionId, code: codeFor(admin.secretBase32, nowMs) }, origin);
    expect(totpStep).toMatchObject({ kind: 'signed-in', operatorId: admin.operatorId });
    if (totpStep.kind !== 'signed-in') throw new Error('refused');
    expect(totpStep.sessionId).not.toBe(passwordStep.sessionId);
    expect((await readSession(redis, deps.sessions, passwordStep.sessionId, 'mfa_pending')).found).toBe(false);
    expect(await readSession(redis, deps.sessions, totpStep.sessionId, 'signed_in')).toMatchObject({ found: true, session: { subjectId: admin.operatorId, stage: 'signed_in' } });
  });

  test('when a code is used again, even from a second pending sign-in, then it is refused', async () => {
    nowMs += 60_000;
    const code = codeFor(admin.secretBase32, nowMs);
    const [one, two] = await Promise.all([signInWithPassword(deps, { email: 'first.admin@operator.example', password }, origin), signInWithPassword(deps, { email: 'first.admin@operator.example', password }, origin)]);
    if (one.kind !== 'mfa-required' || two.kind !== 'mfa-required') throw new Error('refused');
    const outcomes = await Promise.all([completeSignInWithTotp(deps, { sessionId: one.sessionId, code }, origin), completeSignInWithTotp(deps, { sessionId: two.sessionId, code }, origin)]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['refused', 'signed-in']);
  });

  test('when the address is unknown or the password wrong, then both answers are the same, and after five failures the account is locked even for the right password', async () => {
    const unknown = await signInWithPassword(deps, { email: 'nobody@operator.example', password }, { ...origin, address: '10.0.0.8' });
    const wrong = await signInWithPassword(deps, { email: 'first.admin@operator.example', password: 'not the password at all' }, { ...origin, address: '10.0.0.9' });
    expect(unknown).toEqual({ kind: 'refused', reason: 'wrong-credentials' });
    expect(wrong).toEqual(unknown);
    for (let attempt = 0; attempt < defaultSignInThrottlePolicy.accountFailuresMax; attempt += 1) {
      await signInWithPassword(deps, { email: 'first.admin@operator.example', password: `wrong ${attempt} password here` }, { ...origin, address: `10.0.1.${attempt}` });
    }
    expect(await signInWithPassword(deps, { email: 'first.admin@operator.example', password }, { ...origin, address: '10.0.2.1' })).toMatchObject({ kind: 'refused', reason: 'throttled' });
  });

  test('when the audit log is read, then every step and refusal is there, verified, and no password, code or session id is in it', async () => {
    const entries = await database.pool.query<{ action: string; outcome: string; dump: string }>(`SELECT action, outcome, row_to_json(a)::text AS dump FROM audit_log a ORDER BY sequence`);
    expect(entries.rows.map((row) => `${row.action}:${row.outcome}`)).toEqual(
      expect.arrayContaining(['operator.setup.complete:done', 'operator.sign_in.password:done', 'operator.sign_in.totp:done', 'operator.sign_in.totp:refused', 'operator.sign_in.password:refused']),
    );
    const everything = entries.rows.map((row) => row.dump).join('\n');
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(admin.secretBase32);
    expect(await verifyAuditChain(database.pool)).toMatchObject({ ok: true });
  });
});
