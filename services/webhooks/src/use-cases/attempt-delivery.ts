import { withTransaction } from '@pwa/db';
import { openFromBase64 } from '@pwa/sealing';
import { isSuccessfulStatus } from '../domain/attempt-outcome';
import { afterFailedAttempt } from '../domain/retry-schedule';
import { secretsValidAt, webhookHeaders, type SigningSecret } from '../domain/signing';
import { sendWebhook, type SendResult } from '../upstream/http-sender';
import { completeAttempt, type AttemptRecord, type ClaimedDelivery, type NextState } from '../store/delivery-store';
import { findPartner, type WebhookPartner } from '../store/partner-store';
import type { WebhooksDependencies } from './dependencies';
import { learnUnknownPartner } from './partner-directory-sync';

/**
 * One attempt of a claimed delivery: look up where and how to send (the partner's current URL and
 * secrets, so a change applies to the next retry), sign, POST within the deadline, then record the
 * attempt and the next state in one transaction guarded by the lease.
 */
export async function attemptDelivery(dependencies: WebhooksDependencies, claimed: ClaimedDelivery): Promise<void> {
  const startedAt = new Date();
  // A partner not known here (onboarded before this service's queue existed, say) is asked of auth.
  const partner = (await findPartner(dependencies.pool, claimed.partnerId)) ?? (await learnUnknownPartner(dependencies, claimed.partnerId));
  if (partner?.webhookUrl === null) {
    await finish(dependencies, claimed, failedAttempt(claimed, startedAt, 'no webhook URL registered', 0), { status: 'skipped' });
    return;
  }
  const result = partner === undefined ? noSend('partner not known yet') : await send(dependencies, claimed, partner, startedAt);
  const attempt: AttemptRecord =
    result.kind === 'response' && isSuccessfulStatus(result.statusCode)
      ? { attemptNumber: claimed.attemptCount, startedAt, outcome: 'succeeded', statusCode: result.statusCode, latencyMs: result.latencyMs, error: null }
      : failedAttempt(claimed, startedAt, result.kind === 'response' ? `HTTP ${result.statusCode}` : result.error, result.latencyMs, result.kind === 'response' ? result.statusCode : null);
  await finish(dependencies, claimed, attempt, nextStateAfter(dependencies, claimed, attempt));
}

/** What follows an attempt whose sender stopped before recording it (lease expired): a failure of unknown outcome. */
export function recoveredAttempt(claimed: ClaimedDelivery): AttemptRecord {
  return failedAttempt(claimed, claimed.leasedAt, 'outcome unknown: the sending worker stopped before recording the attempt', null);
}

export function nextStateAfter(dependencies: WebhooksDependencies, claimed: ClaimedDelivery, attempt: AttemptRecord): NextState {
  if (attempt.outcome === 'succeeded') return { status: 'delivered' };
  const after = afterFailedAttempt(dependencies.settings.retry, claimed.cycleAttemptCount);
  return after.kind === 'retry' ? { status: 'pending', delayMs: after.delayMs } : { status: 'failed' };
}

export async function finish(dependencies: WebhooksDependencies, claimed: ClaimedDelivery, attempt: AttemptRecord, next: NextState): Promise<void> {
  const recorded = await withTransaction(dependencies.pool, (client) => completeAttempt(client, claimed, attempt, next));
  if (!recorded) {
    dependencies.logger.warn({ deliveryId: claimed.deliveryId }, 'lease lost before the attempt was recorded; another worker took the delivery over');
    return;
  }
  const { metrics } = dependencies;
  if (next.status !== 'skipped') metrics.attemptFinished(attempt.outcome === 'succeeded' ? 'success' : 'failure', attempt.latencyMs);
  if (next.status === 'pending') metrics.retryScheduled();
  else metrics.deliveryFinished(next.status);
  dependencies.logger.info(
    { deliveryId: claimed.deliveryId, eventId: claimed.eventId, attempt: attempt.attemptNumber, statusCode: attempt.statusCode, latencyMs: attempt.latencyMs, error: attempt.error, next: next.status },
    'webhook attempt recorded',
  );
}

async function send(dependencies: WebhooksDependencies, claimed: ClaimedDelivery, partner: WebhookPartner, startedAt: Date): Promise<SendResult> {
  if (partner.webhookUrl === null) return noSend('no webhook URL registered');
  const secrets = secretsValidAt(openSecrets(dependencies, partner), startedAt);
  if (secrets.length === 0) return noSend('no valid webhook secret for the partner');
  const headers = webhookHeaders({
    body: claimed.body,
    clientId: partner.clientId,
    messageId: claimed.eventId,
    timestampSeconds: Math.floor(startedAt.getTime() / 1000),
    secrets,
  });
  return sendWebhook({
    url: partner.webhookUrl,
    headers,
    body: claimed.body,
    timeoutMs: dependencies.settings.attemptTimeoutMs,
    policy: dependencies.settings.target,
  });
}

/** Opens every secret it can; one that does not open (wrong key, tampered) is logged by id and left out. */
function openSecrets(dependencies: WebhooksDependencies, partner: WebhookPartner): SigningSecret[] {
  const opened: SigningSecret[] = [];
  for (const sealed of partner.secrets) {
    const secret = openWithAnyKey(dependencies.sealingKeys, sealed.sealedSecret, `${partner.partnerId}:${sealed.secretId}`);
    if (secret === undefined) {
      dependencies.logger.error({ partnerId: partner.partnerId, secretId: sealed.secretId }, 'webhook secret could not be opened with the sealing key');
      continue;
    }
    opened.push({
      secretId: sealed.secretId,
      secret,
      validFrom: new Date(sealed.validFrom),
      validUntil: sealed.validUntil === null ? null : new Date(sealed.validUntil),
    });
  }
  return opened;
}

/** The current key first; the previous one only while a rotation re-seals the stored secrets. */
function openWithAnyKey(keys: readonly Buffer[], sealedBase64: string, associatedData: string): string | undefined {
  for (const key of keys) {
    try {
      return openFromBase64(sealedBase64, key, associatedData);
    } catch {
      // not sealed under this key
    }
  }
  return undefined;
}

function noSend(error: string): SendResult {
  return { kind: 'error', error, latencyMs: 0 };
}

function failedAttempt(claimed: ClaimedDelivery, startedAt: Date, error: string, latencyMs: number | null, statusCode: number | null = null): AttemptRecord {
  return { attemptNumber: claimed.attemptCount, startedAt, outcome: 'failed', statusCode, latencyMs, error };
}
