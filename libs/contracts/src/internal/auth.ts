import { z } from 'zod';
import { partnerEventDataSchema, partnerPermissions, partnerStatuses } from '../partner-events';
import { instantField, uuidField } from './wire-fields';

/**
 * The auth service's internal partner API, owned by auth (its routes type their answers by these
 * schemas) and read by the gateway (a partner's settings on every admitted request), the webhooks
 * service (the partner directory) and the wallet's operator CLI (fund-partner asks whether a
 * partner exists).
 */
export const authPaths = {
  partner: (partnerId: string): string => `/internal/partners/${encodeURIComponent(partnerId)}`,
  partnerDirectory: (query: { limit: number; after: string | null }): string =>
    `/internal/partner-directory?${new URLSearchParams({ limit: String(query.limit), ...(query.after === null ? {} : { after: query.after }) }).toString()}`,
  partnerDirectoryEntry: (partnerId: string): string => `/internal/partner-directory/${encodeURIComponent(partnerId)}`,
} as const;

/** The code auth answers an unknown partner id with (404 envelope). */
export const unknownPartnerCode = 'PKC_1009';

/**
 * GET /internal/partners/:partnerId: what anyone may know of a partner, secrets never. The gateway
 * admits a request on the status, the permissions and the rate limit, and asserts the partner and
 * client ids to the services; the wallet's CLI reads the name and status.
 */
export const partnerLookupAnswerSchema = z.object({
  partnerId: uuidField,
  clientId: uuidField,
  name: z.string().min(1),
  status: z.enum(partnerStatuses),
  permissions: z.array(z.enum(partnerPermissions)),
  /** null means "use the platform default". */
  rateLimitPerMinute: z.number().int().positive().nullable(),
});
export type PartnerLookupAnswer = z.output<typeof partnerLookupAnswerSchema>;

/** An entry of the partner directory: a version-1 partner event's data (sealed secrets included) and when it last changed. */
export const partnerDirectoryEntrySchema = partnerEventDataSchema.extend({
  webhookSecrets: partnerEventDataSchema.shape.webhookSecrets.unwrap(),
  changedAt: instantField,
});
export type PartnerDirectoryEntry = z.output<typeof partnerDirectoryEntrySchema>;

/** GET /internal/partner-directory?limit&after: a page in partner id order. */
export const partnerDirectoryPageSchema = z.object({ partners: z.array(partnerDirectoryEntrySchema), nextAfter: z.uuid().nullable() });
export type PartnerDirectoryPage = z.output<typeof partnerDirectoryPageSchema>;
