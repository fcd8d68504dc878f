import { z } from 'zod';
import { adminActorSchema, adminApprovalSchema } from './wallet-admin';
import { uuidField } from './wire-fields';

/**
 * Auth's internal admin API: a partner's status, permissions or rate limit changed by people on
 * the back-office with four eyes (decision 0069). Owned by auth (it parses with these schemas and
 * refuses a change without the acting person and the approval); the back-office builds its bodies
 * and reads its answers (adminChangeAnswerSchema of wallet-admin). Internal network only, never
 * behind the gateway, never in the public OpenAPI.
 */
export const authAdminPaths = {
  partnerChanges: '/internal/admin/partner-changes',
} as const;

/** One setting of a partner per request, as the four-eyes actions name them. */
export const authPartnerChangeField = z.union([
  z.strictObject({ status: z.enum(['active', 'suspended', 'inactive']) }),
  z.strictObject({ permissions: z.array(z.enum(['collection', 'disbursement'])).max(2).refine((list) => new Set(list).size === list.length, 'each permission once') }),
  z.strictObject({ rateLimitPerMinute: z.number().int().min(1).max(1_000_000_000).nullable() }),
]);
export type AuthPartnerChange = z.output<typeof authPartnerChangeField>;

/**
 * POST /internal/admin/partner-changes: the approval request id is the change's idempotency key;
 * sent again, the first outcome is answered `replayed` and nothing changes (no second
 * partner.updated event). 404 PKC_6002 for a partner auth does not know.
 */
export const authPartnerChangeRequestSchema = z.strictObject({
  requestId: uuidField,
  partnerId: uuidField,
  change: authPartnerChangeField,
  /** Why, in the maker's words; kept in auth.operator_changes. */
  reason: z.string().trim().min(1).max(500),
  actor: adminActorSchema,
  approval: adminApprovalSchema,
});
export type AuthPartnerChangeRequest = z.output<typeof authPartnerChangeRequestSchema>;

// ---- Reads for the back-office console --------------------------------------------------------

export const authAdminReadPaths = {
  partners: (query: { q?: string | undefined; status?: string | undefined; afterCreatedAt?: string | undefined; afterId?: string | undefined; pageSize: number }): string => {
    const entries = Object.entries({ ...query, pageSize: String(query.pageSize) }).filter((entry): entry is [string, string] => entry[1] !== undefined);
    return `/internal/admin/partners?${new URLSearchParams(entries).toString()}`;
  },
  partner: (partnerId: string): string => `/internal/admin/partners/${encodeURIComponent(partnerId)}`,
  /** Whether a second client secret is held and since when each secret is (never a secret). */
  partnerClientSecrets: (partnerId: string): string => `/internal/admin/partners/${encodeURIComponent(partnerId)}/client-secrets`,
} as const;

