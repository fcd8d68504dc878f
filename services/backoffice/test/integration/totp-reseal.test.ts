import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Secret } from 'otpauth';
import { open, seal } from '@pwa/sealing';
import { defaultSessionTimeouts, defaultSignInThrottlePolicy, totpCodeAt, type SecretSealer } from '@pwa/web-auth';
import { searchAuditEntries, verifyAuditChain } from '@pwa/audit';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { backofficeMigrationDirectories, backofficeSchema } from '../../src/service-paths';
import { bootstrapFirstAdmin } from '../../src/use-cases/bootstrap-first-admin';
import { beginOperatorSetup, completeOperatorSetup } from '../../src/use-cases/operator-setup';
import { completeSignInWithTotp, signInWithPassword } from '../../src/use-cases/operator-sign-in';
import { totpSecretBinding, type PeopleDependencies, type RequestOrigin } from '../../src/use-cases/people-dependencies';
import { resealTotpSecrets, UnopenableTotpSecretsError } from '../../src/cli/totp-secret-resealing';
import { readBackofficeConfig, totpSealingKeysOf } from '../../src/config';
import { peopleDependenciesOf } from '../../src/wiring/people-dependencies';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/**
 * Rotation of BACKOFFICE_SEALING_KEY against the real Postgres and Redis: an admin enrolled through
 * set-up under the old key, and more operators' factors sealed under it, are re-sealed to the new
 * key; the admin then signs in with a sealer that holds the new key alone.
 */
let database: TestDatabase;
let redis: Redis;
let nowMs = Date.parse('2026-11-28T12:00:00Z');
const keyPrefix = `pwa-test:backoffice-totp-reseal:${randomBytes(6).toString('hex')}:`;
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
/** The key of a further rotation, after newKey. */
const newestKey = randomBytes(32);
const origin: RequestOrigin = { address: '10.0.0.7', userAgent: 'jest', requestId: 'req-reseal' };
const password = 'correct horse battery staple 42';
/** Operators besides the admin, so a page size of 3 reads several pages. */
const otherOperatorCount = 7;

const sealerWith = (key: Buffer): SecretSealer => ({
  seal: (plaintext, associatedData) => seal(plaintext, key, associatedData).toString('base64'),
  open: (sealed, associatedData) => open(Buffer.from(sealed, 'base64'), key, associatedData),
});
const dependenciesWith = (key: Buffer): PeopleDependencies => ({
  pool: database.pool,
  redis,
  sessions: { keyPrefix, ...defaultSessionTimeouts },
  throttle: { keyPrefix, policy: defaultSignInThrottlePolicy },
  sealer: sealerWith(key),
  totpIssuer: 'Partner Wallet Back-office (test)',
  now: () => nowMs,
});
const codeFor = (secretBase32: string, atMs: number): string => totpCodeAt(Secret.fromBase32(secretBase32).bytes, atMs);

let admin: { operatorId: string; secretBase32: string };
/** Each operator's secret in clear, to check that re-sealing never changes one. */
const plaintextByOperator = new Map<string, Buffer>();

async function sealedSecrets(): Promise<Map<string, string>> {
  const result = await database.pool.query<{ operator_id: string; sealed_secret: string }>('SELECT operator_id, sealed_secret FROM operator_totp_factors');
  return new Map(result.rows.map((row) => [row.operator_id, row.sealed_secret]));
}

