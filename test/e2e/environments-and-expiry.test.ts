import type { JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { decodeToken } from '../support/tokens';

const productionTokenTtlSeconds = 2;

/** Credentials are per environment, production has no sandbox endpoints, and a token is good for its lifetime only. */
describe('environments and token expiry', () => {
  let sandbox: Stack;
  let production: Stack;

  beforeAll(async () => {
    [sandbox, production] = await Promise.all([
      startStack({ environment: 'sandbox' }),
      startStack({ environment: 'production', tokenTtlSeconds: productionTokenTtlSeconds }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([sandbox?.stop(), production?.stop()]);
  });

  test('when a sandbox token is presented to production, then production answers 401 PKC_1004', async () => {
    const sandboxToken = await accessTokenFor(sandbox.client, await onboardPartner(sandbox));

    const response = await production.client.get('/partner/v1/balance', { bearer: sandboxToken });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1004', message: expect.any(String) });
  });

  test('when a production token is presented to the sandbox, then the sandbox answers 401 PKC_1004', async () => {
    const productionToken = await accessTokenFor(production.client, await onboardPartner(production));
    expect(decodeToken(productionToken).payload).toMatchObject({
      iss: 'https://auth.production.partner-wallet.example',
      aud: 'partner-wallet-api:production',
    });

    const response = await sandbox.client.get('/partner/v1/balance', { bearer: productionToken });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1004', message: expect.any(String) });
  });

  test('when sandbox credentials are presented to the production token endpoint, then it answers 401 PKC_1002', async () => {
    const sandboxPartner = await onboardPartner(sandbox);

    const response = await production.client.post('/partner/auth/token', {
      client_id: sandboxPartner.clientId,
      client_secret: sandboxPartner.clientSecret,
    });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_1002' });
  });

  test('when production is asked for the sandbox endpoints, then the gateway and the service answer 404 PKC_6002', async () => {
    const productionPartner = await onboardPartner(production);
    // Production tokens live 2 s here (whole seconds: as little as 1 s): each call through the
    // gateway gets a fresh one, and a call whose token expired on the way (a loaded machine) is made
    // again with another, at most three times; any other answer is the answer.
    const withFreshToken = async (call: (bearer: string) => Promise<JsonResponse>): Promise<JsonResponse> => {
      for (let attempt = 1; ; attempt += 1) {
        const response = await call(await accessTokenFor(production.client, productionPartner));
        if (attempt === 3 || response.status !== 401 || response.body?.code !== 'PKC_1003') return response;
      }
    };

    for (const action of ['approve', 'decline', 'expire']) {
      const response = await withFreshToken((bearer) => production.client.post(`/partner/v1/sandbox/collection/PKC-1-AB/${action}`, {}, { bearer }));
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { success: false, code: 'PKC_6002', message: 'No such endpoint' } });
      const direct = await fetch(`${production.internalUrls.collections}/partner/v1/sandbox/collection/PKC-1-AB/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-partner-id': productionPartner.partnerId },
        body: '{}',
      });
      expect(direct.status).toBe(404);
    }
    // The partner's own endpoints are there.
    const read = await withFreshToken((bearer) => production.client.get('/partner/v1/collection/PKC-1-AB', { bearer }));
    expect(read.body).toMatchObject({ code: 'PKC_6002', message: expect.stringContaining('PKC-1-AB') });
  });

  test('when a token has expired, then the answer is 401 PKC_1003, while it was accepted before', async () => {
    const token = await accessTokenFor(production.client, await onboardPartner(production));
    const expiresAtMs = (decodeToken(token).payload.exp as number) * 1000;
    const before = await production.client.get('/partner/v1/balance', { bearer: token });
    expect(String(before.body?.code ?? '')).not.toMatch(/^PKC_100/);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAtMs - Date.now()) + 1_100));
    const after = await production.client.get('/partner/v1/balance', { bearer: token });

    expect(after.status).toBe(401);
    expect(after.body).toEqual({ success: false, code: 'PKC_1003', message: expect.any(String) });
  });
});
