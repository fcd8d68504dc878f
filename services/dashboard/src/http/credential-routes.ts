import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import type { JsonValue } from '@pwa/audit';
import { z } from '@pwa/config';
import { webhookSecretOverlapHoursLimit, type MemberActor } from '@pwa/contracts';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import { originOf, parsedInput } from '@pwa/web-auth';
import type { PartnerApi, SettingsChange } from '../upstream/partner-api';
import { auditOf, personOf, type PeopleDependencies } from '../use-cases/people-dependencies';
import { memberOf, requireFreshCode, requireMember } from './member-session';
import { ownerRefusal } from './partner-calls';

export const credentialPaths = {
  credentials: '/api/v1/credentials',
  secondSecret: '/api/v1/credentials/client-secrets',
  revokePrevious: '/api/v1/credentials/client-secrets/revoke-previous',
  webhookSettings: '/api/v1/webhook-settings',
  webhookUrl: '/api/v1/webhook-settings/url',
  webhookSecretRotation: '/api/v1/webhook-settings/secret-rotations',
} as const;

const freshCodeField = z.string().regex(/^\d{6}$/, 'the six digits your authenticator app shows now').optional();
const changeBody = z.object({ code: freshCodeField });
const webhookUrlBody = z.object({ code: freshCodeField, webhookUrl: z.string().trim().min(1, 'a URL, or null to stop webhooks').max(2_000).nullable() });
const webhookSecretBody = z.object({ code: freshCodeField, overlapHours: z.number().int().min(0).max(webhookSecretOverlapHoursLimit, `at most ${webhookSecretOverlapHoursLimit} hours (30 days)`).optional() });

/** A change of the partner's settings as the member asks it; built from the member's own partner, never an id from the request. */
type ChangeOf = (request: Request, member: MemberActor & { requestId: string }) => { change: SettingsChange; action: string };

/**
 * The partner's API credentials and webhook settings (admins change them, with a fresh MFA check):
 * the two-secret client rotation (add a second secret, shown once, both get tokens; then revoke the
 * previous one), the webhook URL (auth checks it as the webhook service's SSRF rules do) and the
 * webhook secret's rotation (the new one shown once; the previous ones stay valid for the overlap).
 * An Idempotency-Key header makes a retried click the same change. Each change, and each refusal,
 * is in the partner's audit log, and in auth's record the back-office shows.
 */
export function mountCredentialRoutes(app: Express, deps: PeopleDependencies, consoleOrigin: string, api: PartnerApi): void {
  app.get(credentialPaths.credentials, ...requireMember(deps, consoleOrigin, 'read'), async (_req, res) => {
    res.json({ success: true, data: await api.clientSecretSlots(memberOf(res).partnerId, requestIdOf(res)) });
  });
  app.get(credentialPaths.webhookSettings, ...requireMember(deps, consoleOrigin, 'read'), async (_req, res) => {
    res.json({ success: true, data: await api.webhookSettings(memberOf(res).partnerId, requestIdOf(res)) });
  });

  const change = (changeOf: ChangeOf) => async (req: Request, res: Response): Promise<void> => {
    const member = memberOf(res);
    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && !z.uuid().safeParse(idempotencyKey).success) throw new ConsoleError('CON_2001', 'The Idempotency-Key header must be a UUID (or left out)');
    const { change: asked, action } = changeOf(req, { kind: 'member', id: member.memberId, displayName: member.displayName, partnerId: member.partnerId, requestId: idempotencyKey ?? randomUUID() });
    const answer = await api.changeSettings(asked, requestIdOf(res));
    const done = answer.status === 200 ? (answer.body as Record<string, unknown>) : undefined;
    await auditOf(deps, originOf(req, res), {
      actor: personOf(member),
      action,
      target: { kind: asked.kind === 'client_secrets' ? 'client' : 'webhook', id: member.partnerId },
      partnerId: member.partnerId,
      ...(done ? { after: auditedAfterOf(done), outcome: 'done' as const } : { outcome: 'refused' as const, reason: `auth answered ${answer.status}` }),
    });
    if (!done) throw ownerRefusal(answer);
    // A new secret is in this answer only (the call that made it); it is never logged or kept.
    res.status(answer.status).json({ success: true, data: done });
  };

  const clientSecrets = (step: 'add_second' | 'revoke_previous'): ChangeOf => (req, { requestId, ...actor }) => {
    parsedInput(changeBody, req.body);
    return { change: { kind: 'client_secrets', request: { requestId, partnerId: actor.partnerId, step, actor } }, action: `credentials.client_secret.${step}` };
  };
  const manageCredentials = [...requireMember(deps, consoleOrigin, 'manage_credentials'), requireFreshCode(deps)];
  app.post(credentialPaths.secondSecret, ...manageCredentials, change(clientSecrets('add_second')));
  app.post(credentialPaths.revokePrevious, ...manageCredentials, change(clientSecrets('revoke_previous')));
  app.post(
    credentialPaths.webhookUrl,
    ...manageCredentials,
    change((req, { requestId, ...actor }) => {
      const { webhookUrl } = parsedInput(webhookUrlBody, req.body);
      return { change: { kind: 'webhook_url', request: { requestId, partnerId: actor.partnerId, webhookUrl, actor } }, action: 'webhook.url.set' };
    }),
  );
  app.post(
    credentialPaths.webhookSecretRotation,
    ...manageCredentials,
    change((req, { requestId, ...actor }) => {
      const { overlapHours } = parsedInput(webhookSecretBody, req.body);
      return { change: { kind: 'webhook_secret', request: { requestId, partnerId: actor.partnerId, secret: 'webhook', ...(overlapHours === undefined ? {} : { overlapHours }), actor } }, action: 'webhook.secret.rotate' };
    }),
  );
}

/**
 * What the audit keeps of auth's answer, named one by one (answer field → audit key): when each
 * secret started, the URL before and after, when a rotation took effect; never a secret. The audit
 * refuses any key that looks secret, so the previous signing secrets' end is kept as `previousSigningUntil`.
 */
const auditedAnswerFields: Readonly<Record<string, string>> = {
  replayed: 'replayed',
  currentSince: 'currentSince',
  secondSince: 'secondSince',
  before: 'before',
  after: 'after',
  rotatedAt: 'rotatedAt',
  previousSecretsValidUntil: 'previousSigningUntil',
};

function auditedAfterOf(answer: Record<string, unknown>): JsonValue {
  const kept = Object.fromEntries(Object.entries(auditedAnswerFields).flatMap(([field, key]) => (answer[field] === undefined ? [] : [[key, answer[field]]])));
  return JSON.parse(JSON.stringify(kept)) as JsonValue;
}
