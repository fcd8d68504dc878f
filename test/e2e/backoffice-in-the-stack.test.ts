import { chromium } from 'playwright-core';
import { requestOverPlainHttp } from '../support/https-client';
import { startBackofficeStack, type BackofficeStack } from '../support/stack';

/**
 * The back-office as a process of the stack (decision 0067): its console only over HTTPS with its
 * strict headers and __Host- session cookie, plain HTTP on its port answering the probes and
 * Prometheus and nothing of a person's, the first admin from the set-up CLI, operators seeded
 * through the console API, and four-eyes requests visible in its metrics.
 */
describe('the back-office in the stack', () => {
  let stack: BackofficeStack;

  beforeAll(async () => {
    stack = await startBackofficeStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('when a browser calls the console over HTTPS, then it answers with the strict headers and the console catalogue', async () => {
    const console = stack.backoffice.client();
    const answer = await console.get('/api/v1/session');
    expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 401, code: 'CON_1004' });
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains/);
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cache-control']).toContain('no-store');
    expect(stack.backoffice.baseUrl).toBe(`https://localhost:${stack.backoffice.port}`);
  });

  it('when plain HTTP reaches the port, then a page is redirected to the https address, a state change is refused unread, and only the probes and metrics answer', async () => {
    const page = await requestOverPlainHttp(stack.backoffice.port, 'GET', '/operators?x=1', { headers: { host: 'attacker.example' } });
    expect({ status: page.status, location: page.headers.location }).toEqual({ status: 308, location: `${stack.backoffice.baseUrl}/operators?x=1` });

    const signIn = await requestOverPlainHttp(stack.backoffice.port, 'POST', '/api/v1/session', { json: { email: 'a@operator.example', password: 'sent in clear' } });
    expect({ status: signIn.status, code: signIn.body?.code }).toEqual({ status: 403, code: 'PKC_6005' });
    expect(signIn.body.message).toContain(stack.backoffice.baseUrl);
    expect(signIn.headers['set-cookie']).toBeUndefined();

    for (const path of ['/healthz', '/readyz']) {
      const probe = await requestOverPlainHttp(stack.backoffice.port, 'GET', path);
      expect({ path, status: probe.status }).toEqual({ path, status: 200 });
    }
    const metrics = await requestOverPlainHttp(stack.backoffice.port, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^backoffice_plain_http_requests_total\{outcome="redirected",service="backoffice"\} [1-9]/m);
    expect(metrics.text).toMatch(/^backoffice_plain_http_requests_total\{outcome="refused",service="backoffice"\} [1-9]/m);
    expect(metrics.text).toMatch(/^backoffice_audit_chain_intact\{chain="audit_log",service="backoffice"\} 1$/m);
    expect(metrics.text).toMatch(/^backoffice_audit_chain_verified_timestamp_seconds\{service="backoffice"\} [1-9]/m);
    for (const reason of ['account_locked', 'address_throttled']) expect(metrics.text).toMatch(new RegExp(`^backoffice_sign_in_refusals\\{reason="${reason}",service="backoffice"\\} \\d+$`, 'm'));
    expect(metrics.text).toMatch(/^backoffice_approval_requests\{status="pending",service="backoffice"\} \d+$/m);
  });

  it('when the first admin is bootstrapped with the set-up CLI, then its link opens over HTTPS, set-up completes and the admin signs in with a __Host- cookie', async () => {
    const admin = await stack.backoffice.seedOperator({ name: 'Second Checker', roles: ['checker'] });
    expect(admin.roles).toEqual(['checker']);

    // The seed admin exists now: a second bootstrap is refused, and says why.
    const again = await stack.backoffice.setupCli(['bootstrap-admin', '--email', 'late@operator.example', '--name', 'Late']);
    expect(again.exitCode).toBe(1);
    expect(String(again.json?.error)).toMatch(/admin/i);

    const session = await admin.signIn();
    expect(session.cookie).toMatch(/^__Host-backoffice-session=/);
    const whoAmI = await session.get('/api/v1/session');
    expect({ status: whoAmI.status, roles: whoAmI.body?.data?.operator?.roles, email: whoAmI.body?.data?.operator?.email }).toEqual({ status: 200, roles: ['checker'], email: admin.email });
  });

  it('when a set-up link is opened, then the page comes over HTTPS and the session cookie is Secure, HttpOnly and SameSite=Strict', async () => {
    const invitee = await stack.backoffice.seedOperator({ name: 'A Viewer', roles: ['viewer'] });
    const browser = stack.backoffice.client();
    const setupPage = await browser.request('GET', '/setup', { headers: { accept: 'text/html' } });
    // The page is served whether or not the console's pages are built (404 names the build); either way with its strict headers.
    expect([200, 404]).toContain(setupPage.status);
    expect(setupPage.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const passwordStep = await browser.post('/api/v1/session', { email: invitee.email, password: invitee.password });
    expect(passwordStep.status).toBe(202);
    const cookie = String(passwordStep.headers['set-cookie']?.[0]);
    expect(cookie).toMatch(/^__Host-backoffice-session=[^;]+;/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('when it runs behind a TLS-terminating ingress (proxy, one trusted hop), then only requests the ingress received over HTTPS reach the console', async () => {
    const proxied = await stack.backoffice.startExtra({ TLS_MODE: 'proxy', BACKOFFICE_TRUSTED_PROXY_HOPS: '1' });
    try {
      const viaHttps = await requestOverPlainHttp(proxied.port, 'GET', '/api/v1/session', { headers: { 'x-forwarded-proto': 'https' } });
      expect({ status: viaHttps.status, code: viaHttps.body?.code }).toEqual({ status: 401, code: 'CON_1004' });

      const pageViaHttp = await requestOverPlainHttp(proxied.port, 'GET', '/audit-log', { headers: { 'x-forwarded-proto': 'http', host: 'attacker.example' } });
      expect({ status: pageViaHttp.status, location: pageViaHttp.headers.location }).toEqual({ status: 308, location: `${proxied.baseUrl}/audit-log` });

      const formViaHttp = await requestOverPlainHttp(proxied.port, 'POST', '/api/v1/session', { headers: { 'x-forwarded-proto': 'http' }, json: { email: 'a@operator.example', password: 'sent in clear' } });
      expect({ status: formViaHttp.status, code: formViaHttp.body?.code }).toEqual({ status: 403, code: 'PKC_6005' });

      // Without the ingress's header the request did not come through it: not HTTPS either.
      const direct = await requestOverPlainHttp(proxied.port, 'POST', '/api/v1/session', { json: { email: 'a@operator.example', password: 'x' } });
      expect(direct.status).toBe(403);

      const probe = await requestOverPlainHttp(proxied.port, 'GET', '/readyz');
      expect(probe.status).toBe(200);
    } finally {
      await proxied.stop();
    }
  });

  it('when Chromium is launched with the harness’s chromiumArgs, then the console is a secure context without a certificate error, as passkeys need', async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: stack.backoffice.chromiumArgs });
    try {
      const page = await browser.newPage();
      const answer = await page.goto(`${stack.backoffice.baseUrl}/api/v1/session`);
      expect(answer?.status()).toBe(401);
      // Evaluated in the page (a string: the tests compile without the DOM's types).
      expect(await page.evaluate('({ secure: window.isSecureContext, webauthn: typeof window.PublicKeyCredential })')).toEqual({ secure: true, webauthn: 'function' });
      const plain = await page.goto(`http://localhost:${stack.backoffice.port}/api/v1/session`);
      expect(page.url()).toBe(`${stack.backoffice.baseUrl}/api/v1/session`);
      expect(plain?.status()).toBe(401);
    } finally {
      await browser.close();
    }
  });
});
