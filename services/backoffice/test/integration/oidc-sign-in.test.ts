import { randomBytes } from 'node:crypto';
import { totpCodeAt } from '@pwa/web-auth';
import { disableOperator } from '../../src/store/operator-store';
import { providerDidMfa } from '../../src/use-cases/operator-oidc-sign-in';
import { bindingCookiePrefix, browserAtCallback as signInAtProvider, type BrowserAtCallback } from '../support/oidc-browser';
import { startOidcTestProvider, type OidcTestAccount, type OidcTestProvider } from '../support/oidc-test-provider';
import { SoftwareAuthenticator, type AuthenticationOptionsJson, type RegistrationOptionsJson } from '../../../../test/support/passkey-authenticator';
import { consoleOrigin, startPeopleStand, type PeopleCall, type PeopleStand, type StandOperator } from '../support/passkey-oidc-stand';

/**
 * Sign-in with the company's identity provider against a real OpenID Connect provider
 * (oidc-provider in a child process), driven as a browser would: the back-office's start, the
 * provider's redirects with its cookies, the callback with the back-office's binding cookie.
 */
const clientId = 'backoffice-test';
const clientSecret = randomBytes(24).toString('base64url');
const redirectUri = `${consoleOrigin}/api/v1/session/oidc/callback`;

let provider: OidcTestProvider;
let stand: PeopleStand;
let ann: StandOperator;
let carl: StandOperator;
let dora: StandOperator;
const accounts: Record<string, OidcTestAccount> = {};

beforeAll(async () => {
  // The accounts are filled in once the operators exist; the provider reads the object when it starts.
  const emails = { ann: `ann.${randomBytes(4).toString('hex')}@operator.example`, carl: `carl.${randomBytes(4).toString('hex')}@operator.example`, dora: `dora.${randomBytes(4).toString('hex')}@operator.example` };
  Object.assign(accounts, {
    'sub-ann': { email: emails.ann, email_verified: true, amr: ['pwd', 'otp'] },
    'sub-ann-again': { email: emails.ann, email_verified: true, amr: ['mfa'] },
    'sub-carl': { email: emails.carl, email_verified: true, amr: ['pwd'] },
    'sub-dora': { email: emails.dora, email_verified: true, amr: ['mfa'] },
    'sub-stranger': { email: `stranger.${randomBytes(4).toString('hex')}@operator.example`, email_verified: true, amr: ['mfa'] },
    'sub-unverified': { email: emails.carl, email_verified: false, amr: ['mfa'] },
  });
  provider = await startOidcTestProvider({ clientId, clientSecret, redirectUri, accounts });
  stand = await startPeopleStand('backoffice_oidc', { env: { BACKOFFICE_OIDC_ISSUER_URL: provider.issuerUrl, BACKOFFICE_OIDC_CLIENT_ID: clientId, BACKOFFICE_OIDC_CLIENT_SECRET: clientSecret } });
  ann = await stand.newOperator('Ann Oidc', ['maker']);
  carl = await stand.newOperator('Carl Oidc', ['checker']);
  dora = await stand.newOperator('Dora Oidc', ['viewer']);
  // The operators' addresses are random; make them the accounts' addresses.
  for (const [operator, email] of [[ann, emails.ann], [carl, emails.carl], [dora, emails.dora]] as const) {
    await stand.database.pool.query(`UPDATE operators SET email = $2 WHERE id = $1`, [operator.operatorId, email]);
    operator.email = email;
  }
});

afterAll(async () => {
  await stand?.stop();
  await provider?.stop();
});

/** A browser at the callback (see oidc-browser.ts), for an account of the test provider. */
function browserAtCallback(accountId: string, tamper?: (authorization: URL) => void): Promise<BrowserAtCallback> {
  return signInAtProvider(stand, accountId, tamper);
}

/** The provider's redirect arriving at the back-office, with this browser's binding cookie, another one, or none (null). */
async function callback(at: BrowserAtCallback, cookie: string | null = at.binding): Promise<PeopleCall> {
  return stand.call('GET', at.callbackPath, { origin: null, ...(cookie === null ? {} : { cookie }) });
}

