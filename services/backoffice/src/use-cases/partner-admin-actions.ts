import { createHash } from 'node:crypto';
import { appendAuditEntry, type AuditEntryInput } from '@pwa/audit';
import type { z } from '@pwa/config';
import type {
  AdminChangeAnswer,
  AuthPartnerOnboardingAnswer,
  AuthPartnerSecretRotationAnswer,
  ClientSecretChangeAnswer,
  ClientSecretChangeRequest,
  DashboardFirstAdminInvitationAnswer,
  WebhookBacklogStatus,
  WebhooksAdminRedeliveryAnswer,
  authPartnerOnboardingRequestSchema,
  authPartnerSecretRotationRequestSchema,
  authPartnerWebhookUrlRequestSchema,
  dashboardFirstAdminInvitationRequestSchema,
  webhooksAdminDeliveryPageSchema,
  webhooksAdminRedeliveryRequestSchema,
} from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import type { PkcCode } from '@pwa/errors';
import type { OperatorRole } from '../domain/operator-roles';
import { findOperatorById, type Operator } from '../store/operator-store';
import type { RequestOrigin } from './people-dependencies';

/**
 * The partner tasks one person does in the console, without four eyes (issue 27): onboarding a
 * partner (its secrets shown once, to that person, in that answer), setting its webhook URL,
 * rotating its client or webhook secret (the new one shown once, likewise), and sending a webhook
 * delivery again. Makers and admins may; viewers and checkers may not (a checker
 * decides others' requests, and onboarding is no request). The owner does the work and records
 * the person (auth.operator_actions); the back-office audits every outcome and every refusal with
 * the values before and after, never a secret. A client's Idempotency-Key becomes the owner's
 * request id, derived per person: a double submit creates one partner, and one person's key never
 * collides with another's.
 */

/** An owner's answer to a person's change: its 200, or a refusal it gave for good. No answer throws PKC_7003. */
export type OwnerAnswer<T> = { kind: 'answer'; data: T } | { kind: 'refusal'; code: PkcCode; message: string };

/** Auth's admin routes for one person's partner changes. */
export interface PartnerActionsPort {
  onboardPartner(body: z.input<typeof authPartnerOnboardingRequestSchema>, httpRequestId: string | null): Promise<OwnerAnswer<AuthPartnerOnboardingAnswer>>;
  setWebhookUrl(body: z.input<typeof authPartnerWebhookUrlRequestSchema>, httpRequestId: string | null): Promise<OwnerAnswer<AdminChangeAnswer>>;
  rotateSecret(body: z.input<typeof authPartnerSecretRotationRequestSchema>, httpRequestId: string | null): Promise<OwnerAnswer<AuthPartnerSecretRotationAnswer>>;
  /** The two-secret rotation (issue 28): add a second client secret, or revoke the previous one. */
  changeClientSecrets(body: ClientSecretChangeRequest, httpRequestId: string | null): Promise<OwnerAnswer<ClientSecretChangeAnswer>>;
}

/** The partner dashboard's internal admin route: a partner's first admin invited by the operator (issue 28). */
export interface FirstAdminInvitationsPort {
  inviteFirstAdmin(body: z.input<typeof dashboardFirstAdminInvitationRequestSchema>, httpRequestId: string | null): Promise<OwnerAnswer<DashboardFirstAdminInvitationAnswer>>;
}

/** The webhooks service's admin routes: the backlog and dead letters (read; throws PKC_7003 without an answer), and a redelivery. */
export interface WebhookDeliveriesPort {
  listDeliveries(
    query: { status?: WebhookBacklogStatus | undefined; partnerId?: string | undefined; afterCreatedAt?: string | undefined; afterId?: string | undefined; pageSize: number },
    httpRequestId: string | null,
  ): Promise<z.output<typeof webhooksAdminDeliveryPageSchema>>;
  redeliver(body: z.input<typeof webhooksAdminRedeliveryRequestSchema>, httpRequestId: string | null): Promise<OwnerAnswer<WebhooksAdminRedeliveryAnswer>>;
}

/** Makers and admins do a partner's one-person tasks. */
export function mayManagePartners(roles: readonly OperatorRole[]): boolean {
  return roles.includes('maker') || roles.includes('admin');
}

/**
 * The owner's request id for a person's Idempotency-Key: a UUID (version 8, RFC 9562) of SHA-256
 * over the task, the person and the key, so the same person's same key is the same request, and
 * the same key typed by two people is two requests.
 */
