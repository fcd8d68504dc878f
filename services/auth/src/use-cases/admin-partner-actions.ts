import { isDeepStrictEqual } from 'node:util';
import {
  adminChangeRefusalCodes,
  type AdminChangeAnswer,
  type AuthPartnerOnboardingAnswer,
  type AuthPartnerOnboardingRequest,
  type AuthPartnerSecretRotationAnswer,
  type AuthPartnerSecretRotationRequest,
  type AuthPartnerWebhookUrlRequest,
} from '@pwa/contracts';
import { withTransaction, type Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { lockRequestId } from '@pwa/runtime';
import { publicView, type Partner, type PartnerWithSecretHash } from '../domain/partner';
import { parseWebhookUrl } from '../domain/partner-settings';
import { findOperatorAction, insertOperatorAction } from '../store/operator-action-store';
import { findPartnerById, lockPartnerById, updatePartner } from '../store/partner-store';
import { defaultWebhookSecretOverlapHours } from '../domain/webhook-secret';
import { actingPersonOf } from './acting-person';
import { insertOnboardedPartner, newClientSecret, newPartnerOf, recordPartnerEvent, replaceClientSecret, replaceWebhookSecret } from './manage-partners';

/**
 * The partner changes a person makes on the back-office without four eyes (issue 27): onboarding,
 * the webhook URL and the rotation of its client or webhook secret. Each is applied once per back-office request id (the change's idempotency
 * key, serialised by its advisory lock): the first call changes the partner, publishes its event
 * and records who in operator_actions in one transaction; a repeat finds that record and answers
 * `replayed` (an onboarding without its secrets: they are shown once); a different change under
 * the same id is 409 PKC_6001.
 */
export interface AuthActionSettings {
  environment: string;
  webhookSecretSealingKey: Buffer;
}

export async function executeAdminOnboarding(pool: Pool, settings: AuthActionSettings, request: AuthPartnerOnboardingRequest): Promise<AuthPartnerOnboardingAnswer> {
  const webhookUrl = request.webhookUrl === null ? null : checkedWebhookUrl(request.webhookUrl, settings.environment);
  const asked = { name: request.name, permissions: [...new Set(request.permissions)].sort(), status: request.status, rateLimitPerMinute: request.rateLimitPerMinute, webhookUrl };
  // Hashing is slow: done before the transaction, wasted only on a replay.
  const created = await newPartnerOf(settings.environment, asked);
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorAction(client, request.requestId);
    if (earlier) {
      if (earlier.action !== 'partner.onboard' || !isDeepStrictEqual(earlier.parameters, asked)) throw usedOtherwise(request.requestId);
      const partner = await findPartnerById(client, earlier.partnerId);
      if (!partner) throw new PkcError('PKC_6002', `The partner request ${request.requestId} created is gone`);
      return { requestId: request.requestId, replayed: true, partner: publicView(partner), clientSecret: null, webhookSecret: null };
    }
    const webhook = await insertOnboardedPartner(client, created.partner, settings.webhookSecretSealingKey);
    await insertOperatorAction(client, {
      requestId: request.requestId,
      action: 'partner.onboard',
      partnerId: created.partner.partnerId,
      parameters: asked,
      before: null,
      after: settingsOf(created.partner),
      operatorId: request.actor.operatorId,
      operatorName: request.actor.displayName,
    });
    return { requestId: request.requestId, replayed: false, partner: publicView(created.partner), clientSecret: created.clientSecret, webhookSecret: webhook.secret };
  });
}

