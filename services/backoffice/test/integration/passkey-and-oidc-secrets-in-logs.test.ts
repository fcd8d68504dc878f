import { randomBytes } from 'node:crypto';
import { totpCodeAt } from '@pwa/web-auth';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { browserAtCallback } from '../support/oidc-browser';
import { startOidcTestProvider, type OidcTestProvider } from '../support/oidc-test-provider';
import { SoftwareAuthenticator, type AuthenticationOptionsJson, type RegistrationOptionsJson } from '../../../../test/support/passkey-authenticator';
import { consoleOrigin, startPeopleStand, type PeopleStand } from '../support/passkey-oidc-stand';

/**
 * What the back-office writes to its log while people register passkeys, sign in with them (and
 * fail to), and sign in with the identity provider (and fail to): every secret that crossed it is
 * looked for in every line, and none may be there. Passwords, TOTP secrets and codes, session ids,
 * CSRF tokens, WebAuthn challenges, the client secret, the authorization code, the state, the
 * nonce and the browser-binding cookie.
 */
const captured = createCapturedLogger('backoffice');
const clientId = 'backoffice-log-test';
const clientSecret = randomBytes(24).toString('base64url');
let provider: OidcTestProvider;
let stand: PeopleStand;
const email = `logs.${randomBytes(4).toString('hex')}@operator.example`;

beforeAll(async () => {
  provider = await startOidcTestProvider({
    clientId,
    clientSecret,
    redirectUri: `${consoleOrigin}/api/v1/session/oidc/callback`,
    accounts: { 'sub-logs': { email, email_verified: true, amr: ['mfa'] }, 'sub-pwd': { email, email_verified: true, amr: ['pwd'] } },
  });
  stand = await startPeopleStand('backoffice_passkey_oidc_logs', {
    logger: captured.logger,
    env: { BACKOFFICE_OIDC_ISSUER_URL: provider.issuerUrl, BACKOFFICE_OIDC_CLIENT_ID: clientId, BACKOFFICE_OIDC_CLIENT_SECRET: clientSecret },
  });
});

afterAll(async () => {
  await stand?.stop();
  await provider?.stop();
});

const valueOf = (cookie: string | undefined): string => (cookie ?? '').split('=')[1] ?? '';

describe('secrets of passkeys and the identity provider never reach the log', () => {
  test('when people register and use passkeys and sign in with the provider, refusals included, then no secret is in any log line', async () => {
    const secrets: string[] = [clientSecret];
    const operator = await stand.newOperator('Log Person', ['admin']);
    await stand.database.pool.query(`UPDATE operators SET email = $2 WHERE id = $1`, [operator.operatorId, email]);
    operator.email = email;
    secrets.push(operator.password, operator.totpSecret.toString('hex'), operator.totpSecret.toString('base64'));

    const pending = await stand.passwordStep(operator);
    secrets.push(valueOf(pending.cookie), pending.csrf);
    const code = totpCodeAt(operator.totpSecret, Date.now());
    const signedInAnswer = await stand.call('POST', '/api/v1/session/mfa', { cookie: pending.cookie, csrf: pending.csrf, body: { code } });
    const signedIn = { cookie: signedInAnswer.session ?? '', csrf: String(signedInAnswer.body.data?.csrfToken) };
    secrets.push(valueOf(signedIn.cookie), signedIn.csrf);

    const device = new SoftwareAuthenticator(consoleOrigin);
    const registrationOptions = (await stand.call('POST', '/api/v1/passkeys/registration-options', { cookie: signedIn.cookie, csrf: signedIn.csrf })).body.data?.options as RegistrationOptionsJson;
    secrets.push(registrationOptions.challenge);
    const registered = device.register(registrationOptions);
    expect((await stand.call('POST', '/api/v1/passkeys', { cookie: signedIn.cookie, csrf: signedIn.csrf, body: { response: registered.response } })).status).toBe(201);

    const second = await stand.passwordStep(operator);
    secrets.push(valueOf(second.cookie), second.csrf);
    const options = (await stand.call('POST', '/api/v1/session/passkey/options', { cookie: second.cookie, csrf: second.csrf })).body.data?.options as AuthenticationOptionsJson;
    secrets.push(options.challenge);
    const wrong = device.assert(options, registered.credential, { origin: 'https://evil.example' });
    expect((await stand.call('POST', '/api/v1/session/passkey', { cookie: second.cookie, csrf: second.csrf, body: { response: wrong } })).status).toBe(401);
    const retry = (await stand.call('POST', '/api/v1/session/passkey/options', { cookie: second.cookie, csrf: second.csrf })).body.data?.options as AuthenticationOptionsJson;
    secrets.push(retry.challenge);
    const byPasskey = await stand.call('POST', '/api/v1/session/passkey', { cookie: second.cookie, csrf: second.csrf, body: { response: device.assert(retry, registered.credential) } });
    expect(byPasskey.status).toBe(200);
    secrets.push(valueOf(byPasskey.session), String(byPasskey.body.data?.csrfToken));

    const viaProvider = await browserAtCallback(stand, 'sub-logs');
    const query = new URLSearchParams(viaProvider.callbackPath.split('?')[1]);
    secrets.push(String(query.get('code')), String(query.get('state')), String(viaProvider.authorizationUrl.searchParams.get('nonce')), valueOf(viaProvider.binding));
    const landed = await stand.call('GET', viaProvider.callbackPath, { origin: null, cookie: viaProvider.binding });
    expect(landed.location).toBe(`${consoleOrigin}/`);
    secrets.push(valueOf(landed.session));
    // Refusals: the same callback again, and a nonce changed on the way.
    expect((await stand.call('GET', viaProvider.callbackPath, { origin: null, cookie: viaProvider.binding })).location).toContain('CON_1011');
    const forgedNonce = randomBytes(32).toString('base64url');
    const tampered = await browserAtCallback(stand, 'sub-pwd', (authorization) => authorization.searchParams.set('nonce', forgedNonce));
    const tamperedQuery = new URLSearchParams(tampered.callbackPath.split('?')[1]);
    secrets.push(forgedNonce, String(tamperedQuery.get('code')), String(tamperedQuery.get('state')), String(tampered.authorizationUrl.searchParams.get('nonce')));
    expect((await stand.call('GET', tampered.callbackPath, { origin: null, cookie: tampered.binding })).location).toContain('CON_1011');

    const logged = captured.text();
    expect(logged).toContain('listening');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(8);
      expect({ secret: `${secret.slice(0, 3)}…`, found: logged.includes(secret) }).toEqual({ secret: `${secret.slice(0, 3)}…`, found: false });
    }
    // Nor in the audit log.
    const audit = (await stand.database.pool.query<{ dump: string }>(`SELECT string_agg(row_to_json(a)::text, E'\\n') AS dump FROM audit_log a`)).rows[0]?.dump ?? '';
    expect(audit).toContain('operator.sign_in.oidc');
    for (const secret of secrets) expect({ secret: `${secret.slice(0, 3)}…`, found: audit.includes(secret) }).toEqual({ secret: `${secret.slice(0, 3)}…`, found: false });
  });
});