export function requestIdOfKey(task: string, operatorId: string, idempotencyKey: string): string {
  const bytes = createHash('sha256').update(`backoffice:${task}:${operatorId}:${idempotencyKey}`, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type ActionRefusal = 'not-an-active-operator' | 'not-allowed' | 'key-used-otherwise' | 'unknown-target' | 'not-accepted' | 'cannot-apply' | 'owner-unavailable';
export type ActionOutcome<T> = { kind: 'done'; data: T } | { kind: 'refused'; reason: ActionRefusal; message?: string };

export interface NewPartner {
  name: string;
  permissions: ('collection' | 'disbursement')[];
  status: 'active' | 'pending_activation';
  rateLimitPerMinute: number | null;
  webhookUrl: string | null;
}

export async function onboardPartnerByPerson(
  pool: Pool,
  auth: PartnerActionsPort,
  actorId: string,
  request: { partner: NewPartner; idempotencyKey: string },
  origin: RequestOrigin,
): Promise<ActionOutcome<AuthPartnerOnboardingAnswer>> {
  const asked = { name: request.partner.name, status: request.partner.status, permissions: [...request.partner.permissions], rateLimitPerMinute: request.partner.rateLimitPerMinute, webhookUrl: request.partner.webhookUrl };
  return personAction(pool, actorId, origin, { action: 'partner.onboard', target: { kind: 'partner', id: 'new' }, asked }, async (actor) => {
    const answer = await auth.onboardPartner({ requestId: requestIdOfKey('partner.onboard', actor.operatorId, request.idempotencyKey), ...asked, actor: actorOf(actor) }, origin.requestId);
    if (answer.kind === 'refusal') return answer;
    const { partner } = answer.data;
    // A replay changed nothing and reveals nothing: the first call's entry stands alone.
    const audit = answer.data.replayed ? undefined : { target: { kind: 'partner', id: partner.partnerId }, before: null, after: { ...partner, permissions: [...partner.permissions] } };
    return { kind: 'answer', data: answer.data, audit };
  });
}

export async function setWebhookUrlByPerson(
  pool: Pool,
  auth: PartnerActionsPort,
  actorId: string,
  request: { partnerId: string; webhookUrl: string | null; requestId: string },
  origin: RequestOrigin,
): Promise<ActionOutcome<AdminChangeAnswer>> {
  const target = { kind: 'partner', id: request.partnerId };
  return personAction(pool, actorId, origin, { action: 'partner.webhook_url.set', target, asked: { webhookUrl: request.webhookUrl } }, async (actor) => {
    const answer = await auth.setWebhookUrl({ requestId: request.requestId, partnerId: request.partnerId, webhookUrl: request.webhookUrl, actor: actorOf(actor) }, origin.requestId);
    if (answer.kind === 'refusal') return answer;
    return { kind: 'answer', data: answer.data, audit: answer.data.replayed ? undefined : { target, before: answer.data.before, after: answer.data.after } };
  });
}

export async function rotateSecretByPerson(
  pool: Pool,
  auth: PartnerActionsPort,
  actorId: string,
  request: { partnerId: string; secret: 'client' | 'webhook'; overlapHours: number | undefined; requestId: string },
  origin: RequestOrigin,
): Promise<ActionOutcome<AuthPartnerSecretRotationAnswer>> {
  const target = { kind: 'partner', id: request.partnerId };
  const action = request.secret === 'client' ? 'partner.client_secret.rotate' : 'partner.webhook_secret.rotate';
  const asked = request.overlapHours === undefined ? {} : { overlapHours: request.overlapHours };
  return personAction(pool, actorId, origin, { action, target, asked }, async (actor) => {
    const answer = await auth.rotateSecret({ requestId: request.requestId, partnerId: request.partnerId, secret: request.secret, ...asked, actor: actorOf(actor) }, origin.requestId);
    if (answer.kind === 'refusal') return answer;
    // The audit entry says when, and until when the previous webhook secrets hold; never a secret (nor a field named like one).
    const after = { clientId: answer.data.clientId, rotatedAt: answer.data.rotatedAt, previousValidUntil: answer.data.previousSecretsValidUntil };
    return { kind: 'answer', data: answer.data, audit: answer.data.replayed ? undefined : { target, before: null, after } };
  });
}

/** A client secret rotated without downtime by a person on the back-office: the second secret added (shown once), or the previous one revoked. */
export async function changeClientSecretsByPerson(
  pool: Pool,
  auth: PartnerActionsPort,
  actorId: string,
  request: { partnerId: string; step: 'add_second' | 'revoke_previous'; requestId: string },
  origin: RequestOrigin,
): Promise<ActionOutcome<ClientSecretChangeAnswer>> {
  const target = { kind: 'partner', id: request.partnerId };
  return personAction(pool, actorId, origin, { action: `partner.client_secret.${request.step}`, target, asked: {} }, async (actor) => {
    const answer = await auth.changeClientSecrets({ requestId: request.requestId, partnerId: request.partnerId, step: request.step, actor: { kind: 'operator', id: actor.operatorId, displayName: actor.displayName } }, origin.requestId);
    if (answer.kind === 'refusal') return answer;
    // When each secret started, never a secret (nor a field named like one).
    const after = { clientId: answer.data.clientId, currentSince: answer.data.currentSince, secondSince: answer.data.secondSince };
    return { kind: 'answer', data: answer.data, audit: answer.data.replayed ? undefined : { target, before: null, after } };
  });
}

/**
 * A partner's first dashboard admin invited by a maker or an admin, after the onboarding (issue 28):
 * the dashboard makes the invitation and answers its one-time link once, for this person only; the
 * audit keeps who was invited, never the link. Asked again before the link is used, it renews it.
 */
export async function inviteFirstAdminByPerson(
  pool: Pool,
  dashboard: FirstAdminInvitationsPort,
  actorId: string,
  request: { partnerId: string; email: string; displayName: string },
  origin: RequestOrigin,
): Promise<ActionOutcome<DashboardFirstAdminInvitationAnswer>> {
  const target = { kind: 'partner', id: request.partnerId };
  return personAction(pool, actorId, origin, { action: 'partner.dashboard_first_admin.invite', target, asked: { email: request.email, displayName: request.displayName } }, async (actor) => {
    const answer = await dashboard.inviteFirstAdmin({ partnerId: request.partnerId, email: request.email, displayName: request.displayName, actor: actorOf(actor) }, origin.requestId);
    if (answer.kind === 'refusal') return answer;
    const { outcome, memberId, email, expiresAt, emailed } = answer.data;
    return { kind: 'answer', data: answer.data, audit: { target, before: null, after: { outcome, memberId, email, expiresAt, emailed } } };
  });
}

export async function redeliverByPerson(
  pool: Pool,
  webhooks: WebhookDeliveriesPort,
  actorId: string,
  request: { deliveryId: string; requestId: string },
  origin: RequestOrigin,
): Promise<ActionOutcome<WebhooksAdminRedeliveryAnswer>> {
  const target = { kind: 'webhook_delivery', id: request.deliveryId };
  return personAction(pool, actorId, origin, { action: 'webhook_delivery.redeliver', target, asked: {} }, async (actor) => {
    const answer = await webhooks.redeliver({ requestId: request.requestId, deliveryId: request.deliveryId, actor: actorOf(actor) }, origin.requestId);
    if (answer.kind === 'refusal') return answer;
    const audit = answer.data.replayed ? undefined : { target, before: { ...answer.data.before }, after: { ...answer.data.after, partnerId: answer.data.partnerId } };
    return { kind: 'answer', data: answer.data, audit };
  });
}

type Audited<T> = { kind: 'answer'; data: T; audit: { target: { kind: string; id: string }; before: Record<string, unknown> | null; after: Record<string, unknown> } | undefined } | { kind: 'refusal'; code: PkcCode; message: string };

const ownerRefusals: Readonly<Partial<Record<PkcCode, ActionRefusal>>> = { PKC_6001: 'key-used-otherwise', PKC_6002: 'unknown-target', PKC_2008: 'not-accepted', PKC_6004: 'cannot-apply' };

/**
 * The frame every person's action runs in: the person read from the database now (active, and a
 * maker or an admin), the owner called, and one audit entry for the outcome: done with the values
 * before and after, or refused with why (the owner's message for a value it did not accept).
 */
async function personAction<T>(
  pool: Pool,
  actorId: string,
  origin: RequestOrigin,
  what: { action: string; target: { kind: string; id: string }; asked: Record<string, unknown> },
  perform: (actor: Operator) => Promise<Audited<T>>,
): Promise<ActionOutcome<T>> {
  const found = await findOperatorById(pool, actorId);
  const actor = found?.status === 'active' ? found : undefined;
  const entry = (fields: Pick<AuditEntryInput, 'target' | 'outcome' | 'reason' | 'before' | 'after'>): AuditEntryInput => ({
    ...fields,
    action: what.action,
    actor: { kind: 'person', id: actor?.operatorId ?? actorId, displayName: actor?.displayName ?? 'unknown operator' },
    address: origin.address,
    userAgent: origin.userAgent,
    requestId: origin.requestId,
  });
  const refuse = async (reason: ActionRefusal, message?: string): Promise<ActionOutcome<T>> => {
    await appendAuditEntry(pool, entry({ target: what.target, outcome: 'refused', reason: message === undefined ? reason : `${reason}: ${message}`, after: jsonOf(what.asked) }));
    return message === undefined ? { kind: 'refused', reason } : { kind: 'refused', reason, message };
  };
  if (!actor) return refuse('not-an-active-operator');
  if (!mayManagePartners(actor.roles)) return refuse('not-allowed');
  let outcome: Audited<T>;
  try {
    outcome = await perform(actor);
  } catch (error) {
    await refuse('owner-unavailable', 'the owning service gave no answer; the outcome is not known');
    throw error;
  }
  if (outcome.kind === 'refusal') return refuse(ownerRefusals[outcome.code] ?? 'not-accepted', outcome.message);
  if (outcome.audit !== undefined) {
    await appendAuditEntry(pool, entry({ target: outcome.audit.target, outcome: 'done', before: outcome.audit.before === null ? null : jsonOf(outcome.audit.before), after: jsonOf(outcome.audit.after) }));
  }
  return { kind: 'done', data: outcome.data };
}

function actorOf(operator: Operator): { operatorId: string; displayName: string } {
  return { operatorId: operator.operatorId, displayName: operator.displayName };
}

/** Settings as the audit log stores them: plain JSON values (never a secret: the callers pass settings only). */
function jsonOf(value: Record<string, unknown>): AuditEntryInput['after'] {
  return JSON.parse(JSON.stringify(value)) as AuditEntryInput['after'];
}
