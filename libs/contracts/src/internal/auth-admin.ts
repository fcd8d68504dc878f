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
});
export type AuthAdminPartnerDetail = z.output<typeof authAdminPartnerDetailSchema>;