/** GET /internal/admin/partners: the query (newest first; keyset pages by createdAt to the microsecond and partner id). */
export const authAdminPartnerListQuerySchema = z.strictObject({
  /** Part of the name (case-insensitive), or a partner id or client id exactly. */
  q: z.string().trim().min(1).max(100).optional(),
  status: z.enum(['active', 'suspended', 'pending_activation', 'inactive']).optional(),
  afterCreatedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/).optional(),
  afterId: uuidField.optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

/** A partner as the console shows it: its settings (never a secret or a hash) and when it was created and last changed. */
export const authAdminPartnerSchema = z.object({
  partnerId: uuidField,
  clientId: uuidField,
  name: z.string(),
  status: z.enum(['active', 'suspended', 'pending_activation', 'inactive']),
  permissions: z.array(z.enum(['collection', 'disbursement'])),
  rateLimitPerMinute: z.number().int().positive().nullable(),
  webhookUrl: z.string().nullable(),
  /** UTC to the microsecond: the keyset position. */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AuthAdminPartner = z.output<typeof authAdminPartnerSchema>;

export const authAdminPartnerPageSchema = z.object({
  partners: z.array(authAdminPartnerSchema),
  /** The position after the last partner of this page; null on the last page. */
  next: z.object({ createdAt: z.string(), id: uuidField }).nullable(),
});

/** GET /internal/admin/partners/{partnerId}: the partner and its approved changes, newest first (at most 50). 404 PKC_6002 for an unknown id. */
export const authAdminPartnerDetailSchema = authAdminPartnerSchema.extend({
  changes: z.array(
    z.object({
      requestId: uuidField,
      action: z.string(),
      before: z.record(z.string(), z.unknown()).nullable(),
      after: z.record(z.string(), z.unknown()),
      reason: z.string(),
      operatorId: uuidField,
      operatorName: z.string(),
      makerId: uuidField,
      checkerId: uuidField,
      recordedAt: z.string(),
    }),
  ),
  /** Changes one person made without four eyes (onboarding, webhook URL, secret rotations), newest first (at most 50): who, before and after (never a secret). */
  operatorActions: z.array(
    z.object({
      requestId: uuidField,
      action: z.enum(['partner.onboard', 'partner.webhook_url.set', 'partner.client_secret.rotate', 'partner.webhook_secret.rotate', 'partner.client_secret.add_second', 'partner.client_secret.revoke_previous']),
      before: z.record(z.string(), z.unknown()).nullable(),
      after: z.record(z.string(), z.unknown()),
      /** The person: an operator, or (actorKind member) a member of the partner's team through the dashboard. */
      operatorId: uuidField,
      operatorName: z.string(),
      actorKind: z.enum(['operator', 'member']).default('operator'),
      recordedAt: z.string(),
    }),
  ),
});
export type AuthAdminPartnerDetail = z.output<typeof authAdminPartnerDetailSchema>;

// ---- Changes one person makes without four eyes (issue 27) ------------------------------------

export const authAdminActionPaths = {
  partnerOnboardings: '/internal/admin/partner-onboardings',
  partnerWebhookUrls: '/internal/admin/partner-webhook-urls',
  partnerSecretRotations: '/internal/admin/partner-secret-rotations',
  /** The two-secret rotation of a client secret (issue 28): add a second secret, then revoke the previous one. */
  partnerClientSecretChanges: '/internal/admin/partner-client-secret-changes',
} as const;

const partnerPermissionsField = z.array(z.enum(['collection', 'disbursement'])).max(2).refine((list) => new Set(list).size === list.length, 'each permission once');

/**
 * POST /internal/admin/partner-onboardings: a partner created by a person on the back-office (the
 * settings the CLI's onboard takes). `requestId` is the idempotency key: sent again with the same
 * settings, the partner it created is answered `replayed` with no secret (a secret is shown once);
 * with other settings it is 409 PKC_6001. Without the person: 400 PKC_2008. The webhook URL is
 * checked as the CLI checks it (https in production; PKC_2008 naming webhookUrl).
 */
export const authPartnerOnboardingRequestSchema = z.strictObject({
  requestId: uuidField,
  name: z.string().trim().min(1).max(200),
  permissions: partnerPermissionsField,
  status: z.enum(['active', 'pending_activation']),
  rateLimitPerMinute: z.number().int().min(1).max(1_000_000_000).nullable(),
  webhookUrl: z.string().min(1).max(2_000).nullable(),
  actor: adminActorSchema,
});
export type AuthPartnerOnboardingRequest = z.output<typeof authPartnerOnboardingRequestSchema>;

/** 200: the partner, and its client secret and first webhook secret in clear on the call that created it only (null on a replay). */
export const authPartnerOnboardingAnswerSchema = z.object({
  requestId: uuidField,
  replayed: z.boolean(),
  partner: z.object({
    partnerId: uuidField,
    clientId: uuidField,
    name: z.string(),
    status: z.enum(['active', 'suspended', 'pending_activation', 'inactive']),
    permissions: z.array(z.enum(['collection', 'disbursement'])),
    rateLimitPerMinute: z.number().int().positive().nullable(),
    webhookUrl: z.string().nullable(),
  }),
  clientSecret: z.string().nullable(),
  webhookSecret: z.string().nullable(),
});
export type AuthPartnerOnboardingAnswer = z.output<typeof authPartnerOnboardingAnswerSchema>;

/**
 * A member of the partner's own team acting through the dashboard, which asserts the member's
 * partner; auth refuses a member acting for another partner (403 PKC_6005, nothing changed).
 */
export const memberActorSchema = z.strictObject({ kind: z.literal('member'), id: uuidField, displayName: z.string().trim().min(1).max(100), partnerId: uuidField });
export type MemberActor = z.output<typeof memberActorSchema>;

/** Who changes a partner's webhook settings: a person on the back-office, or a member of the partner's team. */
export const webhookSettingsActorSchema = z.union([adminActorSchema, memberActorSchema]);

/**
 * POST /internal/admin/partner-webhook-urls: a partner's webhook URL set (or removed with null) by
 * a person; `requestId` is the idempotency key (replayed: the first outcome, nothing changes).
 * Answers adminChangeAnswerSchema with `{ webhookUrl }` before and after; 404 PKC_6002 for an
 * unknown partner; 400 PKC_2008 for a URL auth does not accept.
 */
export const authPartnerWebhookUrlRequestSchema = z.strictObject({
  requestId: uuidField,
  partnerId: uuidField,
  webhookUrl: z.string().min(1).max(2_000).nullable(),
  actor: webhookSettingsActorSchema,
});
export type AuthPartnerWebhookUrlRequest = z.output<typeof authPartnerWebhookUrlRequestSchema>;

/** The longest overlap a rotated webhook secret may keep (as the operator CLI allows): 30 days. */
export const webhookSecretOverlapHoursLimit = 720;

/**
 * POST /internal/admin/partner-secret-rotations: a partner's client secret (the old one stops
 * working at once; tokens already issued run out) or webhook secret (the current ones stay valid
 * for `overlapHours`, default 24) replaced by a person. `requestId` is the idempotency key: sent
 * again, the first rotation is answered `replayed` with no secret (a secret is shown once); another
 * rotation under the id is 409 PKC_6001. 404 PKC_6002 for an unknown partner.
 */
export const authPartnerSecretRotationRequestSchema = z.strictObject({
  requestId: uuidField,
  partnerId: uuidField,
  secret: z.enum(['client', 'webhook']),
  overlapHours: z.number().int().min(0).max(webhookSecretOverlapHoursLimit).optional(),
  actor: webhookSettingsActorSchema,
});
export type AuthPartnerSecretRotationRequest = z.output<typeof authPartnerSecretRotationRequestSchema>;

/** 200: the new secret in clear on the call that made it only (null on a replay), and when the previous webhook secrets stop. */
export const authPartnerSecretRotationAnswerSchema = z.object({
  requestId: uuidField,
  replayed: z.boolean(),
  partnerId: uuidField,
  clientId: uuidField,
  secret: z.enum(['client', 'webhook']),
  clientSecret: z.string().nullable(),
  webhookSecret: z.string().nullable(),
  /** Webhook rotations: when the secrets current before stop being valid (null: there were none). */
  previousSecretsValidUntil: z.string().nullable(),
  rotatedAt: z.string(),
});
export type AuthPartnerSecretRotationAnswer = z.output<typeof authPartnerSecretRotationAnswerSchema>;

/**
 * Who changes a partner's client secrets: a person on the back-office, or a member of the partner's
 * own team through the dashboard (which asserts the member's partner; auth refuses a member acting
 * for another partner).
 */
export const clientSecretActorSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('operator'), id: uuidField, displayName: z.string().trim().min(1).max(100) }),
  memberActorSchema,
]);
export type ClientSecretActor = z.output<typeof clientSecretActorSchema>;

