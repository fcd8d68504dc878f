import { createHmac, createPublicKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';

/** Tools to forge the kinds of bad tokens an attacker would try; the gateway must refuse them all. */
export interface DecodedToken {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

export function decodeToken(token: string): DecodedToken {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new Error('not a JWT');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>,
    signature,
  };
}

function encodePart(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Same signature, different claims. */
export function tamperedToken(token: string, changes: Record<string, unknown>): string {
  const decoded = decodeToken(token);
  return `${encodePart(decoded.header)}.${encodePart({ ...decoded.payload, ...changes })}.${decoded.signature}`;
}

/** "alg": "none" with an empty signature: the oldest trick. */
export function unsignedToken(token: string): string {
  const decoded = decodeToken(token);
  return `${encodePart({ ...decoded.header, alg: 'none' })}.${encodePart(decoded.payload)}.`;
}

/** HS256 keyed with the public key's PEM: works against verifiers that let the token pick the algorithm. */
export function hmacWithPublicKeyToken(token: string, publicKeyPem: string): string {
  const decoded = decodeToken(token);
  const input = `${encodePart({ ...decoded.header, alg: 'HS256' })}.${encodePart(decoded.payload)}`;
  return `${input}.${createHmac('sha256', publicKeyPem).update(input).digest('base64url')}`;
}

/** A correctly shaped ES256 token signed by a key the platform never had, optionally with changed claims. */
export function foreignKeyToken(token: string, changes: Record<string, unknown> = {}, keyId?: string): string {
  const decoded = decodeToken(token);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const header = { ...decoded.header, ...(keyId === undefined ? {} : { kid: keyId }) };
  return signEs256(header, { ...decoded.payload, ...changes }, privateKey);
}

export function signEs256(header: Record<string, unknown>, payload: Record<string, unknown>, privateKey: KeyObject): string {
  const input = `${encodePart({ ...header, alg: 'ES256' })}.${encodePart(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** The PEM of the public key auth publishes under a key id (from its internal JWKS endpoint). */
export async function publishedPublicKeyPem(authUrl: string, keyId: string): Promise<string> {
  const response = await fetch(`${authUrl}/internal/jwks`);
  const { keys } = (await response.json()) as { keys: (JsonWebKey & { kid?: string })[] };
  const jwk = keys.find((key) => key.kid === keyId);
  if (!jwk) throw new Error(`auth publishes no key ${keyId}`);
  return createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
}
