import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** An ES256 key pair and a signer, standing in for auth's keyring in gateway tests. */
export interface TestSigner {
  keyId: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
  sign(payload: Record<string, unknown>, header?: Record<string, unknown>): string;
}

export function createTestSigner(keyId = 'test-key-1'): TestSigner {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    keyId,
    publicKey,
    privateKey,
    sign: (payload, header = {}) => {
      const encodedHeader = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: keyId, ...header })).toString('base64url');
      const encodedPayload = Buffer.from(JSON.stringify(payload)).toString('base64url');
      const input = `${encodedHeader}.${encodedPayload}`;
      const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      return `${input}.${signature.toString('base64url')}`;
    },
  };
}

export function claimsFor(options: { partnerId: string; clientId: string; issuer: string; audience: string; nowSeconds: number; ttlSeconds?: number }): Record<string, unknown> {
  return {
    iss: options.issuer,
    aud: options.audience,
    sub: options.partnerId,
    cid: options.clientId,
    perms: ['collection', 'disbursement'],
    env: 'sandbox',
    jti: 'test-jti',
    iat: options.nowSeconds,
    exp: options.nowSeconds + (options.ttlSeconds ?? 3600),
  };
}
