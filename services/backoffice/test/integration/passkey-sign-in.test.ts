import { Redis } from 'ioredis';
import { sessionIdHash } from '@pwa/web-auth';
import { SoftwareAuthenticator, type AuthenticationOptionsJson, type RegistrationOptionsJson, type SoftwareCredential } from '../../../../test/support/passkey-authenticator';
import { consoleOrigin, startPeopleStand, type PeopleStand, type SignedIn, type StandOperator } from '../support/passkey-oidc-stand';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/**
 * Passkeys through the back-office's real routes against the real Postgres and Redis, with a
 * software authenticator that makes real ES256 credentials and signatures: registration by a
 * signed-in operator, sign-in with the passkey as the second factor after the password, and every
 * refusal the brief names (a replayed assertion, a wrong origin, a counter going back, a challenge
 * used twice, another operator's credential), each audited with the credential id at most.
 */
let stand: PeopleStand;
let redis: Redis;
const authenticator = new SoftwareAuthenticator(consoleOrigin);
let ann: StandOperator;
let annCredential: SoftwareCredential;

beforeAll(async () => {
  stand = await startPeopleStand('backoffice_passkeys');
  redis = new Redis(serverUrls().redis);
  ann = await stand.newOperator('Ann Passkey', ['maker']);
});

afterAll(async () => {
  redis?.disconnect();
  await stand?.stop();
});

async function registerPasskeyFor(signedIn: SignedIn, device = authenticator, name = 'Laptop'): Promise<SoftwareCredential> {
  const options = await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: signedIn.cookie, csrf: signedIn.csrf });
  expect(options.status).toBe(200);
  const registered = device.register(options.body.data?.options as RegistrationOptionsJson);
  const stored = await stand.call('POST', '/api/v1/passkeys', { cookie: signedIn.cookie, csrf: signedIn.csrf, body: { response: registered.response, name } });
  expect(stored).toMatchObject({ status: 201, body: { data: { passkey: { credentialId: registered.credential.credentialId, name } } } });
  return registered.credential;
}

async function passkeyOptions(pending: SignedIn): Promise<AuthenticationOptionsJson> {
  const options = await stand.call('POST', '/api/v1/session/passkey/options', { cookie: pending.cookie, csrf: pending.csrf });
  expect(options.status).toBe(200);
  return options.body.data?.options as AuthenticationOptionsJson;
}

async function auditEntries(action: string): Promise<{ outcome: string; reason: string | null; after: unknown; dump: string }[]> {
  const result = await stand.database.pool.query<{ outcome: string; reason: string | null; after: unknown; dump: string }>(
    `SELECT outcome, reason, after, row_to_json(a)::text AS dump FROM audit_log a WHERE action = $1 ORDER BY sequence`,
    [action],
  );
  return result.rows;
}

