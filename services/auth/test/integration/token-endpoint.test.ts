import { createPublicKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
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
    ['empty body', {}],
  ])('when the body has %s, then it is 401 PKC_1001', async (_label, body) => {
    const response = await requestToken(body);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_1001' });
  });

  it('when the body is not valid JSON, then it is 401 PKC_1001 in the envelope', async () => {
    const response = await requestToken('{"client_id": ');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_1001' });
  });

  it('when the client id is unknown or the secret is wrong, then both are 401 PKC_1002 with the same message', async () => {
    const partner = await onboard();
    const unknown = await requestToken({ client_id: randomUUID(), client_secret: partner.clientSecret });
    const wrong = await requestToken({ client_id: partner.clientId, client_secret: `${partner.clientSecret}x` });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.code).toBe('PKC_1002');
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
    expect(response.body).toMatchObject({ success: false, code });
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
  });

  it('when the partner id is unknown, then it is 403 PKC_1009', async () => {
    const response = await fetch(`${harness.baseUrl}/internal/partners/${randomUUID()}`);
    expect(response.status).toBe(403);
  });
});
