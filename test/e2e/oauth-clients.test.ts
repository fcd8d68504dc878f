import https from 'node:https';
import { Issuer, custom, errors as openidErrors, type BaseClient } from 'openid-client';
import { ClientCredentials, type ModuleOptions } from 'simple-oauth2';
import { onboardPartner, type OnboardedPartner } from '../support/partners';
import { runOauth4webapi } from '../support/oauth4webapi';
import { startStack, type Stack } from '../support/stack';

/**
 * Partners' standard OAuth 2.0 client libraries, used unchanged as their documentation shows, get a
 * token through the gateway over HTTPS (trusting only the stack's CA certificate) with
 * client_secret_basic and client_secret_post, and call a bearer route with it; their error
 * handling sees RFC 6749 `error` codes and RFC 6750 / RFC 6749 `WWW-Authenticate` challenges.
 */
describe('standard OAuth 2.0 client libraries', () => {
  let stack: Stack;
  let partner: OnboardedPartner;
  let agent: https.Agent;
  /** Every secret, token and Basic credential this file handles; none may appear in any process log. */
  const secrets: string[] = [];

  const origin = (): string => new URL(stack.baseUrl).origin;
  const tokenPath = '/api/v1/partner/auth/token';
  const tokenEndpoint = (): string => `${origin()}${tokenPath}`;
  const balanceUrl = (): string => `${stack.baseUrl}/partner/v1/balance`;

  beforeAll(async () => {
    stack = await startStack();
    partner = await onboardPartner(stack);
    secrets.push(partner.clientSecret, basicValueOf(partner.clientId, partner.clientSecret));
    agent = new https.Agent({ ca: stack.certificatePem, keepAlive: false });
  });

  afterAll(async () => {
    agent?.destroy();
    await stack?.stop();
  });

  async function expectBalanceWith(accessToken: string): Promise<void> {
    secrets.push(accessToken);
    const response = await stack.client.get('/partner/v1/balance', { bearer: accessToken });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true });
  }

  describe('simple-oauth2', () => {
    function simpleOauth2(credentials: { clientId: string; clientSecret: string }, options: ModuleOptions['options']): ClientCredentials {
      return new ClientCredentials({
        client: { id: credentials.clientId, secret: credentials.clientSecret },
        auth: { tokenHost: origin(), tokenPath },
        options,
        // The library's HTTP client (wreck) takes a node agent; this one trusts only the stack's CA.
        http: { agent },
      });
    }

    test.each([
      ['client_secret_basic (Authorization header, form body)', { authorizationMethod: 'header' as const }],
      ['client_secret_basic without form-encoding the id and secret (its "loose" mode)', { authorizationMethod: 'header' as const, credentialsEncodingMode: 'loose' as const }],
      ['client_secret_post (form body)', { authorizationMethod: 'body' as const }],
      ['client_secret_post (JSON body)', { authorizationMethod: 'body' as const, bodyFormat: 'json' as const }],
    ])('when it requests a token with %s, then it gets a Bearer token that the balance route accepts', async (_method, options) => {
      const accessToken = await simpleOauth2(partner, options).getToken({});

      expect(accessToken.token).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String) });
      await expectBalanceWith(accessToken.token.access_token as string);
    });

    test.each([
      ['client_secret_basic', 'header' as const],
      ['client_secret_post', 'body' as const],
    ])('when the secret is wrong with %s, then it fails on 401 PKC_1002 with error invalid_client and the Basic challenge', async (_method, authorizationMethod) => {
      const failure = await failureOf(simpleOauth2({ clientId: partner.clientId, clientSecret: `${partner.clientSecret}x` }, { authorizationMethod }).getToken({}));

      expect(failure.status).toBe(401);
      expect(failure.payload).toEqual({ success: false, code: 'PKC_1002', message: expect.any(String), error: 'invalid_client' });
      expect(failure.wwwAuthenticate).toBe('Basic realm="partner-wallet-api"');
    });

    test('when Basic and body credentials differ, then it fails on 401 PKC_1001 with error invalid_request', async () => {
      const client = simpleOauth2(partner, { authorizationMethod: 'header' });

      const failure = await failureOf(client.getToken({ client_id: partner.clientId, client_secret: `${partner.clientSecret}-other` }));

      expect(failure.status).toBe(401);
      expect(failure.payload).toMatchObject({ code: 'PKC_1001', error: 'invalid_request' });
      expect(failure.wwwAuthenticate).toBe('Basic realm="partner-wallet-api"');
    });

    /** simple-oauth2 rejects with wreck's Boom error, which keeps the response and its parsed payload. */
    async function failureOf(pending: Promise<unknown>): Promise<{ status?: number; payload?: unknown; wwwAuthenticate?: string }> {
      const error = (await pending.then(
        () => {
          throw new Error('the token request succeeded');
        },
        (rejection: unknown) => rejection,
      )) as { output?: { statusCode?: number }; data?: { payload?: unknown; res?: { headers?: Record<string, string> } } };
      return { status: error.output?.statusCode, payload: error.data?.payload, wwwAuthenticate: error.data?.res?.headers?.['www-authenticate'] };
    }
  });

  describe('openid-client', () => {
    function openidClient(credentials: { clientId: string; clientSecret: string }, method: 'client_secret_basic' | 'client_secret_post'): BaseClient {
      const issuer = new Issuer({ issuer: origin(), token_endpoint: tokenEndpoint() });
      const client = new issuer.Client({ client_id: credentials.clientId, client_secret: credentials.clientSecret, token_endpoint_auth_method: method });
      // openid-client's documented hook for per-client HTTP options: trust only the stack's CA.
      client[custom.http_options] = (_url, options) => ({ ...options, ca: stack.certificatePem });
      return client;
    }

    test.each([['client_secret_basic' as const], ['client_secret_post' as const]])(
      'when it requests a token with %s, then it gets a Bearer token and its requestResource reaches the balance',
      async (method) => {
        const client = openidClient(partner, method);

        const tokenSet = await client.grant({ grant_type: 'client_credentials' });
        const response = await client.requestResource(balanceUrl(), tokenSet);

        // openid-client's TokenSet reads expires_in from the expiry time it computed on receipt, so a
        // second boundary crossed since then makes it 3599: the token itself is issued for 3600 s.
        expect(tokenSet.token_type).toBe('Bearer');
        expect(tokenSet.expires_in).toBeGreaterThanOrEqual(3590);
        expect(tokenSet.expires_in).toBeLessThanOrEqual(3600);
        secrets.push(tokenSet.access_token ?? '');
        expect(response.statusCode).toBe(200);
        expect(JSON.parse((response.body as Buffer).toString('utf8'))).toMatchObject({ success: true });
        await expectBalanceWith(tokenSet.access_token ?? '');
      },
    );

    test.each([['client_secret_basic' as const], ['client_secret_post' as const]])(
      'when the secret is wrong with %s, then it throws an OPError invalid_client from a 401 with the Basic challenge',
      async (method) => {
        const client = openidClient({ clientId: partner.clientId, clientSecret: `${partner.clientSecret}x` }, method);

        const error = await client.grant({ grant_type: 'client_credentials' }).catch((rejection: unknown) => rejection);

        expect(error).toBeInstanceOf(openidErrors.OPError);
        const opError = error as InstanceType<typeof openidErrors.OPError>;
        expect(opError.error).toBe('invalid_client');
        expect(opError.response?.statusCode).toBe(401);
        expect(opError.response?.headers['www-authenticate']).toBe('Basic realm="partner-wallet-api"');
      },
    );

    test('when Basic and body credentials differ, then it throws an OPError invalid_request', async () => {
      const client = openidClient(partner, 'client_secret_basic');

      const error = await client.grant({ grant_type: 'client_credentials', client_secret: `${partner.clientSecret}-other` }).catch((rejection: unknown) => rejection);

      expect((error as InstanceType<typeof openidErrors.OPError>).error).toBe('invalid_request');
      expect((error as InstanceType<typeof openidErrors.OPError>).response?.statusCode).toBe(401);
    });

    test('when a grant other than client_credentials is asked for, then it throws an OPError unsupported_grant_type', async () => {
      const client = openidClient(partner, 'client_secret_basic');

      const error = await client.grant({ grant_type: 'password', username: 'u', password: 'p' }).catch((rejection: unknown) => rejection);

      expect((error as InstanceType<typeof openidErrors.OPError>).error).toBe('unsupported_grant_type');
    });

    test('when a bearer route is called with a token that is not ours, then requestResource sees 401 and the RFC 6750 invalid_token challenge', async () => {
      const client = openidClient(partner, 'client_secret_basic');

      const response = await client.requestResource(balanceUrl(), 'not-a-token');

      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="partner-wallet-api", error="invalid_token", error_description="[^"]+"$/);
    });
  });

  describe('oauth4webapi', () => {
    const plan = (method: 'client_secret_basic' | 'client_secret_post', clientSecret = partner.clientSecret) => ({
      issuer: origin(),
      tokenEndpoint: tokenEndpoint(),
      caPem: stack.certificatePem,
      clientId: partner.clientId,
      clientSecret,
      method,
    });

    test.each([['client_secret_basic' as const], ['client_secret_post' as const]])(
      'when it requests a token with %s, then it gets a Bearer token and its protectedResourceRequest reaches the balance',
      async (method) => {
        const { token, resource } = await runOauth4webapi({ ...plan(method), resourceUrl: balanceUrl() });

        expect(token).toMatchObject({ ok: true, tokenType: 'bearer', expiresIn: 3600 });
        secrets.push(token.accessToken ?? '');
        expect(resource).toMatchObject({ ok: true, status: 200, body: { success: true } });
      },
    );

    test.each([['client_secret_basic' as const], ['client_secret_post' as const]])(
      'when the secret is wrong with %s, then it throws the Basic challenge of a 401 whose body says invalid_client',
      async (method) => {
        const { token } = await runOauth4webapi(plan(method, `${partner.clientSecret}x`));

        expect(token).toMatchObject({
          ok: false,
          name: 'WWWAuthenticateChallengeError',
          status: 401,
          challenges: [{ scheme: 'basic', parameters: { realm: 'partner-wallet-api' } }],
          body: { success: false, code: 'PKC_1002', error: 'invalid_client' },
        });
      },
    );

    test('when Basic and body credentials differ, then the 401 body says invalid_request', async () => {
      const { token } = await runOauth4webapi({ ...plan('client_secret_basic'), parameters: { client_secret: `${partner.clientSecret}-other` } });

      expect(token).toMatchObject({ ok: false, status: 401, body: { code: 'PKC_1001', error: 'invalid_request' } });
    });

    test('when the same credentials are in Basic and in the body, then the token is issued', async () => {
      const { token } = await runOauth4webapi({ ...plan('client_secret_basic'), parameters: { client_id: partner.clientId, client_secret: partner.clientSecret } });

      expect(token).toMatchObject({ ok: true, tokenType: 'bearer' });
      secrets.push(token.accessToken ?? '');
    });
  });

  describe('the bearer routes, as any client sees them', () => {
    test('when a bearer route is called without a token, then the 401 PKC_1005 carries the Bearer challenge without an error', async () => {
      const response = await stack.client.get('/partner/v1/balance');

      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'PKC_1005', message: expect.any(String) });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="partner-wallet-api"');
    });
  });

  test('when every exchange above is done, then no client secret, Basic credential or token appears in any process log', () => {
    const logs = stack.logs();

    expect(logs.length).toBeGreaterThan(0);
    expect(secrets.length).toBeGreaterThan(8);
    for (const secret of secrets.filter((value) => value.length > 0)) expect(logs.includes(secret)).toBe(false);
    expect(logs).not.toMatch(/Basic [A-Za-z0-9+/]{20,}/);
    expect(logs).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
  });
});

/** The Basic credentials as a strict RFC 6749 client would send them (for the log check). */
function basicValueOf(clientId: string, clientSecret: string): string {
  return Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
}