/**
 * POST partnerClientSecretChanges: `add_second` issues a second client secret (shown once) while the
 * current one stays valid, so the partner deploys it without downtime; `revoke_previous` makes the
 * second the only secret and the previous one stops at once. Once per requestId (a replay answers
 * the same, without the secret); 409 PKC_6004 for a second secret that is already held, or none to
 * promote; 409 PKC_6001 for a request id used for another change.
 */
export const clientSecretChangeRequestSchema = z.strictObject({
  requestId: uuidField,
  partnerId: uuidField,
  step: z.enum(['add_second', 'revoke_previous']),
  actor: clientSecretActorSchema,
});
export type ClientSecretChangeRequest = z.output<typeof clientSecretChangeRequestSchema>;

export const clientSecretSlotsSchema = z.object({
  clientId: uuidField,
  /** Since when the current (first) secret is the partner's. */
  currentSince: z.string(),
  /** The second secret, while one is held: both are accepted until the previous one is revoked. */
  secondSince: z.string().nullable(),
});
export type ClientSecretSlots = z.output<typeof clientSecretSlotsSchema>;

export const clientSecretChangeAnswerSchema = clientSecretSlotsSchema.extend({
  requestId: uuidField,
  replayed: z.boolean(),
  partnerId: uuidField,
  step: z.enum(['add_second', 'revoke_previous']),
  /** add_second only, on the call that made it (null on a replay): the new secret, shown once. */
  clientSecret: z.string().nullable(),
});
export type ClientSecretChangeAnswer = z.output<typeof clientSecretChangeAnswerSchema>;

