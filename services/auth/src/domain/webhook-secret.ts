import { randomBytes, randomUUID } from 'node:crypto';
import { webhookSecretOverlapHoursLimit } from '@pwa/contracts';

/**
 * Webhook signing secrets: 32 random bytes shown to the partner once as `whsec_<base64>` (the
 * Standard Webhooks format, which secret scanners recognise). The webhooks service signs each
 * delivery with HMAC-SHA256 keyed with the secret; auth only issues, seals and publishes them.
 */
export const webhookSecretPrefix = 'whsec_';
export const webhookSecretLengthBytes = 32;

/** How long the previous secret keeps working after a rotation unless the operator says otherwise. */
export const defaultWebhookSecretOverlapHours = 24;
/** A longer overlap would keep a possibly leaked secret alive for more than a month (one limit for the CLI and the admin route). */
export const webhookSecretOverlapHoursMax = webhookSecretOverlapHoursLimit;

export interface NewWebhookSecret {
  secretId: string;
  /** Shown once; stored and published only sealed. */
  secret: string;
}

export function generateWebhookSecret(): NewWebhookSecret {
  return { secretId: randomUUID(), secret: `${webhookSecretPrefix}${randomBytes(webhookSecretLengthBytes).toString('base64')}` };
}

/** Binds a sealed secret to its partner and id, so a ciphertext copied onto another record does not open. */
export function webhookSecretAssociatedData(partnerId: string, secretId: string): string {
  return `${partnerId}:${secretId}`;
}

/** Parses --overlap-hours: a whole number of hours from 0 (the previous secrets stop at once) to 720. */
export function parseOverlapHours(text: string): number {
  const trimmed = text.trim();
  const hours = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(hours) || hours > webhookSecretOverlapHoursMax) {
    throw new Error(`The overlap must be a whole number of hours from 0 to ${webhookSecretOverlapHoursMax}`);
  }
  return hours;
}
