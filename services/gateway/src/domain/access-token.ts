import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { uuidPattern } from '@pwa/contracts';

/** The only signing algorithm the platform issues. Everything else (none, HS256, RS256) is refused. */
export const acceptedTokenAlgorithm = 'ES256';

export interface AccessTokenClaims {
  partnerId: string;
  clientId: string;
  expiresAtSeconds: number;
}

export interface TokenExpectations {
  issuer: string;
  audience: string;
  nowSeconds: number;
  clockToleranceSeconds: number;
}

export type TokenVerdict =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; code: 'PKC_1003' | 'PKC_1004'; reason: string };

/**
 * Reads the key id from a token's header without trusting anything else in it. Undefined means
 * the token cannot be ours: not three JSON parts, another algorithm, or no key id.
 */
export function signingKeyIdOf(token: string): string | undefined {
  const [encodedHeader, , signature, ...rest] = token.split('.');
  if (encodedHeader === undefined || signature === undefined || signature === '' || rest.length > 0) return undefined;
  const header = parseJsonObject(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
  if (header?.alg !== acceptedTokenAlgorithm) return undefined;
  return typeof header.kid === 'string' && header.kid.length > 0 ? header.kid : undefined;
}

/**
 * Verifies a token against the public key its key id named. The order matters: signature, issuer
 * and audience first, expiry last, so that PKC_1003 ("expired, re-authenticate") is only ever said
 * about a token we really issued; a forged expired token is PKC_1004.
 */
export function verifyAccessToken(token: string, publicKey: KeyObject, expectations: TokenExpectations): TokenVerdict {
  let payload: unknown;
  try {
    payload = jwt.verify(token, publicKey, {
      algorithms: [acceptedTokenAlgorithm],
      issuer: expectations.issuer,
      audience: expectations.audience,
      ignoreExpiration: true,
      clockTimestamp: expectations.nowSeconds,
      clockTolerance: expectations.clockToleranceSeconds,
    });
  } catch (error) {
    return { ok: false, code: 'PKC_1004', reason: error instanceof Error ? error.message : 'invalid token' };
  }
  const claims = claimsOf(payload);
  if (claims === undefined) return { ok: false, code: 'PKC_1004', reason: 'claims missing or of the wrong type' };
  if (expectations.nowSeconds >= claims.expiresAtSeconds + expectations.clockToleranceSeconds) {
    return { ok: false, code: 'PKC_1003', reason: 'token expired' };
  }
  return { ok: true, claims };
}

function claimsOf(payload: unknown): AccessTokenClaims | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { sub, cid, exp } = payload as { sub?: unknown; cid?: unknown; exp?: unknown };
  if (typeof sub !== 'string' || !uuidPattern.test(sub)) return undefined;
  if (typeof cid !== 'string' || !uuidPattern.test(cid)) return undefined;
  // A token without an expiry would be valid forever; the platform never issues one.
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  return { partnerId: sub.toLowerCase(), clientId: cid.toLowerCase(), expiresAtSeconds: exp };
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