async function oidcAudit(): Promise<{ action: string; outcome: string; reason: string | null; after: unknown; dump: string }[]> {
  const result = await stand.database.pool.query<{ action: string; outcome: string; reason: string | null; after: unknown; dump: string }>(
    `SELECT action, outcome, reason, after, row_to_json(a)::text AS dump FROM audit_log a WHERE action LIKE 'operator.%oidc%' ORDER BY sequence`,
  );
  return result.rows;
}

const refusedLanding = `${consoleOrigin}/sign-in?error=CON_1011`;

describe('sign-in with the identity provider', () => {
  test('when the back-office offers the provider, then the sign-in page learns it, and the start uses PKCE (S256), state and nonce', async () => {
    expect(await stand.call('GET', '/api/v1/session/methods')).toMatchObject({ status: 200, body: { data: { password: true, oidc: { start: '/api/v1/session/oidc/start' } } } });
    const at = await browserAtCallback('sub-ann');
    expect(at.binding).toMatch(/^__Host-backoffice-oidc=[A-Za-z0-9_-]{43}$/);
    const query = at.authorizationUrl.searchParams;
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('redirect_uri')).toBe(redirectUri);
    expect(new URLSearchParams(at.callbackPath.split('?')[1]).get('code')).toBeTruthy();
  });

  test('when an active operator signs in for the first time with a verified e-mail and MFA at the provider, then the subject is linked and the session is signed in', async () => {
    const at = await browserAtCallback('sub-ann');
    const answer = await callback(at);
    expect(answer).toMatchObject({ status: 303, location: `${consoleOrigin}/` });
    expect(answer.cookies).toContain(bindingCookiePrefix);
    expect(answer.session).toBeDefined();
    const me = await stand.call('GET', '/api/v1/session', { cookie: answer.session ?? '' });
    expect(me).toMatchObject({ status: 200, body: { data: { operator: { operatorId: ann.operatorId, email: ann.email }, signIn: { method: 'oidc', secondFactor: 'identity-provider' } } } });
    const links = await stand.database.pool.query<{ subject: string; operator_id: string }>(`SELECT subject, operator_id FROM operator_oidc_links`);
    expect(links.rows).toEqual([{ subject: 'sub-ann', operator_id: ann.operatorId }]);
    const audited = await oidcAudit();
    expect(audited.map((entry) => [entry.action, entry.outcome])).toEqual([
      ['operator.oidc.link', 'done'],
      ['operator.sign_in.oidc', 'done'],
    ]);
    expect(audited[1]?.after).toMatchObject({ issuer: provider.issuerUrl, subject: 'sub-ann', secondFactor: 'done at the identity provider' });

    // The session id changes at every sign-in; a second sign-in (linked by sub now) gets another.
    const again = await callback(await browserAtCallback('sub-ann'));
    expect(again).toMatchObject({ status: 303, location: `${consoleOrigin}/` });
    expect(again.session).not.toBe(answer.session);
  });

  test('when the same callback is replayed, then it is refused: the state was spent by the first', async () => {
    const at = await browserAtCallback('sub-ann');
    expect(await callback(at)).toMatchObject({ status: 303, location: `${consoleOrigin}/` });
    const replayed = await callback(at);
    expect(replayed).toMatchObject({ status: 303, location: refusedLanding, session: undefined });
    expect((await oidcAudit()).at(-1)).toMatchObject({ action: 'operator.sign_in.oidc', outcome: 'refused', reason: expect.stringContaining('unknown, used or expired') });
  });

  test('when the state is wrong, the nonce was changed on the way, or the callback arrives in another browser, then each is refused', async () => {
    const wrongState = await browserAtCallback('sub-ann');
    const tampered = wrongState.callbackPath.replace(/state=[^&]+/, `state=${randomBytes(32).toString('base64url')}`);
    expect(await stand.call('GET', tampered, { origin: null, cookie: wrongState.binding })).toMatchObject({ status: 303, location: refusedLanding, session: undefined });

    const wrongNonce = await browserAtCallback('sub-ann', (authorization) => authorization.searchParams.set('nonce', randomBytes(32).toString('base64url')));
    expect(await callback(wrongNonce)).toMatchObject({ status: 303, location: refusedLanding, session: undefined });
    expect((await oidcAudit()).at(-1)).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('nonce mismatch') });

    const elsewhere = await browserAtCallback('sub-ann');
    expect(await callback(elsewhere, null)).toMatchObject({ status: 303, location: refusedLanding, session: undefined });
    const otherBrowser = await browserAtCallback('sub-ann');
    expect(await callback(elsewhere, otherBrowser.binding)).toMatchObject({ status: 303, location: refusedLanding, session: undefined });
  });

  test('when the e-mail is unknown, unverified, a disabled operator\'s, or an operator already linked to another subject, then every refusal looks the same', async () => {
    const unknown = await callback(await browserAtCallback('sub-stranger'));
    const unverified = await callback(await browserAtCallback('sub-unverified'));
    await disableOperator(stand.database.pool, dora.operatorId);
    const disabled = await callback(await browserAtCallback('sub-dora'));
    const otherSubject = await callback(await browserAtCallback('sub-ann-again'));
    for (const answer of [unknown, unverified, disabled, otherSubject]) {
      expect({ status: answer.status, location: answer.location, session: answer.session }).toEqual({ status: 303, location: refusedLanding, session: undefined });
    }
    const reasons = (await oidcAudit()).slice(-4).map((entry) => entry.reason);
    expect(reasons).toEqual([
      expect.stringContaining('no operator has its verified e-mail'),
      expect.stringContaining('no verified e-mail'),
      expect.stringContaining('is disabled'),
      expect.stringContaining('linked to another subject'),
    ]);
    const links = await stand.database.pool.query(`SELECT subject FROM operator_oidc_links ORDER BY subject`);
    expect(links.rows).toEqual([{ subject: 'sub-ann' }]);
  });

  test('when the provider did not show MFA, then the session waits for the local second factor (TOTP or a passkey), which completes it under a new id', async () => {
    const answer = await callback(await browserAtCallback('sub-carl'));
    expect(answer).toMatchObject({ status: 303, location: `${consoleOrigin}/sign-in?step=mfa` });
    const pending = answer.session ?? '';
    expect(await stand.call('GET', '/api/v1/session', { cookie: pending })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    const waiting = await stand.call('GET', '/api/v1/session/mfa', { cookie: pending });
    expect(waiting).toMatchObject({ status: 200, body: { data: { stage: 'mfa_pending', factors: ['totp'] } } });
    const csrf = String(waiting.body.data?.csrfToken);
    const signedIn = await stand.call('POST', '/api/v1/session/mfa', { cookie: pending, csrf, body: { code: totpCodeAt(carl.totpSecret, Date.now()) } });
    expect(signedIn).toMatchObject({ status: 200, body: { data: { stage: 'signed_in' } } });
    expect(signedIn.session).not.toBe(pending);
    expect(await stand.call('GET', '/api/v1/session', { cookie: signedIn.session ?? '' })).toMatchObject({ status: 200, body: { data: { operator: { operatorId: carl.operatorId } } } });
    expect((await oidcAudit()).at(-1)?.after).toMatchObject({ subject: 'sub-carl', secondFactor: 'required here' });

    // The local second factor may also be a passkey: registered now (a recent sign-in), then used after the provider.
    const device = new SoftwareAuthenticator(consoleOrigin);
    const csrfNow = String(signedIn.body.data?.csrfToken);
    const registrationOptions = await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: signedIn.session ?? '', csrf: csrfNow });
    const registered = device.register(registrationOptions.body.data?.options as RegistrationOptionsJson);
    expect(await stand.call('POST', '/api/v1/passkeys', { cookie: signedIn.session ?? '', csrf: csrfNow, body: { response: registered.response } })).toMatchObject({ status: 201 });
    const again = await callback(await browserAtCallback('sub-carl'));
    expect(again.location).toBe(`${consoleOrigin}/sign-in?step=mfa`);
    const waitingAgain = await stand.call('GET', '/api/v1/session/mfa', { cookie: again.session ?? '' });
    expect(waitingAgain.body.data?.factors).toEqual(['totp', 'passkey']);
    const pendingCsrf = String(waitingAgain.body.data?.csrfToken);
    const options = await stand.call('POST', '/api/v1/session/passkey/options', { cookie: again.session ?? '', csrf: pendingCsrf });
    const byPasskey = await stand.call('POST', '/api/v1/session/passkey', { cookie: again.session ?? '', csrf: pendingCsrf, body: { response: device.assert(options.body.data?.options as AuthenticationOptionsJson, registered.credential) } });
    expect(byPasskey).toMatchObject({ status: 200, body: { data: { stage: 'signed_in' } } });
    expect(byPasskey.session).not.toBe(again.session);
    expect(await stand.call('GET', '/api/v1/session', { cookie: byPasskey.session ?? '' })).toMatchObject({ status: 200, body: { data: { operator: { operatorId: carl.operatorId }, signIn: { method: 'oidc', secondFactor: 'passkey' } } } });
  });

  test('when a linked operator is disabled, then the provider\'s sign-in no longer admits them', async () => {
    await disableOperator(stand.database.pool, ann.operatorId);
    expect(await callback(await browserAtCallback('sub-ann'))).toMatchObject({ status: 303, location: refusedLanding, session: undefined });
    expect((await oidcAudit()).at(-1)).toMatchObject({ outcome: 'refused', reason: 'the linked operator is disabled' });
  });
});

