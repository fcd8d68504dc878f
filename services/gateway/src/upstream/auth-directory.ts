import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { internal } from '@pwa/contracts';
import type { UpstreamClient } from '@pwa/http';
import type { PartnerRecord } from '../domain/partner-access';
import { acceptedTokenAlgorithm } from '../domain/access-token';

/** What the gateway asks auth on its internal API: the public signing keys and a partner's settings. */
export interface AuthDirectory {
  fetchSigningKeys(): Promise<Map<string, KeyObject>>;
  fetchPartner(partnerId: string): Promise<PartnerRecord | undefined>;
}

export class AuthDirectoryError extends Error {
  readonly code = 'AUTH_DIRECTORY_UNAVAILABLE';

  constructor(message: string) {
    super(message);
    this.name = 'AuthDirectoryError';
  }
}

/** Calls go through auth's circuit breaker, so a dead auth fails fast for lookups and tokens alike. */
export function createAuthDirectory(auth: UpstreamClient, lookupTimeoutMs: number): AuthDirectory {
  const getJson = async (path: string): Promise<{ status: number; body: unknown }> => {
    const response = await auth.relay({ method: 'GET', path, headers: { accept: 'application/json' }, timeoutMs: lookupTimeoutMs });
    return { status: response.status, body: parseJson(response.body) };
  };
  return {
    async fetchSigningKeys() {
      const { status, body } = await getJson('/internal/jwks');
      if (status !== 200) throw new AuthDirectoryError(`auth answered ${status} for its signing keys`);
      return signingKeysOf(body);
    },
    async fetchPartner(partnerId) {
      const { status, body } = await getJson(internal.authPaths.partner(partnerId));
      if (status === 404 || (status === 403 && codeOf(body) === internal.unknownPartnerCode)) return undefined;
      if (status !== 200) throw new AuthDirectoryError(`auth answered ${status} for a partner lookup`);
      // Parsed with auth's contract for the route, which declares every field admission reads.
      const parsed = internal.partnerLookupAnswerSchema.safeParse(body);
      if (!parsed.success) throw new AuthDirectoryError('auth answered a partner lookup with an unexpected shape');
      const { clientId, status: partnerStatus, permissions, rateLimitPerMinute } = parsed.data;
      return { partnerId: parsed.data.partnerId, clientId, status: partnerStatus, permissions, rateLimitPerMinute };
    },
  };
}

/** Keys of another algorithm or shape are skipped: the gateway accepts ES256 only. */
function signingKeysOf(body: unknown): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  const listed = typeof body === 'object' && body !== null ? (body as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(listed)) throw new AuthDirectoryError('auth answered its signing keys with an unexpected shape');
  for (const jwk of listed as unknown[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const { kid, alg, kty, crv } = jwk as { kid?: unknown; alg?: unknown; kty?: unknown; crv?: unknown };
    if (typeof kid !== 'string' || alg !== acceptedTokenAlgorithm || kty !== 'EC' || crv !== 'P-256') continue;
    try {
      keys.set(kid, createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }));
    } catch {
      // A key that does not parse cannot verify anything; the others still can.
    }
  }
  return keys;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function codeOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
}
