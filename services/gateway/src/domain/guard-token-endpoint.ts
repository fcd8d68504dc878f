import { PkcError } from '@pwa/errors';
import { rateLimitHeaders, type WindowCount } from '@pwa/redis';
import { decideClientLockout, isCredentialFailure, type ClientLockoutState } from './credential-stuffing';
import { unlessUnavailable } from './dependency-failure';
import { authenticationRealm } from './bearer-header';

/** The challenge of every 401 the token endpoint answers (RFC 6749 §5.2: clients authenticate with HTTP Basic). */
export const tokenEndpointChallenge = `Basic realm="${authenticationRealm}"`;

/**
 * The RFC 6749 `error` of the token endpoint's 429s and 503s. RFC 6749 has no code for a rate
 * limit or an outage behind the endpoint; its `temporarily_unavailable` says "try again later" to a
 * client library that reads `error`, where an answer without one would only be an unexpected response.
 */
export const tokenRequestNotNow = { error: 'temporarily_unavailable' } as const;

/** Counters of the token endpoint's protection (Redis); each rejects when Redis is down. */
export interface TokenEndpointPorts {
  countSourceRequest(sourceAddress: string): Promise<WindowCount>;
  readClientLockout(clientId: string, sourceAddress: string): Promise<ClientLockoutState>;
  recordCredentialFailure(clientId: string): Promise<void>;
  recordCredentialSuccess(clientId: string, sourceAddress: string): Promise<void>;
}

/** First gate, before the body is read: the source address's per-minute budget. */
export async function admitTokenRequestFromSource(sourceAddress: string, ports: TokenEndpointPorts): Promise<void> {
  const count = await unlessUnavailable(ports.countSourceRequest(sourceAddress));
  if (!count.allowed) {
    throw new PkcError('PKC_7001', 'Too many token requests from this address; wait and retry', {
      headers: rateLimitHeaders(count),
      fields: tokenRequestNotNow,
    });
  }
}

/** Second gate, once the body names a client_id: is that client locked for this source? */
export async function admitTokenRequestForClient(
  clientId: string | undefined,
  sourceAddress: string,
  failuresMax: number,
  ports: TokenEndpointPorts,
): Promise<void> {
  if (clientId === undefined) return;
  const state = await unlessUnavailable(ports.readClientLockout(clientId, sourceAddress));
  const decision = decideClientLockout(state, failuresMax);
  if (decision.locked) {
    throw new PkcError('PKC_7001', 'Too many failed attempts for this client_id; wait and retry', {
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      fields: tokenRequestNotNow,
    });
  }
}

/** After auth answered: count a wrong secret against the client_id, or trust the source that got a token. */
export async function recordTokenOutcome(
  clientId: string | undefined,
  sourceAddress: string,
  response: { status: number; body: unknown },
  ports: TokenEndpointPorts,
): Promise<void> {
  if (clientId === undefined) return;
  if (response.status === 200) await ports.recordCredentialSuccess(clientId, sourceAddress);
  else if (isCredentialFailure(response.status, response.body)) await ports.recordCredentialFailure(clientId);
}