beforeAll(async () => {
  database = await openTestDatabase({ label: 'backoffice_totp_reseal', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories });
  redis = new Redis(serverUrls().redis);
  const oldDeps = dependenciesWith(oldKey);
  const bootstrap = await bootstrapFirstAdmin(database.pool, { email: 'first.admin@operator.example', displayName: 'First Admin', consoleBaseUrl: 'https://backoffice.internal.example' });
  if (bootstrap.kind === 'refused') throw new Error(`bootstrap refused: ${bootstrap.reason}`);
  const token = new URL(bootstrap.setupLink).hash.replace(/^#token=/, '');
  const begun = await beginOperatorSetup(oldDeps, token);
  if (begun.kind !== 'enrol') throw new Error('set-up refused');
  const completed = await completeOperatorSetup(oldDeps, { token, password, sealedSecret: begun.sealedSecret, code: codeFor(begun.secretBase32, nowMs) }, origin);
  if (completed.kind !== 'activated') throw new Error('set-up not completed');
  admin = { operatorId: bootstrap.operatorId, secretBase32: begun.secretBase32 };
  plaintextByOperator.set(admin.operatorId, Buffer.from(Secret.fromBase32(begun.secretBase32).bytes));
  for (let index = 0; index < otherOperatorCount; index += 1) {
    const operatorId = randomUUID();
    const secret = randomBytes(20);
    await database.pool.query(`INSERT INTO operators (id, email, display_name, roles) VALUES ($1, $2, $3, ARRAY['viewer'])`, [operatorId, `viewer.${index}@operator.example`, `Viewer ${index}`]);
    await database.pool.query('INSERT INTO operator_totp_factors (operator_id, sealed_secret) VALUES ($1, $2)', [operatorId, seal(secret, oldKey, totpSecretBinding(operatorId)).toString('base64')]);
    plaintextByOperator.set(operatorId, secret);
  }
});

afterAll(async () => {
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await database?.drop();
});

async function signInWithCode(deps: PeopleDependencies): Promise<{ kind: string }> {
  const passwordStep = await signInWithPassword(deps, { email: 'first.admin@operator.example', password }, origin);
  if (passwordStep.kind !== 'mfa-required') throw new Error(`password step refused: ${passwordStep.reason}`);
  return completeSignInWithTotp(deps, { sessionId: passwordStep.sessionId, code: codeFor(admin.secretBase32, nowMs) }, origin);
}

async function resealEntries(): Promise<{ outcome: string; after: unknown; reason: string | null; actor: unknown }[]> {
  const page = await searchAuditEntries(database.pool, { actionPrefix: 'sealing_key.reseal' });
  return page.entries.map((entry) => ({ outcome: entry.outcome, after: entry.after, reason: entry.reason, actor: entry.actor }));
}

describe('re-sealing operators’ TOTP secrets under a new sealing key', () => {
  test('when the previous key given is not the one the secrets were sealed with, then the run is refused naming operators, not secrets, and nothing changes', async () => {
    const before = await sealedSecrets();
    const wrongKey = randomBytes(32);
    const refusal = await resealTotpSecrets(database.pool, { current: newKey, previous: wrongKey }, 3).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UnopenableTotpSecretsError);
    const error = refusal as UnopenableTotpSecretsError;
    expect(error.unopenableCount).toBe(otherOperatorCount + 1);
    expect([...error.operatorIds].sort()).toEqual([...before.keys()].sort());
    expect(error.message).toContain(admin.operatorId);
    for (const [operatorId, sealed] of before) {
      expect(error.message).not.toContain(sealed);
      expect(error.message).not.toContain(plaintextByOperator.get(operatorId)?.toString('base64'));
    }
    expect(error.message).not.toContain(admin.secretBase32);
    expect(await sealedSecrets()).toEqual(before);
    expect(await resealEntries()).toEqual([
      { outcome: 'refused', actor: { kind: 'system', id: 'totp-reseal', displayName: expect.any(String) }, reason: expect.stringContaining('neither'), after: { unopenable: otherOperatorCount + 1, unopenableOperatorIds: expect.any(Array) } },
    ]);
  });

  test('when the previous key is the old one, then every secret is re-sealed under the new key in pages, unchanged in clear, and the run is audited with its counts', async () => {
    const before = await sealedSecrets();
    const outcome = await resealTotpSecrets(database.pool, { current: newKey, previous: oldKey }, 3);
    expect(outcome).toEqual({ operators: otherOperatorCount + 1, resealed: otherOperatorCount + 1, alreadyUnderCurrentKey: 0 });
    const after = await sealedSecrets();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [operatorId, sealed] of after) {
      expect(sealed).not.toBe(before.get(operatorId));
      expect(open(Buffer.from(sealed, 'base64'), newKey, totpSecretBinding(operatorId))).toEqual(plaintextByOperator.get(operatorId));
      expect(() => open(Buffer.from(sealed, 'base64'), oldKey, totpSecretBinding(operatorId))).toThrow();
    }
    const entries = await resealEntries();
    expect(entries).toHaveLength(2);
    expect(entries).toContainEqual(
      expect.objectContaining({ outcome: 'done', after: { operators: otherOperatorCount + 1, resealed: otherOperatorCount + 1, alreadyUnderCurrentKey: 0, previousKeyGiven: true } }),
    );
    expect(await verifyAuditChain(database.pool)).toMatchObject({ ok: true });
  });

  test('when the admin signs in afterwards with only the new key, then the TOTP code verifies and the session is signed in, and the old key alone no longer opens it', async () => {
    nowMs += 60_000;
    expect(await signInWithCode(dependenciesWith(newKey))).toMatchObject({ kind: 'signed-in', operatorId: admin.operatorId });
    nowMs += 60_000;
    await expect(signInWithCode(dependenciesWith(oldKey))).rejects.toThrow('could not be opened');
  });

  test('when the command runs again, then nothing changes and it says every secret was under the current key already', async () => {
    const before = await sealedSecrets();
    expect(await resealTotpSecrets(database.pool, { current: newKey, previous: oldKey }, 3)).toEqual({ operators: otherOperatorCount + 1, resealed: 0, alreadyUnderCurrentKey: otherOperatorCount + 1 });
    expect(await resealTotpSecrets(database.pool, { current: newKey, previous: undefined }, 100)).toEqual({ operators: otherOperatorCount + 1, resealed: 0, alreadyUnderCurrentKey: otherOperatorCount + 1 });
    expect(await sealedSecrets()).toEqual(before);
    expect((await resealEntries()).filter((entry) => entry.outcome === 'done')).toHaveLength(3);
  });

  test('when two runs race after a further rotation, then each secret is re-sealed exactly once between them and opens with the newest key', async () => {
    const [one, two] = await Promise.all([
      resealTotpSecrets(database.pool, { current: newestKey, previous: newKey }, 2),
      resealTotpSecrets(database.pool, { current: newestKey, previous: newKey }, 5),
    ]);
    expect(one.resealed + two.resealed).toBe(otherOperatorCount + 1);
    expect(one.resealed + one.alreadyUnderCurrentKey).toBe(otherOperatorCount + 1);
    expect(two.resealed + two.alreadyUnderCurrentKey).toBe(otherOperatorCount + 1);
    for (const [operatorId, sealed] of await sealedSecrets()) {
      expect(open(Buffer.from(sealed, 'base64'), newestKey, totpSecretBinding(operatorId))).toEqual(plaintextByOperator.get(operatorId));
    }
    nowMs += 60_000;
    expect(await signInWithCode(dependenciesWith(newestKey))).toMatchObject({ kind: 'signed-in' });
  });

  test('when one secret was sealed with a key nobody holds, then the run names only that operator and re-seals nobody, the others included', async () => {
    // Last in id order: the others (openable) come first, so only the check before any change keeps them as they were.
    const strayOperatorId = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
    await database.pool.query(`INSERT INTO operators (id, email, display_name, roles) VALUES ($1, 'stray@operator.example', 'Stray', ARRAY['viewer'])`, [strayOperatorId]);
    await database.pool.query('INSERT INTO operator_totp_factors (operator_id, sealed_secret) VALUES ($1, $2)', [
      strayOperatorId,
      seal(randomBytes(20), randomBytes(32), totpSecretBinding(strayOperatorId)).toString('base64'),
    ]);
    const before = await sealedSecrets();
    const refusal = await resealTotpSecrets(database.pool, { current: randomBytes(32), previous: newestKey }, 3).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnopenableTotpSecretsError);
    expect(refusal).toMatchObject({ unopenableCount: 1, operatorIds: [strayOperatorId] });
    expect(await sealedSecrets()).toEqual(before);
  });
});

