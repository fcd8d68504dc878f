import { randomUUID } from 'node:crypto';
import { admitPartnerRequest, type AdmissionPorts, type AdmissionSettings } from '../../src/domain/admit-partner-request';
import type { PartnerRecord } from '../../src/domain/partner-access';
import type { WindowCount } from '@pwa/redis';
import { VerifiedTokenCache } from '../../src/domain/verified-token-cache';
import { claimsFor, createTestSigner } from '../support/signing';

const settings: AdmissionSettings = {
  issuer: 'https://auth.sandbox.partner-wallet.example',
  audience: 'partner-wallet-api:sandbox',
  clockToleranceSeconds: 0,
  defaultRateLimitPerMinute: 60,
};
const nowSeconds = 1_800_000_000;
const signer = createTestSigner('key-a');

function setUp(overrides: { partner?: PartnerRecord | undefined | 'down'; count?: Partial<WindowCount> | 'down' } = {}) {
  const partnerId = randomUUID();
  const clientId = randomUUID();
  const partner: PartnerRecord = { partnerId, clientId, status: 'active', permissions: ['collection'], rateLimitPerMinute: null };
  const token = signer.sign(claimsFor({ partnerId, clientId, issuer: settings.issuer, audience: settings.audience, nowSeconds }));
  const countPartnerRequest = jest.fn((_partnerId: string, limit: number): Promise<WindowCount> => {
    if (overrides.count === 'down') return Promise.reject(new Error('redis down'));
    return Promise.resolve({ allowed: true, limit, used: 1, resetAfterMs: 60_000, ...overrides.count });
  });
  const ports: AdmissionPorts = {
    signingKeyFor: (keyId) => Promise.resolve(keyId === signer.keyId ? signer.publicKey : undefined),
    partnerById: () => {
      if (overrides.partner === 'down') return Promise.reject(new Error('auth down'));
      return Promise.resolve('partner' in overrides ? overrides.partner : partner);
    },
    countPartnerRequest,
    nowSeconds: () => nowSeconds,
  };
  return { token, partner, ports, countPartnerRequest };
}