describe('a provider that goes away during a sign-in', () => {
  test('when the provider stops answering between its redirect and the code exchange, then the callback answers 503, spends the state, and is audited', async () => {
    const at = await browserAtCallback('sub-carl');
    await provider.stop();
    expect(await callback(at)).toMatchObject({ status: 503, body: { code: 'PKC_7003' }, session: undefined });
    expect((await oidcAudit()).at(-1)).toMatchObject({ action: 'operator.sign_in.oidc', outcome: 'refused', reason: expect.stringContaining('did not answer') });
    expect(await callback(at)).toMatchObject({ status: 303, location: refusedLanding });
  });
});

describe('a provider that is down', () => {
  let downStand: PeopleStand;

  beforeAll(async () => {
    downStand = await startPeopleStand('backoffice_oidc_down', { env: { BACKOFFICE_OIDC_ISSUER_URL: 'http://127.0.0.1:9', BACKOFFICE_OIDC_CLIENT_ID: clientId, BACKOFFICE_OIDC_CLIENT_SECRET: clientSecret } });
  });

  afterAll(async () => {
    await downStand?.stop();
  });

  test('when the provider cannot be reached, then the back-office still starts and signs people in locally, and only the provider\'s start answers 503', async () => {
    const operator = await downStand.newOperator('Local Only', ['viewer']);
    const signedIn = await downStand.signInWithTotp(operator);
    expect(await downStand.call('GET', '/api/v1/session', { cookie: signedIn.cookie })).toMatchObject({ status: 200 });
    const start = await downStand.call('GET', '/api/v1/session/oidc/start', { origin: null });
    expect(start).toMatchObject({ status: 503, body: { code: 'PKC_7003' } });
    expect(start.cookies.filter((cookie) => cookie.startsWith(bindingCookiePrefix))).toEqual([]);
  });
});

describe('which amr values count as MFA at the provider (pure)', () => {
  test.each([
    [['mfa'], true],
    [['pwd', 'otp'], true],
    [['hwk', 'pin'], true],
    [['swk', 'fpt'], true],
    [['face', 'pwd'], true],
    [['pwd'], false],
    [['hwk'], false],
    [['pwd', 'sms'], false],
    [['pwd', 'tel'], false],
    [['pwd', 'kba'], false],
    [['otp', 'hwk'], false],
    [['rba', 'geo', 'pwd'], false],
    [[], false],
  ] as const)('when the ID token says amr %j, then MFA done there is %s', (amr, expected) => {
    expect(providerDidMfa(amr)).toBe(expected);
  });
});