export async function executeAdminWebhookUrl(pool: Pool, environment: string, request: AuthPartnerWebhookUrlRequest): Promise<AdminChangeAnswer> {
  const person = actingPersonOf(request.actor, request.partnerId);
  const webhookUrl = request.webhookUrl === null ? null : checkedWebhookUrl(request.webhookUrl, environment);
  const parameters = { webhookUrl };
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorAction(client, request.requestId);
    if (earlier) {
      if (earlier.action !== 'partner.webhook_url.set' || earlier.partnerId !== request.partnerId || !isDeepStrictEqual(earlier.parameters, parameters)) throw usedOtherwise(request.requestId);
      return { requestId: request.requestId, replayed: true, before: earlier.before, after: earlier.after };
    }
    const current = await lockPartnerById(client, request.partnerId);
    if (!current) throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No partner has id ${request.partnerId}; nothing was changed`);
    const updated: PartnerWithSecretHash = { ...current, webhookUrl };
    // The same URL again changes nothing and publishes nothing; it is still recorded as the person's action.
    if (current.webhookUrl !== webhookUrl) {
      await updatePartner(client, updated, false);
      await recordPartnerEvent(client, 'partner.updated', updated);
    }
    const before = { webhookUrl: current.webhookUrl };
    const after = { webhookUrl };
    await insertOperatorAction(client, { requestId: request.requestId, action: 'partner.webhook_url.set', partnerId: request.partnerId, parameters, before, after, ...person });
    return { requestId: request.requestId, replayed: false, before, after };
  });
}

/**
 * A partner's client secret or webhook secret rotated by a person. The answer carries the new
 * secret once; a replay answers `replayed` with the first rotation's time and no secret.
 */
export async function executeAdminSecretRotation(pool: Pool, settings: AuthActionSettings, request: AuthPartnerSecretRotationRequest): Promise<AuthPartnerSecretRotationAnswer> {
  const person = actingPersonOf(request.actor, request.partnerId);
  const action = request.secret === 'client' ? 'partner.client_secret.rotate' : 'partner.webhook_secret.rotate';
  const overlapHours = request.secret === 'webhook' ? (request.overlapHours ?? defaultWebhookSecretOverlapHours) : null;
  if (request.secret === 'client' && request.overlapHours !== undefined) throw new PkcError('PKC_2008', 'overlapHours: only a webhook secret keeps the previous one for an overlap');
  const parameters = { secret: request.secret, overlapHours };
  // Hashing is slow: done before the transaction, wasted only on a replay.
  const fresh = request.secret === 'client' ? await newClientSecret(settings.environment) : undefined;
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorAction(client, request.requestId);
    if (earlier) {
      if (earlier.action !== action || earlier.partnerId !== request.partnerId || !isDeepStrictEqual(earlier.parameters, parameters)) throw usedOtherwise(request.requestId);
      const after = earlier.after as { clientId: string; rotatedAt: string; previousSecretsValidUntil: string | null };
      return { requestId: request.requestId, replayed: true, partnerId: request.partnerId, clientId: after.clientId, secret: request.secret, clientSecret: null, webhookSecret: null, previousSecretsValidUntil: after.previousSecretsValidUntil, rotatedAt: after.rotatedAt };
    }
    const current = await lockPartnerById(client, request.partnerId);
    if (!current) throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No partner has id ${request.partnerId}; nothing was rotated`);
    const rotatedAt = new Date().toISOString();
    let clientSecret: string | null = null;
    let webhookSecret: string | null = null;
    let previousSecretsValidUntil: string | null = null;
    if (fresh !== undefined) {
      clientSecret = (await replaceClientSecret(client, current, fresh)).clientSecret;
    } else {
      const rotated = await replaceWebhookSecret(client, current, settings.webhookSecretSealingKey, overlapHours ?? defaultWebhookSecretOverlapHours);
      webhookSecret = rotated.webhookSecret;
      previousSecretsValidUntil = rotated.previousSecretsValidUntil;
    }
    // Before and after name the rotation, never a secret or a hash.
    const after = { clientId: current.clientId, rotatedAt, previousSecretsValidUntil };
    await insertOperatorAction(client, { requestId: request.requestId, action, partnerId: request.partnerId, parameters, before: null, after, ...person });
    return { requestId: request.requestId, replayed: false, partnerId: request.partnerId, clientId: current.clientId, secret: request.secret, clientSecret, webhookSecret, previousSecretsValidUntil, rotatedAt };
  });
}

function checkedWebhookUrl(text: string, environment: string): string | null {
  try {
    return parseWebhookUrl(text, environment);
  } catch (error) {
    throw new PkcError('PKC_2008', `webhookUrl: ${error instanceof Error ? error.message : 'not accepted'}`);
  }
}

function usedOtherwise(requestId: string): PkcError {
  return new PkcError(adminChangeRefusalCodes.requestIdUsedOtherwise, `Request id ${requestId} was used for another change; nothing was changed`);
}

/** The settings recorded after an onboarding: never the client secret's hash. */
function settingsOf(partner: Partner): Record<string, unknown> {
  return { clientId: partner.clientId, name: partner.name, status: partner.status, permissions: [...partner.permissions], rateLimitPerMinute: partner.rateLimitPerMinute, webhookUrl: partner.webhookUrl };
}