describe('passkeys as the second factor', () => {
  test('when no identity provider is configured, then the sign-in page is told so and its routes do not exist', async () => {
    expect(await stand.call('GET', '/api/v1/session/methods')).toMatchObject({ status: 200, body: { data: { password: true, oidc: null } } });
    expect(await stand.call('GET', '/api/v1/session/oidc/start', { origin: null })).toMatchObject({ status: 404 });
    expect(await stand.call('GET', '/api/v1/session/oidc/callback?code=x&state=y', { origin: null })).toMatchObject({ status: 404 });
  });

  test('when a signed-in operator registers a passkey, then it is stored with user verification, listed without its key, excluded from the next options, and audited', async () => {
    const signedIn = await stand.signInWithTotp(ann);
    const options = await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: signedIn.cookie, csrf: signedIn.csrf });
    expect(options.body.data?.options).toMatchObject({
      rp: { id: 'backoffice.internal.example' },
      user: { name: ann.email },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'required' },
      excludeCredentials: [],
    });
    const registered = authenticator.register(options.body.data?.options as RegistrationOptionsJson);
    const stored = await stand.call('POST', '/api/v1/passkeys', { cookie: signedIn.cookie, csrf: signedIn.csrf, body: { response: registered.response, name: 'Work laptop' } });
    expect(stored.status).toBe(201);
    annCredential = registered.credential;

    const listed = await stand.call('GET', '/api/v1/passkeys', { cookie: signedIn.cookie });
    expect(listed.body.data?.passkeys).toEqual([
      expect.objectContaining({ credentialId: annCredential.credentialId, name: 'Work laptop', transports: ['internal'], deviceType: 'singleDevice', backedUp: false, lastUsedAt: null }),
    ]);
    expect(JSON.stringify(listed.body)).not.toMatch(/publicKey|public_key/);
    const next = await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: signedIn.cookie, csrf: signedIn.csrf });
    expect(next.body.data?.options).toMatchObject({ excludeCredentials: [expect.objectContaining({ id: annCredential.credentialId })] });

    const row = await stand.database.pool.query<{ sign_count: string; length: number }>(`SELECT sign_count, length(public_key) AS length FROM operator_passkeys WHERE credential_id = $1`, [annCredential.credentialId]);
    expect(row.rows[0]).toMatchObject({ sign_count: '0' });
    const audited = await auditEntries('operator.passkey.register');
    expect(audited).toEqual([expect.objectContaining({ outcome: 'done', after: expect.objectContaining({ credentialId: annCredential.credentialId, name: 'Work laptop' }) })]);
    const challenge = String((options.body.data?.options as RegistrationOptionsJson).challenge);
    expect(audited[0]?.dump).not.toContain(challenge);
  });

  test('when a registration answers a challenge of another session, skips user verification, or comes without the CSRF token, then it is refused', async () => {
    const first = await stand.signInWithTotp(ann);
    const second = await stand.signInWithTotp(ann);
    const options = await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: first.cookie, csrf: first.csrf });
    const registered = new SoftwareAuthenticator(consoleOrigin).register(options.body.data?.options as RegistrationOptionsJson);
    // The challenge is bound to the first session: the second has none.
    expect(await stand.call('POST', '/api/v1/passkeys', { cookie: second.cookie, csrf: second.csrf, body: { response: registered.response } })).toMatchObject({ status: 400, body: { code: 'CON_1010' } });

    const again = await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: second.cookie, csrf: second.csrf });
    const unverified = new SoftwareAuthenticator(consoleOrigin).register(again.body.data?.options as RegistrationOptionsJson, { userVerified: false });
    expect(await stand.call('POST', '/api/v1/passkeys', { cookie: second.cookie, csrf: second.csrf, body: { response: unverified.response } })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });

    expect(await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: second.cookie })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    expect(await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: second.cookie, csrf: second.csrf, origin: 'https://evil.example' })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    const refusals = await auditEntries('operator.passkey.register');
    expect(refusals.filter((entry) => entry.outcome === 'refused').map((entry) => entry.reason)).toEqual([
      expect.stringContaining('no registration challenge'),
      expect.stringContaining('not verified'),
    ]);
  });

  let lastGoodAssertion: Record<string, unknown>;

  test('when the operator gives the password and then the passkey, then the session is signed in under a new id, the counter moves forward, and it is audited', async () => {
    const pending = await stand.passwordStep(ann);
    const factors = await stand.call('GET', '/api/v1/session/mfa', { cookie: pending.cookie });
    expect(factors).toMatchObject({ status: 200, body: { data: { stage: 'mfa_pending', csrfToken: pending.csrf, factors: ['totp', 'passkey'] } } });
    const options = await passkeyOptions(pending);
    expect(options).toMatchObject({ rpId: 'backoffice.internal.example', userVerification: 'required', allowCredentials: [expect.objectContaining({ id: annCredential.credentialId })] });
    // Without the CSRF token the assertion is not even looked at.
    const assertion = authenticator.assert(options, annCredential);
    expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, body: { response: assertion } })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    const signedIn = await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: assertion } });
    expect(signedIn).toMatchObject({ status: 200, body: { data: { stage: 'signed_in' } } });
    lastGoodAssertion = assertion;
    expect(signedIn.session).toBeDefined();
    expect(signedIn.session).not.toBe(pending.cookie);
    expect(signedIn.body.data?.csrfToken).not.toBe(pending.csrf);
    expect(await stand.call('GET', '/api/v1/session', { cookie: pending.cookie })).toMatchObject({ status: 401 });
    expect(await stand.call('GET', '/api/v1/session', { cookie: signedIn.session ?? '' })).toMatchObject({
      status: 200,
      body: { data: { operator: { email: ann.email }, signIn: { method: 'password', secondFactor: 'passkey', completedAt: expect.any(String), factorChangesUntil: expect.any(String) } } },
    });

    const row = await stand.database.pool.query<{ sign_count: string; last_used_at: Date | null }>(`SELECT sign_count, last_used_at FROM operator_passkeys WHERE credential_id = $1`, [annCredential.credentialId]);
    expect(row.rows[0]).toMatchObject({ sign_count: String(annCredential.counter), last_used_at: expect.any(Date) });
    const audited = await auditEntries('operator.sign_in.passkey');
    expect(audited.at(-1)).toMatchObject({ outcome: 'done', after: { credentialId: annCredential.credentialId } });
    expect(audited.at(-1)?.dump).not.toContain(options.challenge);
  });

  test('when a signed assertion is replayed on a new sign-in, then it is refused (its challenge is not this session\'s)', async () => {
    const pending = await stand.passwordStep(ann);
    await passkeyOptions(pending);
    expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: lastGoodAssertion } })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    expect(await stand.call('GET', '/api/v1/session', { cookie: pending.cookie })).toMatchObject({ status: 401 });
  });

  test('when an assertion names another origin, then it is refused, and the challenge it spent cannot be used a second time', async () => {
    const pending = await stand.passwordStep(ann);
    const options = await passkeyOptions(pending);
    const phished = authenticator.assert(options, annCredential, { origin: 'https://backoffice.internal.example.evil.example' });
    expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: phished } })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    const honest = authenticator.assert(options, annCredential);
    expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: honest } })).toMatchObject({ status: 400, body: { code: 'CON_1010' } });
    const refusals = (await auditEntries('operator.sign_in.passkey')).filter((entry) => entry.outcome === 'refused');
    expect(refusals.slice(-2).map((entry) => entry.reason)).toEqual([expect.stringMatching(/origin/i), expect.stringContaining('no passkey challenge')]);
    for (const entry of refusals) expect(entry.dump).not.toContain(options.challenge);
  });

  test('when an assertion carries a counter that went backwards (a cloned authenticator), then it is refused and audited as such', async () => {
    const pending = await stand.passwordStep(ann);
    const options = await passkeyOptions(pending);
    const cloned = authenticator.assert(options, annCredential, { counter: 1 });
    expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: cloned } })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    const refusals = (await auditEntries('operator.sign_in.passkey')).filter((entry) => entry.outcome === 'refused');
    expect(refusals.at(-1)?.reason).toMatch(/counter did not advance.*cloned authenticator/);
  });

  test('when a cloned authenticator signs two sign-ins with the same counter at the same moment, then only one is admitted', async () => {
    const [first, second] = [await stand.passwordStep(ann), await stand.passwordStep(ann)];
    const [firstOptions, secondOptions] = [await passkeyOptions(first), await passkeyOptions(second)];
    const counter = annCredential.counter + 1;
    annCredential.counter = counter;
    const answers = await Promise.all([
      stand.call('POST', '/api/v1/session/passkey', { cookie: first.cookie, csrf: first.csrf, body: { response: authenticator.assert(firstOptions, annCredential, { counter }) } }),
      stand.call('POST', '/api/v1/session/passkey', { cookie: second.cookie, csrf: second.csrf, body: { response: authenticator.assert(secondOptions, annCredential, { counter }) } }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    const row = await stand.database.pool.query<{ sign_count: string }>(`SELECT sign_count FROM operator_passkeys WHERE credential_id = $1`, [annCredential.credentialId]);
    expect(row.rows[0]?.sign_count).toBe(String(counter));
  });

  test('when another operator answers their own sign-in with Ann\'s credential, then it is refused as not theirs', async () => {
    const bob = await stand.newOperator('Bob Passkey', ['checker']);
    const bobDevice = new SoftwareAuthenticator(consoleOrigin);
    const bobSignedIn = await stand.signInWithTotp(bob);
    await registerPasskeyFor(bobSignedIn, bobDevice, 'Security key');
    const pending = await stand.passwordStep(bob);
    const options = await passkeyOptions(pending);
    expect(options.allowCredentials?.map((credential) => credential.id)).not.toContain(annCredential.credentialId);
    const borrowed = authenticator.assert(options, annCredential);
    expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: borrowed } })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    const refusals = (await auditEntries('operator.sign_in.passkey')).filter((entry) => entry.outcome === 'refused');
    expect(refusals.at(-1)?.reason).toContain("is not one of this operator's passkeys");
    // Bob cannot remove Ann's passkey either.
    const annPasskeyId = (await stand.database.pool.query<{ id: string }>(`SELECT id FROM operator_passkeys WHERE credential_id = $1`, [annCredential.credentialId])).rows[0]?.id;
    expect(await stand.call('DELETE', `/api/v1/passkeys/${String(annPasskeyId)}`, { cookie: bobSignedIn.cookie, csrf: bobSignedIn.csrf })).toMatchObject({ status: 404, body: { code: 'CON_4005' } });
  });

  test('when an operator removes a passkey, then it needs a recent sign-in and the CSRF token, it is gone, and it no longer signs in', async () => {
    // A person of their own: Ann's refused assertions above count towards her lock (decision 0061).
    const cleo = await stand.newOperator('Cleo Passkey', ['viewer']);
    await registerPasskeyFor(await stand.signInWithTotp(cleo), new SoftwareAuthenticator(consoleOrigin), 'Phone');
    const signedIn = await stand.signInWithTotp(cleo);
    const passkeyId = String(((await stand.call('GET', '/api/v1/passkeys', { cookie: signedIn.cookie })).body.data?.passkeys as { passkeyId: string }[])[0]?.passkeyId);
    expect(await stand.call('DELETE', `/api/v1/passkeys/${passkeyId}`, { cookie: signedIn.cookie })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });

    // The same session as if its sign-in had completed 20 minutes ago: the absolute end moved back by as much.
    const key = `${stand.redisKeyPrefix}backoffice:session:${sessionIdHash(signedIn.cookie.split('=')[1] ?? '')}`;
    const expiresAtMs = Number(await redis.hget(key, 'expiresAtMs'));
    await redis.hset(key, 'expiresAtMs', String(expiresAtMs - 20 * 60_000));
    expect(await stand.call('DELETE', `/api/v1/passkeys/${passkeyId}`, { cookie: signedIn.cookie, csrf: signedIn.csrf })).toMatchObject({ status: 401, body: { code: 'CON_1004', message: expect.stringContaining('15 minutes') } });
    expect(await stand.call('GET', '/api/v1/passkeys', { cookie: signedIn.cookie })).toMatchObject({ status: 200 });

    const fresh = await stand.signInWithTotp(cleo);
    expect(await stand.call('DELETE', `/api/v1/passkeys/${passkeyId}`, { cookie: fresh.cookie, csrf: fresh.csrf })).toMatchObject({ status: 204 });
    expect((await stand.call('GET', '/api/v1/passkeys', { cookie: fresh.cookie })).body.data?.passkeys).toEqual([]);
    const removals = await auditEntries('operator.passkey.remove');
    expect(removals.map((entry) => entry.outcome)).toEqual(['refused', 'refused', 'done']);

    const pending = await stand.passwordStep(cleo);
    expect(await stand.call('GET', '/api/v1/session/mfa', { cookie: pending.cookie })).toMatchObject({ body: { data: { factors: ['totp'] } } });
    expect(await stand.call('POST', '/api/v1/session/passkey/options', { cookie: pending.cookie, csrf: pending.csrf })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
  });

  test('when passkey assertions keep failing, then they count as failed sign-ins: the fifth locks the account, as wrong codes do', async () => {
    const dan = await stand.newOperator('Dan Passkey', ['viewer']);
    const danDevice = new SoftwareAuthenticator(consoleOrigin);
    const danCredential = await registerPasskeyFor(await stand.signInWithTotp(dan), danDevice, 'Key');
    const pending = await stand.passwordStep(dan);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const options = await passkeyOptions(pending);
      const phished = danDevice.assert(options, danCredential, { origin: 'https://evil.example' });
      expect(await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: phished } })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    }
    const options = await passkeyOptions(pending);
    const honest = await stand.call('POST', '/api/v1/session/passkey', { cookie: pending.cookie, csrf: pending.csrf, body: { response: danDevice.assert(options, danCredential) } });
    expect(honest).toMatchObject({ status: 429, body: { code: 'CON_1002' } });
    expect(Number(honest.retryAfter)).toBeGreaterThan(0);
    expect(await stand.call('POST', '/api/v1/session', { body: { email: dan.email, password: dan.password } })).toMatchObject({ status: 429, body: { code: 'CON_1002' } });
  });

  test('when the audit log is read after all of this, then no public key, challenge or session id is in it', async () => {
    const passkeys = await stand.database.pool.query<{ public_key: Buffer }>(`SELECT public_key FROM operator_passkeys`);
    const dump = (await stand.database.pool.query<{ dump: string }>(`SELECT string_agg(row_to_json(a)::text, E'\\n') AS dump FROM audit_log a`)).rows[0]?.dump ?? '';
    expect(dump).toContain('operator.sign_in.passkey');
    for (const row of passkeys.rows) {
      expect(dump).not.toContain(row.public_key.toString('base64url'));
      expect(dump).not.toContain(row.public_key.toString('base64'));
      expect(dump).not.toContain(row.public_key.toString('hex'));
    }
  });
});
