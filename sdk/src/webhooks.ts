import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
/** A webhook body, by its `event` (docs/openapi.json `webhooks`). */
export type WebhookEvent =
  | Schemas['CollectionCompletedEvent']
  | Schemas['CollectionDeclinedEvent']
  | Schemas['CollectionExpiredEvent']
  | Schemas['CollectionFailedEvent']
  | Schemas['CollectionCancelledEvent']
  | Schemas['DisbursementCompletedEvent']
  | Schemas['DisbursementFailedEvent']
  | Schemas['DisbursementReversedEvent']
  | Schemas['RefundCompletedEvent']
  | Schemas['RefundFailedEvent']
  | Schemas['BulkCompletedEvent']
  | Schemas['WebhookTestEvent'];
export type WebhookEventType = WebhookEvent['event'];

const webhookEventTypes: readonly WebhookEventType[] = [
  'collection.completed',
  'collection.declined',
  'collection.expired',
  'collection.failed',
  'collection.cancelled',
  'disbursement.completed',
  'disbursement.failed',
  'disbursement.reversed',
  'refund.completed',
  'refund.failed',
  'bulk.completed',
  'webhook.test',
];

export type WebhookVerificationCode =
  | 'WEBHOOK_MISSING_HEADER'
  | 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE'
  | 'WEBHOOK_BAD_SIGNATURE'
  | 'WEBHOOK_BAD_PAYLOAD'
  | 'WEBHOOK_UNKNOWN_EVENT';

/** A webhook that must not be trusted (or, for WEBHOOK_UNKNOWN_EVENT, a genuine one this SDK does not know). */
export class WebhookVerificationError extends Error {
  readonly webhookVerificationError = true as const;
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
    /** For WEBHOOK_UNKNOWN_EVENT: the verified body, so a receiver can acknowledge it and move on. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return typeof error === 'object' && error !== null && (error as { webhookVerificationError?: unknown }).webhookVerificationError === true;
}

/** Node's req.headers, a fetch Headers, or a plain object (names in any case). */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /**
   * Which signature to check:
   * - `standard-webhooks` (default): webhook-signature over id, timestamp and body, with the
   *   timestamp tolerance: a captured request stops verifying after it.
   * - `service-signature`: the specification's X-Service-Signature over the body only (no replay
   *   protection: deduplicate on referenceId + event).
   * - `both`: both must verify.
   */
  scheme?: 'standard-webhooks' | 'service-signature' | 'both';
  /** How far webhook-timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch (default Date.now()); for tests. */
  now?: () => number;
}

/**
 * Verifies a webhook request exactly as the webhooks service signs it (docs/decisions/0024) and
 * returns its body, parsed. `rawBody` must be the bytes received, before any JSON parsing.
 * `secret` is the whsec_… secret (or several during a rotation overlap: any may match).
 * Comparisons are constant-time. Throws WebhookVerificationError.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const secrets = (typeof secret === 'string' ? [secret] : [...secret]).filter((value) => value !== '');
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs the webhook secret');
  const scheme = options.scheme ?? 'standard-webhooks';
  if (scheme !== 'service-signature') verifyStandardWebhooks(body, headers, secrets, options);
  if (scheme !== 'standard-webhooks') verifyServiceSignature(body, headers, secrets);
  return parseEvent(body);
}

function verifyStandardWebhooks(body: string, headers: WebhookHeaders, secrets: readonly string[], options: VerifyWebhookOptions): void {
  const id = requiredHeader(headers, 'webhook-id');
  const timestamp = requiredHeader(headers, 'webhook-timestamp');
  const signatures = requiredHeader(headers, 'webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', 'webhook-timestamp is not Unix seconds');
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) {
    throw new WebhookVerificationError('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', `webhook-timestamp is more than ${toleranceSeconds} s from now`);
  }
  const signed = `${id}.${timestamp}.${body}`;
  const expected = secrets.map((value) => createHmac('sha256', standardWebhooksKey(value)).update(signed, 'utf8').digest());
  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  if (!candidates.some((candidate) => expected.some((digest) => constantTimeEqual(candidate, digest)))) {
    throw new WebhookVerificationError('WEBHOOK_BAD_SIGNATURE', 'no webhook-signature matches the secret');
  }
}

function verifyServiceSignature(body: string, headers: WebhookHeaders, secrets: readonly string[]): void {
  const header = requiredHeader(headers, 'x-service-signature');
  const match = /^sha256=([0-9a-f]{64})$/.exec(header);
  const candidate = Buffer.from(match?.[1] ?? '', 'hex');
  // The specification's key is the secret string as given (whsec_ included), as UTF-8 bytes.
  const matches = secrets.some((value) => constantTimeEqual(candidate, createHmac('sha256', value).update(body, 'utf8').digest()));
  if (!matches) throw new WebhookVerificationError('WEBHOOK_BAD_SIGNATURE', 'X-Service-Signature does not match the secret');
}

/** Standard Webhooks' key: the base64-decoded part after whsec_ (a secret without the prefix: its UTF-8 bytes). */
function standardWebhooksKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

function constantTimeEqual(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}

function requiredHeader(headers: WebhookHeaders, name: string): string {
  const value = headerValue(headers, name);
  if (value === undefined || value === '') throw new WebhookVerificationError('WEBHOOK_MISSING_HEADER', `the ${name} header is missing`);
  return value;
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.[0];
}

function parseEvent(body: string): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('WEBHOOK_BAD_PAYLOAD', 'the body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('WEBHOOK_BAD_PAYLOAD', 'the body is not a webhook event');
  }
  const event = (parsed as { event: string }).event;
  if (!webhookEventTypes.includes(event as WebhookEventType)) {
    throw new WebhookVerificationError('WEBHOOK_UNKNOWN_EVENT', `signed, but of an event type this SDK does not know: ${event}`, parsed);
  }
  // A transaction's events name it by referenceId; bulk.completed names its bulk by bulkId.
  const idField = event === 'bulk.completed' ? 'bulkId' : 'referenceId';
  if (typeof (parsed as Record<string, unknown>)[idField] !== 'string') {
    throw new WebhookVerificationError('WEBHOOK_BAD_PAYLOAD', 'the body is not a webhook event');
  }
  return parsed as WebhookEvent;
}
