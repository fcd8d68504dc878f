import { rfc9562UuidPattern } from '@pwa/contracts';
import { PkcError, httpStatusOf, type PkcCode } from '@pwa/errors';
import { clientSecretLengthMax } from './client-secret';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The RFC 6749 §5.2 `error` a token refusal carries beside the envelope's fields, so that a
 * standard OAuth 2.0 client library reports it as an OAuth error.
 */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'unauthorized_client';

/** The challenge every 401 of the token endpoint carries (RFC 6749 §5.2 requires it for invalid_client). */
export const tokenEndpointChallenge = 'Basic realm="partner-wallet-api"';

/**
 * The one place a token endpoint refusal is made: its PKC code, its RFC 6749 `error`, and on a 401
 * the `WWW-Authenticate: Basic` challenge. The message never repeats what was sent.
 */
export function tokenRefusal(code: PkcCode, error: OAuthErrorCode, message?: string): PkcError {
  const headers = httpStatusOf(code) === 401 ? { 'WWW-Authenticate': tokenEndpointChallenge } : undefined;
  return new PkcError(code, message, { fields: { error }, ...(headers ? { headers } : {}) });
}

/** RFC 7617 token68 as base64: the alphabet, then at most two padding characters. */
const basicCredentialsPattern = /^Basic +([A-Za-z0-9+/]+={0,2})$/i;
const authorizationSchemePattern = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?: |$)/;
/** Longer than any client id and secret this service accepts, form-encoded and in base64. */
const basicCredentialsLengthMax = 2048;

/**
 * Reads client credentials the three ways RFC 6749 §2.3.1 allows: `Authorization: Basic` with the
 * form-encoded client id and secret (client_secret_basic), or client_id and client_secret in a JSON
 * or form body (client_secret_post). Both at once are accepted only when they say the same thing.
 * grant_type, when given, must be client_credentials; other parameters (scope, say) are ignored.
 */
export function parseClientCredentials(body: unknown, authorizationHeader?: string): ClientCredentials {
  const fields = fieldsOf(body, authorizationHeader !== undefined);
  checkGrantType(fields.grant_type);
  const fromHeader = authorizationHeader === undefined ? undefined : basicCredentialsOf(authorizationHeader);
  const fromBody = { clientId: fields.client_id, clientSecret: fields.client_secret };
  if (fromHeader === undefined) {
    if (isAbsent(fromBody.clientId) && isAbsent(fromBody.clientSecret)) {
      // RFC 6749 §5.2 names "no client authentication included" as invalid_client.
      throw tokenRefusal('PKC_1001', 'invalid_client', 'Client credentials missing: send HTTP Basic, or client_id and client_secret in the body');
    }
    return validCredentials(fromBody.clientId, fromBody.clientSecret);
  }
  const credentials = validCredentials(fromHeader.clientId, fromHeader.clientSecret);
  if (!bodyAgreesWithHeader(fromBody, credentials)) {
    throw tokenRefusal('PKC_1001', 'invalid_request', 'Credentials in the Authorization header and in the body differ; send them one way');
  }
  return credentials;
}

function fieldsOf(body: unknown, hasAuthorizationHeader: boolean): Record<string, unknown> {
  // A client authenticating with HTTP Basic may send no body at all.
  if (body === undefined && hasAuthorizationHeader) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw tokenRefusal('PKC_1001', 'invalid_request', 'Request body must be a JSON or form object with client_id and client_secret');
  }
  return body as Record<string, unknown>;
}

function checkGrantType(grantType: unknown): void {
  if (grantType === undefined || grantType === 'client_credentials') return;
  if (typeof grantType !== 'string') throw tokenRefusal('PKC_1001', 'invalid_request', 'grant_type must be given once, as a string');
  throw tokenRefusal('PKC_1001', 'unsupported_grant_type', 'grant_type, when given, must be client_credentials');
}

/**
 * The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1: each
 * form-urlencoded, joined by a colon, in base64). Another scheme is an unsupported way to
 * authenticate (invalid_client); a Basic header that does not decode is malformed (invalid_request).
 */
function basicCredentialsOf(header: string): { clientId: string; clientSecret: string } {
  const trimmed = header.trim();
  const scheme = authorizationSchemePattern.exec(trimmed)?.[1];
  if (scheme?.toLowerCase() !== 'basic') {
    throw tokenRefusal('PKC_1001', 'invalid_client', 'The token endpoint authenticates clients with the Basic scheme or body parameters only');
  }
  const malformed = (): PkcError =>
    tokenRefusal('PKC_1001', 'invalid_request', 'Authorization: Basic must carry base64 of the form-encoded client_id ":" client_secret');
  const encoded = trimmed.length <= basicCredentialsLengthMax ? basicCredentialsPattern.exec(trimmed)?.[1] : undefined;
  if (encoded === undefined || encoded.replace(/=+$/, '').length % 4 === 1) throw malformed();
  const decoded = utf8Of(Buffer.from(encoded, 'base64'));
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === undefined || colon < 0) throw malformed();
  const clientId = formDecoded(decoded.slice(0, colon));
  const clientSecret = formDecoded(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined) throw malformed();
  return { clientId, clientSecret };
}

function utf8Of(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, then percent-decoding. */
function formDecoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function validCredentials(clientId: unknown, clientSecret: unknown): ClientCredentials {
  if (isAbsent(clientId)) throw tokenRefusal('PKC_1001', 'invalid_request', 'client_id is required');
  if (typeof clientId !== 'string' || !rfc9562UuidPattern.test(clientId)) throw tokenRefusal('PKC_1001', 'invalid_request', 'client_id must be a UUID');
  if (isAbsent(clientSecret)) throw tokenRefusal('PKC_1001', 'invalid_request', 'client_secret is required');
  if (typeof clientSecret !== 'string' || clientSecret.length > clientSecretLengthMax) {
    throw tokenRefusal('PKC_1001', 'invalid_request', 'client_secret must be a string of at most 256 characters');
  }
  return { clientId: clientId.toLowerCase(), clientSecret };
}

/** Body parameters beside a Basic header may repeat it (some clients add client_id), never contradict it. */
function bodyAgreesWithHeader(fromBody: { clientId: unknown; clientSecret: unknown }, header: ClientCredentials): boolean {
  const clientIdAgrees = isAbsent(fromBody.clientId) || (typeof fromBody.clientId === 'string' && fromBody.clientId.toLowerCase() === header.clientId);
  const secretAgrees = isAbsent(fromBody.clientSecret) || fromBody.clientSecret === header.clientSecret;
  return clientIdAgrees && secretAgrees;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
