import type { KeyObject } from 'node:crypto';
import type { PartnerPermission } from '@pwa/contracts';
import { PkcError } from '@pwa/errors';
import { signingKeyIdOf, verifyAccessToken, type AccessTokenClaims } from './access-token';
import { bearerChallengeFor, bearerTokenOf, type BearerRefusalCode } from './bearer-header';
import { unlessUnavailable } from './dependency-failure';
import { decidePartnerAccess, rateLimitPerMinuteOf, type PartnerRecord } from './partner-access';
import { rateLimitHeaders, type WindowCount } from '@pwa/redis';
import type { VerifiedTokenCache } from './verified-token-cache';

/** What admission needs from the outside world; each port rejects when its dependency is down. */
export interface AdmissionPorts {
  signingKeyFor(keyId: string): Promise<KeyObject | undefined>;
  partnerById(partnerId: string): Promise<PartnerRecord | undefined>;
  countPartnerRequest(partnerId: string, limitPerMinute: number): Promise<WindowCount>;
  nowSeconds(): number;
  /** Claims of tokens verified before; without it every request verifies its token's signature. */
  verifiedTokens?: VerifiedTokenCache;
}

export interface AdmissionSettings {
  issuer: string;
  audience: string;
  clockToleranceSeconds: number;
  defaultRateLimitPerMinute: number;
}

export interface Admission {
  claims: AccessTokenClaims;
  partner: PartnerRecord;
  /** The requests per minute admitted for the partner (its own limit or the default), told to the upstream. */
  rateLimitPerMinute: number;
  /** Sent on the response whatever the upstream answers. */
  rateLimitHeaders: Record<string, string>;
}

/**
 * The story of every authenticated request, in the order the spec's codes imply: a bearer header
 * (1005), a token we issued for this environment (1004) that has not expired (1003), a partner
 * that is active (1006, 1007, 1009) and may use this route (1008), then the partner's rate limit
 * (7001). A dependency that cannot answer (auth, or a rate-limit port that rejects) refuses the
 * request with 7003: nothing is let through unchecked. The Redis ports never reject for a Redis
 * outage; they count in memory instead (decision 0040).
 */
export async function admitPartnerRequest(
  authorizationHeader: string | undefined,
  requiredPermission: PartnerPermission | null,
  ports: AdmissionPorts,
  settings: AdmissionSettings,
): Promise<Admission> {
  const token = bearerTokenOf(authorizationHeader);
  if (token === undefined) throw bearerRefusal('PKC_1005', authorizationHeader);
  const claims = await verifiedClaimsOf(token, ports, settings);

  const partner = await unlessUnavailable(ports.partnerById(claims.partnerId));
  const decision = decidePartnerAccess(partner, requiredPermission);
  if (!decision.allowed) throw new PkcError(decision.code);
  const admittedPartner = decision.partner;

  const limitPerMinute = rateLimitPerMinuteOf(admittedPartner, settings.defaultRateLimitPerMinute);
  const count = await unlessUnavailable(ports.countPartnerRequest(admittedPartner.partnerId, limitPerMinute));
  const headers = rateLimitHeaders(count);
  if (!count.allowed) throw new PkcError('PKC_7001', undefined, { headers });
  return { claims, partner: admittedPartner, rateLimitPerMinute: limitPerMinute, rateLimitHeaders: headers };
}

async function verifiedClaimsOf(token: string, ports: AdmissionPorts, settings: AdmissionSettings): Promise<AccessTokenClaims> {
  const remembered = ports.verifiedTokens?.get(token);
  if (remembered !== undefined) {
    if (ports.nowSeconds() >= remembered.expiresAtSeconds + settings.clockToleranceSeconds) throw bearerRefusal('PKC_1003');
    return remembered;
  }
  const keyId = signingKeyIdOf(token);
  if (keyId === undefined) throw bearerRefusal('PKC_1004');
  const publicKey = await unlessUnavailable(ports.signingKeyFor(keyId));
  if (publicKey === undefined) throw bearerRefusal('PKC_1004');
  const verdict = verifyAccessToken(token, publicKey, {
    issuer: settings.issuer,
    audience: settings.audience,
    nowSeconds: ports.nowSeconds(),
    clockToleranceSeconds: settings.clockToleranceSeconds,
  });
  if (!verdict.ok) throw bearerRefusal(verdict.code);
  ports.verifiedTokens?.remember(token, verdict.claims);
  return verdict.claims;
}

/** Every 401 of a bearer route is made here, with its RFC 6750 `WWW-Authenticate` challenge. */
function bearerRefusal(code: BearerRefusalCode, authorizationHeader?: string): PkcError {
  return new PkcError(code, undefined, { headers: { 'WWW-Authenticate': bearerChallengeFor(code, authorizationHeader) } });
}
