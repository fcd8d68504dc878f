import { PkcError } from '@pwa/errors';
import { clientSecretLengthMax } from './client-secret';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Reads client credentials from a JSON (or form) body. Anything missing or malformed is PKC_1001,
 * and the message never repeats what was sent.
 */
export function parseClientCredentials(body: unknown): ClientCredentials {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PkcError('PKC_1001', 'Request body must be a JSON object with client_id and client_secret');
  }
  const { client_id: clientId, client_secret: clientSecret, grant_type: grantType } = body as Record<string, unknown>;
  if (grantType !== undefined && grantType !== 'client_credentials') {
    throw new PkcError('PKC_1001', 'grant_type, when given, must be client_credentials');
  }
  if (clientId === undefined || clientId === null || clientId === '') {
    throw new PkcError('PKC_1001', 'client_id is required');
  }
  if (typeof clientId !== 'string' || !uuidPattern.test(clientId)) {
    throw new PkcError('PKC_1001', 'client_id must be a UUID');
  }
  if (clientSecret === undefined || clientSecret === null || clientSecret === '') {
    throw new PkcError('PKC_1001', 'client_secret is required');
  }
  if (typeof clientSecret !== 'string' || clientSecret.length > clientSecretLengthMax) {
    throw new PkcError('PKC_1001', 'client_secret must be a string of at most 256 characters');
  }
  return { clientId: clientId.toLowerCase(), clientSecret };
}
