import type { JsonResponse, HttpsJsonClient } from './https-client';
import type { Stack } from './stack';

export type Permission = 'collection' | 'disbursement';

export interface OnboardedPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

export interface OnboardOptions {
  permissions?: Permission[];
  status?: 'active' | 'pending_activation';
  rateLimitPerMinute?: number;
}

/** Onboards a fresh partner through the operator CLI, so no test depends on another's rows. */
export async function onboardPartner(stack: Stack, options: OnboardOptions = {}): Promise<OnboardedPartner> {
  const permissions = options.permissions ?? ['collection', 'disbursement'];
  const args = ['onboard', '--name', `E2E partner ${Math.random().toString(36).slice(2, 10)}`];
  args.push('--permissions', permissions.length > 0 ? permissions.join(',') : 'none');
  if (options.status) args.push('--status', options.status);
  if (options.rateLimitPerMinute !== undefined) args.push('--rate-limit', String(options.rateLimitPerMinute));
  const result = await stack.operator(args);
  const { partnerId, clientId, clientSecret, name } = result;
  if (typeof partnerId !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string' || typeof name !== 'string') {
    throw new Error(`onboard printed an unexpected object: ${Object.keys(result).join(', ')}`);
  }
  return { partnerId, clientId, clientSecret, name };
}

export function requestToken(client: HttpsJsonClient, credentials: { clientId: string; clientSecret: string }): Promise<JsonResponse> {
  return client.post('/partner/auth/token', { client_id: credentials.clientId, client_secret: credentials.clientSecret });
}

/** A valid access token for the partner, or a thrown error saying what the token endpoint answered. */
export async function accessTokenFor(client: HttpsJsonClient, credentials: { clientId: string; clientSecret: string }): Promise<string> {
  const response = await requestToken(client, credentials);
  const token = (response.body as { access_token?: unknown } | undefined)?.access_token;
  if (response.status !== 200 || typeof token !== 'string') throw new Error(`token request failed: ${response.status} ${response.text}`);
  return token;
}

/** Polls until the check passes or the time is up; returns the last value either way. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    value = await read();
  }
  return value;
}
