import { bootstrapFirstAdmin } from '../../src/use-cases/bootstrap-first-admin';
import { consoleOrigin, startConsoleStand, totpCodeOf, type CallOptions, type ConsoleCall, type ConsoleStand } from '../support/console-stand';

/**
 * The back-office's console API for people, booted in-process on its real routes against the real
 * Postgres and Redis, driven as the console's page would: same-origin calls, the session in a
 * `__Host-` cookie, the CSRF token on every state change.
 */
const password = 'violet lagoon under 9 moons';
let stand: ConsoleStand;

beforeAll(async () => {
  stand = await startConsoleStand('backoffice_api');
});

afterAll(async () => {
  await stand?.stop();
});

const call = (method: string, path: string, options?: CallOptions): Promise<ConsoleCall> => stand.call(method, path, options);
const codeAt = (secretBase32: string): string => totpCodeOf(secretBase32, Date.now());

describe('the console API for people', () => {
  let secretBase32 = '';

  test('when the first admin opens the set-up link and completes it, then the enrolment is shown once and the account is active', async () => {
    const bootstrap = await bootstrapFirstAdmin(stand.database.pool, { email: 'ops.lead@operator.example', displayName: 'Ops Lead', consoleBaseUrl: consoleOrigin });
    if (bootstrap.kind === 'refused') throw new Error(bootstrap.reason);
    const token = new URL(bootstrap.setupLink).hash.replace('#token=', '');
    const begun = await call('POST', '/api/v1/setup/begin', { body: { token } });
    expect(begun.status).toBe(200);
    expect(begun.body.data).toMatchObject({ email: 'ops.lead@operator.example', otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\//) });
    secretBase32 = String(begun.body.data?.secretBase32);
    const weak = await call('POST', '/api/v1/setup/complete', { body: { token, password: 'password', enrolment: begun.body.data?.enrolment, code: codeAt(secretBase32) } });
    expect(weak).toMatchObject({ status: 400, body: { success: false, code: 'CON_1007', message: expect.stringContaining('12 characters') } });
    const done = await call('POST', '/api/v1/setup/complete', { body: { token, password, enrolment: begun.body.data?.enrolment, code: codeAt(secretBase32) } });
    expect(done.status).toBe(201);
    expect(await call('POST', '/api/v1/setup/begin', { body: { token } })).toMatchObject({ status: 410, body: { code: 'CON_1006' } });
  });

  test('when the admin signs in, then the password step sets a __Host- cookie that can only give the code, the code step rotates it, and sign-out ends it', async () => {
    const passwordStep = await call('POST', '/api/v1/session', { body: { email: 'ops.lead@operator.example', password } });
    expect(passwordStep.status).toBe(202);
    const setCookie = passwordStep.headers.getSetCookie()[0] ?? '';
    expect(setCookie).toMatch(/^__Host-backoffice-session=[A-Za-z0-9_-]+; Path=\/; Secure; HttpOnly; SameSite=Strict$/);
    const pending = passwordStep.cookie ?? '';
    const pendingCsrf = String(passwordStep.body.data?.csrfToken);
    expect(await call('GET', '/api/v1/session', { cookie: pending })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await call('POST', '/api/v1/session/mfa', { cookie: pending, body: { code: codeAt(secretBase32) } })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });

    // The set-up spent the current time step; the next step's code is inside the ±1 window and unspent.
    const nextStepCode = totpCodeOf(secretBase32, Date.now() + 30_000);
    const mfa = await call('POST', '/api/v1/session/mfa', { cookie: pending, csrf: pendingCsrf, body: { code: nextStepCode } });
    expect(mfa.status).toBe(200);
    const signedIn = mfa.cookie ?? '';
    const csrf = String(mfa.body.data?.csrfToken);
    expect(signedIn).not.toBe(pending);
    expect(csrf).not.toBe(pendingCsrf);
    expect(await call('GET', '/api/v1/session', { cookie: pending })).toMatchObject({ status: 401 });

    const me = await call('GET', '/api/v1/session', { cookie: signedIn });
    expect(me).toMatchObject({ status: 200, body: { data: { operator: { email: 'ops.lead@operator.example', roles: ['admin'] }, csrfToken: csrf } } });
    expect(me.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(me.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(me.headers.get('cache-control')).toContain('no-store');

    expect(await call('DELETE', '/api/v1/session', { cookie: signedIn, csrf: 'not-the-token' })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    expect(await call('DELETE', '/api/v1/session', { cookie: signedIn, csrf, origin: 'https://evil.example' })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    const out = await call('DELETE', '/api/v1/session', { cookie: signedIn, csrf });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-backoffice-session=; .*Max-Age=0/);
    expect(await call('GET', '/api/v1/session', { cookie: signedIn })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
  });

  test('when a sign-in comes from another site, names no account or has the wrong password, then the answers never tell accounts apart', async () => {
    expect(await call('POST', '/api/v1/session', { origin: 'https://evil.example', body: { email: 'ops.lead@operator.example', password } })).toMatchObject({ status: 403, body: { code: 'CON_1005' } });
    const unknown = await call('POST', '/api/v1/session', { body: { email: 'nobody@operator.example', password } });
    const wrong = await call('POST', '/api/v1/session', { body: { email: 'ops.lead@operator.example', password: 'wrong password, long enough' } });
    expect(unknown).toMatchObject({ status: 401, body: { success: false, code: 'CON_1001' } });
    expect(wrong.body).toEqual(unknown.body);
    expect(unknown.cookie).toBeUndefined();
  });

  test('when one address typed fails five times, then the sixth try is refused 429 with Retry-After even with any password, and other accounts are not locked', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await call('POST', '/api/v1/session', { body: { email: 'ghost@operator.example', password: `guess number ${attempt} is wrong` } })).toMatchObject({ status: 401, body: { code: 'CON_1001' } });
    }
    const locked = await call('POST', '/api/v1/session', { body: { email: 'ghost@operator.example', password } });
    expect(locked).toMatchObject({ status: 429, body: { code: 'CON_1002' } });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await call('POST', '/api/v1/session', { body: { email: 'ops.lead@operator.example', password } })).toMatchObject({ status: 202 });
  });

  test('when the input is malformed, then the answer is a 4xx naming what to fix and never a 5xx', async () => {
    expect(await call('POST', '/api/v1/session', { body: {} })).toMatchObject({ status: 400, body: { code: 'CON_2001', message: expect.stringContaining('email, password') } });
    expect(await call('POST', '/api/v1/session', { body: { email: ['a'], password: 7 } })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await call('POST', '/api/v1/session', { body: '{"email":' })).toMatchObject({ status: 400, body: { code: 'PKC_2008' } });
    expect(await call('POST', '/api/v1/setup/begin', { body: { token: 'x'.repeat(500) } })).toMatchObject({ status: 400, body: { code: 'CON_2001' } });
    expect(await call('POST', '/api/v1/setup/begin', { body: { token: 'not-a-real-link' } })).toMatchObject({ status: 410, body: { code: 'CON_1006' } });
    expect(await call('GET', '/api/v1/session', { cookie: '__Host-backoffice-session=%00%ff' })).toMatchObject({ status: 401, body: { code: 'CON_1004' } });
    expect(await call('GET', '/api/v1/nothing-here')).toMatchObject({ status: 404 });
  });
});
