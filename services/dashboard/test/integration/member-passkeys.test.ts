import { Client } from 'pg';
import type { SeededMember } from '../../../../test/support/dashboard-process';
import type { ConsoleHttpsClient } from '../../../../test/support/https-client';
import { SoftwareAuthenticator, type AuthenticationOptionsJson, type RegistrationOptionsJson, type SoftwareCredential } from '../../../../test/support/passkey-authenticator';
import { onboardPartner } from '../../../../test/support/partners';
import { startDashboardStack, type DashboardStack } from '../../../../test/support/stack';

/**
 * A member's passkeys through the dashboard's real routes on the running stack (HTTPS, Postgres,
 * Redis), with a software authenticator making real ES256 credentials: any role adds its own after
 * a fresh MFA check, signs in with the password and the passkey, and every refusal (a replayed
 * assertion, another member's credential, another partner's passkey id, a wrong fresh code) changes
 * nothing and is in the partner's audit log with the credential id at most.
 */
describe('the dashboard: passkeys as a member’s second factor', () => {
  let stack: DashboardStack;
  let authenticator: SoftwareAuthenticator;
  let admin: SeededMember;
  let support: SeededMember;
  let strangerAdmin: SeededMember;
  let database: Client;

  beforeAll(async () => {
    stack = await startDashboardStack({ logLevel: 'warn' });
    authenticator = new SoftwareAuthenticator(new URL(stack.dashboard.baseUrl).origin);
    const [partnerA, partnerB] = await Promise.all([onboardPartner(stack), onboardPartner(stack)]);
    [admin, strangerAdmin] = await Promise.all([stack.dashboard.seedAdmin(partnerA.partnerId, 'Ada Passkey'), stack.dashboard.seedAdmin(partnerB.partnerId, 'Bola Passkey')]);
    support = await stack.dashboard.seedMember(admin, 'support', 'Sup Passkey');
    database = new Client({ connectionString: stack.databaseUrl });
    await database.connect();
  }, 300_000);

  afterAll(async () => {
    await database?.end();
    await stack?.stop();
  });

  async function addPasskey(session: ConsoleHttpsClient, name: string): Promise<SoftwareCredential> {
    const options = await session.post('/api/v1/passkeys/registration-options', {});
    expect(options.status).toBe(200);
    const registered = authenticator.register(options.body.data.options as RegistrationOptionsJson);
    const stored = await session.post('/api/v1/passkeys', { response: registered.response, name });
    expect(stored).toMatchObject({ status: 201, body: { data: { passkey: { credentialId: registered.credential.credentialId, name } } } });
    return registered.credential;
  }

  async function passwordStep(member: SeededMember): Promise<ConsoleHttpsClient> {
    const session = stack.dashboard.client();
    expect((await session.post('/api/v1/session', { email: member.email, password: member.password })).status).toBe(202);
    return session;
  }

  async function signInOptions(session: ConsoleHttpsClient): Promise<AuthenticationOptionsJson> {
    const options = await session.post('/api/v1/session/passkey/options', {});
    expect(options.status).toBe(200);
    return options.body.data.options as AuthenticationOptionsJson;
  }

  test('when a support member adds a passkey and signs in with it, then the session is signed in with the passkey, the key is listed without its public key, and both steps are audited', async () => {
    const signedIn = await support.signIn();
    const options = await signedIn.post('/api/v1/passkeys/registration-options', {});
    expect(options.body.data.options).toMatchObject({ rp: { id: 'localhost', name: 'Partner Wallet Dashboard' }, user: { name: support.email }, authenticatorSelection: { userVerification: 'required' }, excludeCredentials: [] });
    const registered = authenticator.register(options.body.data.options as RegistrationOptionsJson);
    expect((await signedIn.post('/api/v1/passkeys', { response: registered.response, name: 'Work laptop' })).status).toBe(201);
    const credential = registered.credential;
    const listed = await signedIn.get('/api/v1/passkeys');
    expect(listed.body.data.passkeys).toEqual([expect.objectContaining({ credentialId: credential.credentialId, name: 'Work laptop', lastUsedAt: null })]);
    expect(listed.text).not.toMatch(/publicKey|public_key/);
    // The next options exclude it: the authenticator will not make a second credential for this account.
    expect((await signedIn.post('/api/v1/passkeys/registration-options', {})).body.data.options.excludeCredentials).toEqual([expect.objectContaining({ id: credential.credentialId })]);

    const pending = await passwordStep(support);
    expect((await pending.get('/api/v1/session/mfa')).body.data.factors).toEqual(['totp', 'passkey']);
    const assertion = authenticator.assert(await signInOptions(pending), credential);
    const done = await pending.post('/api/v1/session/passkey', { response: assertion });
    expect(done).toMatchObject({ status: 200, body: { data: { stage: 'signed_in' } } });
    expect((await pending.get('/api/v1/session')).body.data).toMatchObject({ member: { memberId: support.memberId, role: 'support' }, secondFactor: 'passkey' });

    // The same assertion again, in a new half-signed-in session with a new challenge: refused.
    const replay = await passwordStep(support);
    await signInOptions(replay);
    expect(await replay.post('/api/v1/session/passkey', { response: assertion })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    expect((await replay.get('/api/v1/session')).status).toBe(401);

    const audit = await database.query<{ action: string; outcome: string; partner_id: string; dump: string }>(
      `SELECT action, outcome, partner_id, row_to_json(a)::text AS dump FROM dashboard.audit_log a WHERE actor->>'id' = $1 AND action LIKE 'member.%passkey%' ORDER BY sequence`,
      [support.memberId],
    );
    expect(audit.rows.map((row) => [row.action, row.outcome])).toEqual([
      ['member.passkey.register', 'done'],
      ['member.sign_in.passkey', 'done'],
      ['member.sign_in.passkey', 'refused'],
    ]);
    expect(audit.rows.every((row) => row.partner_id === support.partnerId)).toBe(true);
    const written = audit.rows.map((row) => row.dump).join('\n');
    const signed = assertion.response as { signature: string; clientDataJSON: string };
    for (const secret of [signed.signature, signed.clientDataJSON, (pending.cookie ?? 'no-cookie').split('=')[1] ?? 'no-cookie']) expect(written).not.toContain(secret);
  });

  test('when a member offers another member’s credential, or another partner’s admin removes a passkey that is not theirs, then it is refused and nothing changes', async () => {
    const adminSession = await stack.dashboard.sessionOf(admin);
    const adminCredential = await addPasskey(adminSession, 'Admin key');
    const strangerSession = await strangerAdmin.signIn();
    const strangerCredential = await addPasskey(strangerSession, 'Stranger key');

    // The stranger signs in and answers with the admin's credential: not one of theirs.
    const pending = await passwordStep(strangerAdmin);
    const options = await signInOptions(pending);
    expect(options.allowCredentials?.map((allowed) => allowed.id)).toEqual([strangerCredential.credentialId]);
    expect(await pending.post('/api/v1/session/passkey', { response: authenticator.assert(options, adminCredential) })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });

    const [own] = (await adminSession.get('/api/v1/passkeys')).body.data.passkeys as { passkeyId: string }[];
    expect(await strangerSession.post(`/api/v1/passkeys/${own?.passkeyId ?? ''}/removal`, {})).toMatchObject({ status: 404, body: { code: 'CON_4017' } });
    expect(await strangerSession.post('/api/v1/passkeys/not-an-id/removal', {})).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect((await adminSession.get('/api/v1/passkeys')).body.data.passkeys).toHaveLength(1);

    // A fresh code that is sent must be right; the right one removes the passkey.
    expect(await adminSession.post(`/api/v1/passkeys/${own?.passkeyId ?? ''}/removal`, { code: '000000' })).toMatchObject({ status: 401, body: { code: 'CON_1012' } });
    expect((await adminSession.post(`/api/v1/passkeys/${own?.passkeyId ?? ''}/removal`, { code: await admin.nextTotpCode() })).status).toBe(204);
    expect((await adminSession.get('/api/v1/passkeys')).body.data.passkeys).toEqual([]);
    const afterRemoval = await passwordStep(admin);
    expect((await afterRemoval.get('/api/v1/session/mfa')).body.data.factors).toEqual(['totp']);
    expect(await afterRemoval.post('/api/v1/session/passkey/options', {})).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
  });

  test('when the registration is answered without options, or for another origin, then it is refused and no passkey is stored', async () => {
    const session = await stack.dashboard.sessionOf(admin);
    const stale = authenticator.register({ challenge: Buffer.from('never-asked-for').toString('base64url'), rp: { id: 'localhost', name: 'x' }, user: { id: 'AAAA', name: admin.email, displayName: admin.displayName } });
    expect(await session.post('/api/v1/passkeys', { response: stale.response })).toMatchObject({ status: 400, body: { code: 'CON_1010' } });
    const options = await session.post('/api/v1/passkeys/registration-options', {});
    const elsewhere = authenticator.register(options.body.data.options as RegistrationOptionsJson, { origin: 'https://evil.example' });
    expect(await session.post('/api/v1/passkeys', { response: elsewhere.response })).toMatchObject({ status: 401, body: { code: 'CON_1009' } });
    expect(await session.post('/api/v1/passkeys', { response: { id: 'x' } })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect((await session.get('/api/v1/passkeys')).body.data.passkeys).toEqual([]);
  });
});
