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