describe('admitPartnerRequest', () => {
  test('when everything checks out, then the partner is admitted with rate-limit headers', async () => {
    const { token, partner, ports } = setUp();

    const admission = await admitPartnerRequest(`Bearer ${token}`, 'collection', ports, settings);

    expect(admission.partner).toBe(partner);
    expect(admission.rateLimitHeaders).toEqual({ 'RateLimit-Limit': '60', 'RateLimit-Remaining': '59', 'RateLimit-Reset': '60' });
  });

  test('when the header is missing, then PKC_1005 with a Bearer challenge without error', async () => {
    const { ports } = setUp();

    await expect(admitPartnerRequest(undefined, null, ports, settings)).rejects.toMatchObject({
      code: 'PKC_1005',
      httpStatus: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="partner-wallet-api"' },
    });
  });

  test('when the Bearer header holds two tokens, then PKC_1005 with an invalid_request challenge', async () => {
    const { ports } = setUp();

    await expect(admitPartnerRequest('Bearer abc def', null, ports, settings)).rejects.toMatchObject({
      code: 'PKC_1005',
      headers: { 'WWW-Authenticate': expect.stringMatching(/^Bearer realm="partner-wallet-api", error="invalid_request"/) },
    });
  });

  test('when the key id is unknown, then PKC_1004 with an invalid_token challenge', async () => {
    const { ports } = setUp();
    const stranger = createTestSigner('key-z').sign(claimsFor({ partnerId: randomUUID(), clientId: randomUUID(), ...settings, nowSeconds }));

    await expect(admitPartnerRequest(`Bearer ${stranger}`, null, ports, settings)).rejects.toMatchObject({
      code: 'PKC_1004',
      headers: { 'WWW-Authenticate': expect.stringMatching(/^Bearer realm="partner-wallet-api", error="invalid_token", error_description="/) },
    });
  });

  test('when the token is not a JWT at all, then PKC_1004 with an invalid_token challenge', async () => {
    const { ports } = setUp();

    await expect(admitPartnerRequest('Bearer not-a-token', null, ports, settings)).rejects.toMatchObject({
      code: 'PKC_1004',
      headers: { 'WWW-Authenticate': expect.stringContaining('error="invalid_token"') },
    });
  });

  test('when the token has expired, then PKC_1003 with an invalid_token challenge that says so', async () => {
    const { token, ports } = setUp();
    ports.nowSeconds = () => nowSeconds + 7200;

    await expect(admitPartnerRequest(`Bearer ${token}`, null, ports, settings)).rejects.toMatchObject({
      code: 'PKC_1003',
      headers: { 'WWW-Authenticate': 'Bearer realm="partner-wallet-api", error="invalid_token", error_description="The access token expired"' },
    });
  });

  test('when the partner is refused for its status, then the 403 carries no challenge', async () => {
    const { token, partner, ports } = setUp();
    ports.partnerById = () => Promise.resolve({ ...partner, status: 'inactive' });

    await expect(admitPartnerRequest(`Bearer ${token}`, null, ports, settings)).rejects.toMatchObject({ code: 'PKC_1009', headers: {} });
  });

  test('when the partner is suspended, then PKC_1006 and the request does not count against its rate limit', async () => {
    const { token, partner, ports, countPartnerRequest } = setUp();
    ports.partnerById = () => Promise.resolve({ ...partner, status: 'suspended' });

    await expect(admitPartnerRequest(`Bearer ${token}`, null, ports, settings)).rejects.toMatchObject({ code: 'PKC_1006', httpStatus: 403 });
    expect(countPartnerRequest).not.toHaveBeenCalled();
  });

  test('when auth no longer knows the partner, then PKC_1009', async () => {
    const { token, ports } = setUp({ partner: undefined });

    await expect(admitPartnerRequest(`Bearer ${token}`, null, ports, settings)).rejects.toMatchObject({ code: 'PKC_1009' });
  });

  test('when the partner lacks the route permission, then PKC_1008', async () => {
    const { token, ports } = setUp();

    await expect(admitPartnerRequest(`Bearer ${token}`, 'disbursement', ports, settings)).rejects.toMatchObject({ code: 'PKC_1008' });
  });

  test('when the partner has its own limit, then that limit is counted against', async () => {
    const { token, partner, ports, countPartnerRequest } = setUp();
    ports.partnerById = () => Promise.resolve({ ...partner, rateLimitPerMinute: 600 });

    await admitPartnerRequest(`Bearer ${token}`, null, ports, settings);

    expect(countPartnerRequest).toHaveBeenCalledWith(partner.partnerId, 600);
  });

  test('when the partner is over its limit, then PKC_7001 with Retry-After and the rate-limit headers', async () => {
    const { token, ports } = setUp({ count: { allowed: false, used: 60, resetAfterMs: 30_000 } });

    await expect(admitPartnerRequest(`Bearer ${token}`, null, ports, settings)).rejects.toMatchObject({
      code: 'PKC_7001',
      httpStatus: 429,
      headers: { 'Retry-After': '30', 'RateLimit-Remaining': '0', 'RateLimit-Limit': '60', 'RateLimit-Reset': '30' },
    });
  });

  test.each([
    ['auth cannot be reached', { partner: 'down' as const }],
    ['Redis cannot be reached', { count: 'down' as const }],
  ])('when %s, then PKC_7003 (fail closed)', async (_case, overrides) => {
    const { token, ports } = setUp(overrides);

    await expect(admitPartnerRequest(`Bearer ${token}`, null, ports, settings)).rejects.toMatchObject({ code: 'PKC_7003', httpStatus: 503 });
  });
});

describe('admitPartnerRequest with the verified-token cache', () => {
  test('when a token was verified once, then the next request does not look up its key again', async () => {
    const { token, ports } = setUp();
    const signingKeyFor = jest.fn(ports.signingKeyFor);
    const cachedPorts: AdmissionPorts = { ...ports, signingKeyFor, verifiedTokens: new VerifiedTokenCache(10) };

    await admitPartnerRequest(`Bearer ${token}`, 'collection', cachedPorts, settings);
    await admitPartnerRequest(`Bearer ${token}`, 'collection', cachedPorts, settings);

    expect(signingKeyFor).toHaveBeenCalledTimes(1);
  });

  test('when a remembered token has expired since, then PKC_1003', async () => {
    const { token, ports } = setUp();
    let now = nowSeconds;
    const cachedPorts: AdmissionPorts = { ...ports, nowSeconds: () => now, verifiedTokens: new VerifiedTokenCache(10) };
    await admitPartnerRequest(`Bearer ${token}`, 'collection', cachedPorts, settings);

    now = nowSeconds + 3600;

    await expect(admitPartnerRequest(`Bearer ${token}`, 'collection', cachedPorts, settings)).rejects.toMatchObject({
      code: 'PKC_1003',
      headers: { 'WWW-Authenticate': expect.stringContaining('error="invalid_token"') },
    });
  });

  test('when a remembered token is tampered with, then the altered token is verified afresh and refused', async () => {
    const { token, ports } = setUp();
    const cachedPorts: AdmissionPorts = { ...ports, verifiedTokens: new VerifiedTokenCache(10) };
    await admitPartnerRequest(`Bearer ${token}`, 'collection', cachedPorts, settings);
    const [header, payload, signature] = token.split('.');
    const tampered = `${header}.${payload}x.${signature}`;

    await expect(admitPartnerRequest(`Bearer ${tampered}`, 'collection', cachedPorts, settings)).rejects.toMatchObject({ code: 'PKC_1004' });
  });

  test('when a token fails verification, then it is not remembered', async () => {
    const { ports } = setUp();
    const cache = new VerifiedTokenCache(10);
    const stranger = createTestSigner('key-z').sign(claimsFor({ partnerId: randomUUID(), clientId: randomUUID(), ...settings, nowSeconds }));

    await expect(admitPartnerRequest(`Bearer ${stranger}`, null, { ...ports, verifiedTokens: cache }, settings)).rejects.toMatchObject({
      code: 'PKC_1004',
    });
    expect(cache.size).toBe(0);
  });
});

describe('VerifiedTokenCache', () => {
  test('when it is full, then the oldest token is forgotten first', () => {
    const cache = new VerifiedTokenCache(2);
    const claims = { partnerId: randomUUID(), clientId: randomUUID(), expiresAtSeconds: nowSeconds };
    cache.remember('a', claims);
    cache.remember('b', claims);
    cache.remember('c', claims);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, claims, claims]);
    expect(cache.size).toBe(2);
  });
});
