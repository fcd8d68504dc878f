import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { isUuid, webhookSecretOverlapHoursLimit } from '@pwa/contracts';
import { z } from '@pwa/config';
import { ConsoleError, PkcError } from '@pwa/errors';
import { originOf, parsedInput } from '@pwa/web-auth';
import {
  changeClientSecretsByPerson,
  inviteFirstAdminByPerson,
  onboardPartnerByPerson,
  requestIdOfKey,
  rotateSecretByPerson,
  setWebhookUrlByPerson,
  type ActionRefusal,
  type FirstAdminInvitationsPort,
  type PartnerActionsPort,
} from '../use-cases/partner-admin-actions';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { requireSession, sessionOf } from './console-session';

export const partnerActionPaths = {
  partners: '/api/v1/partners',
  webhookUrl: '/api/v1/partners/:partnerId/webhook-url',
  clientSecretRotations: '/api/v1/partners/:partnerId/client-secret-rotations',
  webhookSecretRotations: '/api/v1/partners/:partnerId/webhook-secret-rotations',
  /** The two-secret rotation (issue 28): `{ step: 'add_second' }` then, once deployed, `{ step: 'revoke_previous' }`. */
  clientSecretChanges: '/api/v1/partners/:partnerId/client-secret-changes',
  /** The partner's first dashboard admin (issue 28): `{ email, displayName }`; the one-time link in the answer only. */
  dashboardFirstAdmin: '/api/v1/partners/:partnerId/dashboard-first-admin',
} as const;

const idempotencyKeyPattern = /^[A-Za-z0-9._:-]{8,100}$/;
const webhookUrlField = z.string().trim().min(1).max(2_000).nullable();
const onboardingBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    permissions: z.array(z.enum(['collection', 'disbursement'])).max(2).refine((list) => new Set(list).size === list.length, 'each permission once').default(['collection', 'disbursement']),
    status: z.enum(['active', 'pending_activation']).default('active'),
    rateLimitPerMinute: z.number().int().min(1).max(1_000_000_000).nullable().default(null),
    webhookUrl: webhookUrlField.default(null),
  })
  .strict();
const webhookUrlBody = z.object({ webhookUrl: webhookUrlField }).strict();
const clientSecretRotationBody = z.object({}).strict();
const clientSecretChangeBody = z.object({ step: z.enum(['add_second', 'revoke_previous']) }).strict();
const webhookSecretRotationBody = z.object({ overlapHours: z.number().int().min(0).max(webhookSecretOverlapHoursLimit).optional() }).strict();
const firstAdminBody = z.object({ email: z.string().trim().min(3).max(254), displayName: z.string().trim().min(1).max(100) }).strict();

/**
 * A partner's one-person tasks in the console (issue 27), for makers and admins: onboarding
 * (`POST /api/v1/partners`, an `Idempotency-Key` header required: a double submit creates one
 * partner; the client secret and webhook secret are in the 201 answer to the person who created
 * it and nowhere else, ever), its webhook URL (`PUT …/webhook-url`) and the rotation of its client
 * secret or webhook secret (`POST …/client-secret-rotations`, `…/webhook-secret-rotations`, an
 * `Idempotency-Key` required; the new secret in the 201 answer once). Auth does the work and
 * records the person; every outcome and refusal is audited without a secret.
 */