describe('the running back-office’s sealing-key settings', () => {
  const environment = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/unused',
    REDIS_URL: 'redis://127.0.0.1:6379',
    BACKOFFICE_PUBLIC_URL: 'https://backoffice.internal.example',
    BACKOFFICE_SEALING_KEY: newKey.toString('base64'),
  };

  test('when the previous key is given, then the sealer’s keys are the current one first and the previous one; empty counts as unset', () => {
    expect(totpSealingKeysOf(readBackofficeConfig({ ...environment, BACKOFFICE_SEALING_KEY_PREVIOUS: oldKey.toString('base64') }))).toEqual({ current: newKey, previous: oldKey });
    expect(totpSealingKeysOf(readBackofficeConfig({ ...environment, BACKOFFICE_SEALING_KEY_PREVIOUS: '' }))).toEqual({ current: newKey, previous: undefined });
    expect(readBackofficeConfig({ ...environment, BACKOFFICE_OIDC_ISSUER_URL: '', BACKOFFICE_OIDC_CLIENT_ID: '', BACKOFFICE_OIDC_CLIENT_SECRET: '' }).BACKOFFICE_OIDC_ISSUER_URL).toBeUndefined();
  });

  test('during a rotation, then the running service opens a secret sealed under the previous key, seals new ones under the current key, and without the previous key refuses the old one', async () => {
    const operatorId = randomUUID();
    const secret = randomBytes(20);
    const underOldKey = seal(secret, oldKey, totpSecretBinding(operatorId)).toString('base64');
    const rolling = peopleDependenciesOf(readBackofficeConfig({ ...environment, BACKOFFICE_SEALING_KEY_PREVIOUS: oldKey.toString('base64') }), database.pool, redis).sealer;
    expect(await rolling.open(underOldKey, totpSecretBinding(operatorId))).toEqual(secret);
    const resealed = await rolling.seal(secret, totpSecretBinding(operatorId));
    expect(open(Buffer.from(resealed, 'base64'), newKey, totpSecretBinding(operatorId))).toEqual(secret);
    const afterRotation = peopleDependenciesOf(readBackofficeConfig(environment), database.pool, redis).sealer;
    expect(await afterRotation.open(resealed, totpSecretBinding(operatorId))).toEqual(secret);
    await expect(async () => afterRotation.open(underOldKey, totpSecretBinding(operatorId))).rejects.toThrow();
  });

  test('when the previous key is the current one or not 32 bytes, then the service refuses to start and names BACKOFFICE_SEALING_KEY_PREVIOUS, never the value', () => {
    const same = () => readBackofficeConfig({ ...environment, BACKOFFICE_SEALING_KEY_PREVIOUS: newKey.toString('base64') });
    expect(same).toThrow(/BACKOFFICE_SEALING_KEY_PREVIOUS: .*same key/);
    expect(() => readBackofficeConfig({ ...environment, BACKOFFICE_SEALING_KEY_PREVIOUS: randomBytes(16).toString('base64') })).toThrow(/BACKOFFICE_SEALING_KEY_PREVIOUS: must be base64 of exactly 32 bytes/);
    let message = '';
    try {
      same();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain(newKey.toString('base64'));
  });
});
