import { createHmac } from 'node:crypto';

/** A webhook secret opened for signing: only in memory, never logged, never stored opened. */
export interface SigningSecret {
  secretId: string;
  secret: string;
  validFrom: Date;
  validUntil: Date | null;
}

/** The spec's prefix of Standard Webhooks secrets; the rest is the base64 of the key bytes. */
const standardSecretPrefix = 'whsec_';

/**
 * The spec's X-Service-Signature: "sha256=" + hex HMAC-SHA256 of the raw body, keyed with the
 * partner's webhook secret exactly as it was shown to the partner (its UTF-8 bytes, prefix included).
 */
export function serviceSignature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * The key of a Standard Webhooks signature: the base64-decoded part after "whsec_". A secret
 * without the prefix is used as its UTF-8 bytes (what the reference libraries do for raw keys).
 */
export function standardWebhooksKey(secret: string): Buffer {
  return secret.startsWith(standardSecretPrefix) ? Buffer.from(secret.slice(standardSecretPrefix.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** "v1," + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` (Standard Webhooks, symmetric). */
export function standardWebhooksSignature(messageId: string, timestampSeconds: number, body: string, secret: string): string {
  const signed = `${messageId}.${timestampSeconds}.${body}`;
  return `v1,${createHmac('sha256', standardWebhooksKey(secret)).update(signed, 'utf8').digest('base64')}`;
}

/** The secrets that sign at `now`: valid from validFrom (inclusive) to validUntil (exclusive), newest first. */
export function secretsValidAt(secrets: readonly SigningSecret[], now: Date): SigningSecret[] {
  return secrets
    .filter((secret) => secret.validFrom.getTime() <= now.getTime() && (secret.validUntil === null || now.getTime() < secret.validUntil.getTime()))
    .sort((left, right) => right.validFrom.getTime() - left.validFrom.getTime());
}

export interface WebhookHeadersInput {
  body: string;
  /** The partner's client ID (X-Service-Partner-Id). */
  clientId: string;
  /** Stable across every attempt of one event: the event id. */
  messageId: string;
  timestampSeconds: number;
  /** Valid secrets, newest first (see secretsValidAt); at least one. */
  secrets: readonly SigningSecret[];
}

/**
 * Every header of one attempt. The spec's three come first and are exactly as specified; the
 * Standard Webhooks headers add a stable id and a signed timestamp (replay protection). During a
 * rotation overlap X-Service-Signature is made with the newest secret, and webhook-signature lists
 * one "v1,…" per valid secret, separated by spaces, so a receiver holding either secret verifies.
 */
export function webhookHeaders(input: WebhookHeadersInput): Record<string, string> {
  const [newest] = input.secrets;
  if (!newest) throw new Error('no valid webhook secret to sign with');
  return {
    'Content-Type': 'application/json',
    'X-Service-Partner-Id': input.clientId,
    'X-Service-Signature': serviceSignature(input.body, newest.secret),
    'webhook-id': input.messageId,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': input.secrets.map((secret) => standardWebhooksSignature(input.messageId, input.timestampSeconds, input.body, secret.secret)).join(' '),
  };
}