export function mountPartnerActionRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, auth: PartnerActionsPort, dashboard: FirstAdminInvitationsPort | undefined): void {
  const signedIn = requireSession(deps, 'signed_in', consoleOrigin);

  app.post(partnerActionPaths.partners, signedIn, async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req);
    if (idempotencyKey === undefined) throw missingKey();
    const partner = parsedInput(onboardingBody, req.body);
    const outcome = await onboardPartnerByPerson(deps.pool, auth, sessionOf(res).session.subjectId, { partner, idempotencyKey }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason, outcome.message);
    const { partner: created, replayed, clientSecret, webhookSecret } = outcome.data;
    if (replayed || clientSecret === null) {
      res.status(200).json({ success: true, data: { partner: created, replayed: true, credentials: null } });
      return;
    }
    res.status(201).json({ success: true, data: { partner: created, replayed: false, credentials: { clientId: created.clientId, clientSecret, webhookSecret } } });
  });

  app.put(partnerActionPaths.webhookUrl, signedIn, async (req, res) => {
    const partnerId = String(req.params.partnerId);
    if (!isUuid(partnerId)) throw new ConsoleError('CON_4008');
    const idempotencyKey = idempotencyKeyOf(req);
    const operatorId = sessionOf(res).session.subjectId;
    const body = parsedInput(webhookUrlBody, req.body);
    const requestId = idempotencyKey === undefined ? randomUUID() : requestIdOfKey('partner.webhook_url.set', operatorId, idempotencyKey);
    const outcome = await setWebhookUrlByPerson(deps.pool, auth, operatorId, { partnerId: partnerId.toLowerCase(), webhookUrl: body.webhookUrl, requestId }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason, outcome.message);
    res.json({ success: true, data: { partnerId: partnerId.toLowerCase(), replayed: outcome.data.replayed, before: outcome.data.before, after: outcome.data.after } });
  });
  app.post(partnerActionPaths.clientSecretRotations, signedIn, async (req, res) => {
    await rotateSecret(req, res, 'client', parsedInput(clientSecretRotationBody, req.body ?? {}));
  });

  app.post(partnerActionPaths.webhookSecretRotations, signedIn, async (req, res) => {
    await rotateSecret(req, res, 'webhook', parsedInput(webhookSecretRotationBody, req.body ?? {}));
  });

  // 201 with the second secret on the add that made it; 200 for a revocation or a replay (no secret).
  app.post(partnerActionPaths.clientSecretChanges, signedIn, async (req, res) => {
    const partnerId = String(req.params.partnerId);
    if (!isUuid(partnerId)) throw new ConsoleError('CON_4008');
    const idempotencyKey = idempotencyKeyOf(req);
    if (idempotencyKey === undefined) throw missingKey();
    const { step } = parsedInput(clientSecretChangeBody, req.body);
    const operatorId = sessionOf(res).session.subjectId;
    const requestId = requestIdOfKey(`partner.client_secret.${step}`, operatorId, idempotencyKey);
    const outcome = await changeClientSecretsByPerson(deps.pool, auth, operatorId, { partnerId: partnerId.toLowerCase(), step, requestId }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason, outcome.message);
    const { replayed, clientId, clientSecret, currentSince, secondSince } = outcome.data;
    res.status(!replayed && clientSecret !== null ? 201 : 200).json({ success: true, data: { partnerId: partnerId.toLowerCase(), clientId, replayed, step, clientSecret, currentSince, secondSince } });
  });

  // 201 with the one-time invitation link (shown to this person only, never kept); asked again before it is used, a new link replaces it.
  app.post(partnerActionPaths.dashboardFirstAdmin, signedIn, async (req, res) => {
    const partnerId = String(req.params.partnerId);
    if (!isUuid(partnerId)) throw new ConsoleError('CON_4008');
    const body = parsedInput(firstAdminBody, req.body);
    if (dashboard === undefined) throw new ConsoleError('CON_4019', 'The partner dashboard is not connected to this back-office (DASHBOARD_INTERNAL_URL): invite the first admin with npm run operator -- invite-admin');
    const outcome = await inviteFirstAdminByPerson(deps.pool, dashboard, sessionOf(res).session.subjectId, { partnerId: partnerId.toLowerCase(), ...body }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason, outcome.message);
    const { outcome: kind, memberId, email, invitationLink, expiresAt, emailed } = outcome.data;
    res.status(201).json({ success: true, data: { partnerId: partnerId.toLowerCase(), outcome: kind, memberId, email, invitationLink, expiresAt, emailed } });
  });

  /** 201 with the new secret on the call that made it; 200 `replayed` without it when the same key comes again. */
  async function rotateSecret(req: Request, res: Response, secret: 'client' | 'webhook', body: { overlapHours?: number | undefined }): Promise<void> {
    const partnerId = String(req.params.partnerId);
    if (!isUuid(partnerId)) throw new ConsoleError('CON_4008');
    const idempotencyKey = idempotencyKeyOf(req);
    if (idempotencyKey === undefined) throw missingKey();
    const operatorId = sessionOf(res).session.subjectId;
    const requestId = requestIdOfKey(`partner.${secret}_secret.rotate`, operatorId, idempotencyKey);
    const outcome = await rotateSecretByPerson(deps.pool, auth, operatorId, { partnerId: partnerId.toLowerCase(), secret, overlapHours: body.overlapHours, requestId }, originOf(req, res));
    if (outcome.kind === 'refused') throw refusalOf(outcome.reason, outcome.message);
    const { replayed, clientId, clientSecret, webhookSecret, previousSecretsValidUntil, rotatedAt } = outcome.data;
    const shown = secret === 'client' ? { clientSecret } : { webhookSecret, previousSecretsValidUntil };
    res.status(replayed ? 200 : 201).json({ success: true, data: { partnerId: partnerId.toLowerCase(), clientId, replayed, rotatedAt, ...shown } });
  }
}

/** The client's Idempotency-Key (letters, digits and . _ : -, 8 to 100; a UUID fits), undefined when not sent. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key !== undefined && !idempotencyKeyPattern.test(key)) throw missingKey();
  return key;
}

function missingKey(): ConsoleError {
  return new ConsoleError('CON_2001', 'Idempotency-Key header: 8 to 100 letters, digits or . _ : - (a new UUID for each new request; the same one when sending the same request again)');
}

export function refusalOf(reason: ActionRefusal, message: string | undefined): Error {
  switch (reason) {
    case 'not-an-active-operator':
      return new ConsoleError('CON_1004');
    case 'not-allowed':
      return new ConsoleError('CON_3001', 'Only makers and admins do this');
    case 'key-used-otherwise':
      return new ConsoleError('CON_4011');
    case 'unknown-target':
      return new ConsoleError('CON_4008');
    case 'not-accepted':
      return new ConsoleError('CON_2001', message ?? 'The owning service did not accept the values');
    case 'cannot-apply':
      return new ConsoleError('CON_4019', message);
    case 'owner-unavailable':
      return new PkcError('PKC_7003');
  }
}
