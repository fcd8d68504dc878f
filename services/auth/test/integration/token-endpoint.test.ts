import { createPublicKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { internal } from '@pwa/contracts';
import { changePartner, onboardPartner, rotateClientSecret } from '../../src/use-cases/manage-partners';
import { postJson, startAuthHarness, type AuthHarness } from './auth-harness';

let harness: AuthHarness;

beforeAll(async () => {
  harness = await startAuthHarness();
});

afterAll(async () => {
  await harness.stop();
});

function onboard(status: 'active' | 'pending_activation' = 'active') {
  return onboardPartner(harness.service.pool, 'sandbox', harness.webhookSecretSealingKey, {
    name: `partner ${randomUUID()}`,
    permissions: ['collection'],
    status,
    rateLimitPerMinute: null,
    webhookUrl: null,
  });
}

function requestToken(body: unknown, contentType?: string) {
  return postJson(`${harness.baseUrl}/partner/auth/token`, body, contentType);
}

/** client_secret_basic (RFC 6749 §2.3.1), with an optional form or JSON body beside it. */
async function requestTokenWithBasic(clientId: string, clientSecret: string, body?: { form: Record<string, string> } | { json: Record<string, string> }) {
  const encoded = body === undefined ? undefined : 'form' in body ? new URLSearchParams(body.form).toString() : JSON.stringify(body.json);
  const contentType = body === undefined ? undefined : 'form' in body ? 'application/x-www-form-urlencoded' : 'application/json';
  const response = await fetch(`${harness.baseUrl}/partner/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    },
    ...(encoded === undefined ? {} : { body: encoded }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

const basicChallenge = 'Basic realm="partner-wallet-api"';

async function verifyWithJwks(token: string): Promise<jwt.JwtPayload> {
  const jwks = (await (await fetch(`${harness.baseUrl}/internal/jwks`)).json()) as { keys: Array<{ kid: string }> };
  const kid = jwt.decode(token, { complete: true })?.header.kid;
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`kid ${String(kid)} is not published`);
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  return jwt.verify(token, key, {
    algorithms: ['ES256'],
    issuer: harness.config.TOKEN_ISSUER,
    audience: harness.config.TOKEN_AUDIENCE,
  }) as jwt.JwtPayload;
}

describe('POST /partner/auth/token', () => {
  it('when an active partner presents its credentials, then it gets a bare ES256 token object for an hour', async () => {
    const partner = await onboard();
    const response = await requestToken({ client_id: partner.clientId, client_secret: partner.clientSecret });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const claims = await verifyWithJwks(response.body.access_token);
    expect(claims).toMatchObject({ sub: partner.partnerId, cid: partner.clientId, perms: ['collection'], env: 'sandbox' });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(jwt.decode(response.body.access_token, { complete: true })?.header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  });

  it('when the credentials arrive form-encoded with grant_type, then a token is issued too', async () => {
    const partner = await onboard();
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret });
    const response = await requestToken(form.toString(), 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
  });

  it.each([
    ['missing client_secret', { client_id: randomUUID() }],
    ['non-UUID client_id', { client_id: 'abc', client_secret: 'x' }],
  ])('when the body has %s, then it is 401 PKC_1001 invalid_request with the Basic challenge', async (_label, body) => {
    const response = await requestToken(body);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_request' });
    expect(response.headers.get('www-authenticate')).toBe(basicChallenge);
  });

  it('when the body carries no credentials and there is no Authorization header, then it is 401 PKC_1001 invalid_client', async () => {
    const response = await requestToken({});
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'PKC_1001', error: 'invalid_client' });
    expect(response.headers.get('www-authenticate')).toBe(basicChallenge);
  });

  it('when the body is not valid JSON, then it is 401 PKC_1001 invalid_request in the envelope with the Basic challenge', async () => {
    const response = await requestToken('{"client_id": ');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_request' });
    expect(response.headers.get('www-authenticate')).toBe(basicChallenge);
  });

  it('when grant_type is not client_credentials, then it is 401 PKC_1001 unsupported_grant_type', async () => {
    const partner = await onboard();
    const response = await requestToken({ grant_type: 'password', client_id: partner.clientId, client_secret: partner.clientSecret });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'PKC_1001', error: 'unsupported_grant_type' });
  });

  it('when the client id is unknown or the secret is wrong, then both are 401 PKC_1002 with the same message', async () => {
    const partner = await onboard();
    const unknown = await requestToken({ client_id: randomUUID(), client_secret: partner.clientSecret });
    const wrong = await requestToken({ client_id: partner.clientId, client_secret: `${partner.clientSecret}x` });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body).toEqual({ success: false, code: 'PKC_1002', message: expect.any(String), error: 'invalid_client' });
    expect(wrong.headers.get('www-authenticate')).toBe(basicChallenge);
  });

  it.each([
    ['suspended', 'PKC_1006'],
    ['pending_activation', 'PKC_1007'],
    ['inactive', 'PKC_1009'],
  ] as const)('when the partner is %s, then the right secret gets 403 %s', async (status, code) => {
    const partner = await onboard();
    await changePartner(harness.service.pool, partner.clientId, { status });
    const response = await requestToken({ client_id: partner.clientId, client_secret: partner.clientSecret });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code, message: expect.any(String), error: 'unauthorized_client' });
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('when the credentials arrive in Authorization: Basic with a form body carrying grant_type, then a token is issued', async () => {
    const partner = await onboard();
    const response = await requestTokenWithBasic(partner.clientId, partner.clientSecret, { form: { grant_type: 'client_credentials' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  });

  it('when the credentials arrive in Authorization: Basic without any body, then a token is issued', async () => {
    const partner = await onboard();
    const response = await requestTokenWithBasic(partner.clientId, partner.clientSecret);
    expect(response.status).toBe(200);
  });

  it('when the body repeats the Basic credentials, then a token is issued', async () => {
    const partner = await onboard();
    const json = { grant_type: 'client_credentials', client_id: partner.clientId.toUpperCase(), client_secret: partner.clientSecret };
    const response = await requestTokenWithBasic(partner.clientId, partner.clientSecret, { json });
    expect(response.status).toBe(200);
  });

  it('when the body names other credentials than the Basic header, then it is 401 PKC_1001 invalid_request, even if the body is right', async () => {
    const partner = await onboard();
    const json = { client_id: partner.clientId, client_secret: partner.clientSecret };
    const response = await requestTokenWithBasic(partner.clientId, `${partner.clientSecret}x`, { json });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_request' });
    expect(response.headers.get('www-authenticate')).toBe(basicChallenge);
  });

  it('when the Basic secret is wrong, then it is 401 PKC_1002 invalid_client with the Basic challenge', async () => {
    const partner = await onboard();
    const response = await requestTokenWithBasic(partner.clientId, `${partner.clientSecret}x`, { json: { grant_type: 'client_credentials' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1002', message: expect.any(String), error: 'invalid_client' });
    expect(response.headers.get('www-authenticate')).toBe(basicChallenge);
  });

  it('when a suspended partner sends a wrong secret, then its status is not revealed (PKC_1002)', async () => {
    const partner = await onboard();
    await changePartner(harness.service.pool, partner.clientId, { status: 'suspended' });
    const response = await requestToken({ client_id: partner.clientId, client_secret: 'guess' });
    expect(response.body.code).toBe('PKC_1002');
  });

  it('when the secret is rotated, then the old secret fails and the new one works', async () => {
    const partner = await onboard();
    const rotated = await rotateClientSecret(harness.service.pool, 'sandbox', partner.clientId);
    expect((await requestToken({ client_id: partner.clientId, client_secret: partner.clientSecret })).body.code).toBe('PKC_1002');
    expect((await requestToken({ client_id: partner.clientId, client_secret: rotated.clientSecret })).status).toBe(200);
  });

  it('when the signing key is rotated, then tokens of the old key still verify and new tokens use the new key', async () => {
    const partner = await onboard();
    const credentials = { client_id: partner.clientId, client_secret: partner.clientSecret };
    const before = (await requestToken(credentials)).body.access_token as string;
    const newKid = await harness.service.keyring.rotate();
    const after = (await requestToken(credentials)).body.access_token as string;
    expect(jwt.decode(after, { complete: true })?.header.kid).toBe(newKid);
    expect(jwt.decode(before, { complete: true })?.header.kid).not.toBe(newKid);
    await expect(verifyWithJwks(before)).resolves.toMatchObject({ sub: partner.partnerId });
    await expect(verifyWithJwks(after)).resolves.toMatchObject({ sub: partner.partnerId });
  });
});

describe('internal partner lookup', () => {
  it('when the gateway asks for a partner by id, then it gets status, permissions and overrides but never the secret hash', async () => {
    const partner = await onboard('pending_activation');
    const response = await fetch(`${harness.baseUrl}/internal/partners/${partner.partnerId}`);
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(200);
    expect(body).toEqual({
      partnerId: partner.partnerId,
      clientId: partner.clientId,
      name: partner.name,
      status: 'pending_activation',
      permissions: ['collection'],
      rateLimitPerMinute: null,
      webhookUrl: null,
    });
    // The answer keeps auth's contract for the route, which the gateway and the wallet's CLI parse it with.
    expect(internal.partnerLookupAnswerSchema.safeParse(body).error).toBeUndefined();
  });

  it('when the partner id is unknown, then it is 403 PKC_1009', async () => {
    const response = await fetch(`${harness.baseUrl}/internal/partners/${randomUUID()}`);
    expect(response.status).toBe(403);
  });
});
