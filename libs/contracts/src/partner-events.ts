import { z } from 'zod';
import { ContractViolationError } from './contract-violation';
import type { EventEnvelope } from './envelope';

/** Published by the auth service; consumed by every service that caches partner settings. */
export const partnerEventTypes = ['partner.created', 'partner.updated', 'partner.secret_rotated', 'partner.webhook_secret_rotated'] as const;
export type PartnerEventType = (typeof partnerEventTypes)[number];

export const partnerStatuses = ['active', 'suspended', 'pending_activation', 'inactive'] as const;
export type PartnerStatus = (typeof partnerStatuses)[number];

export const partnerPermissions = ['collection', 'disbursement'] as const;
export type PartnerPermission = (typeof partnerPermissions)[number];

/**
 * Version 1 of the `data` of every partner event: the partner's settings after the change, never
 * its secret. Consumers replace what they cached with it rather than applying a diff.
 */
export const partnerEventDataSchema = z.object({
  partnerId: z.uuid(),
  clientId: z.uuid(),
  name: z.string().min(1),
  status: z.enum(partnerStatuses),
  permissions: z.array(z.enum(partnerPermissions)),
  /** null means "use the platform default". */
  rateLimitPerMinute: z.number().int().positive().nullable(),
  // Only web URLs: a webhook is an HTTP POST, and other schemes (file:, javascript:) are never valid.
  webhookUrl: z.url({ protocol: /^https?$/ }).nullable(),
  /**
   * The partner's webhook signing secrets, sealed (AES-256-GCM, @pwa/sealing) under the sealing
   * key only auth and webhooks hold, with associated data `${partnerId}:${secretId}`. During a
   * rotation the old secret stays valid until its validUntil, so both sign for the overlap.
   * Optional so that version-1 events published before secrets existed still parse.
   */
  webhookSecrets: z
    .array(
      z.object({
        secretId: z.string().min(1),
        sealedSecret: z.string().min(1),
        validFrom: z.iso.datetime({ offset: true }),
        validUntil: z.iso.datetime({ offset: true }).nullable(),
      }),
    )
    .optional(),
});
export type PartnerEventData = z.infer<typeof partnerEventDataSchema>;

export type PartnerEvent = EventEnvelope<PartnerEventData> & { type: PartnerEventType };

const partnerEventTypeSchema = z.enum(partnerEventTypes);
const supportedPartnerEventVersions: readonly number[] = [1];

export function isPartnerEventType(type: string): type is PartnerEventType {
  return partnerEventTypeSchema.safeParse(type).success;
}

/**
 * Narrows an envelope to a partner event, or throws ContractViolationError (the bus dead-letters
 * such messages instead of retrying them, since a retry cannot make them valid).
 */
export function parsePartnerEvent(envelope: EventEnvelope): PartnerEvent {
  const type = partnerEventTypeSchema.safeParse(envelope.type);
  if (!type.success) {
    throw new ContractViolationError('Not a partner event', [`type: expected one of ${partnerEventTypes.join(', ')}`]);
  }
  if (!supportedPartnerEventVersions.includes(envelope.version)) {
    throw new ContractViolationError('Unsupported partner event version', [`version: ${envelope.version} is not supported`]);
  }
  const data = partnerEventDataSchema.safeParse(envelope.data);
  if (!data.success) throw ContractViolationError.fromZodError(`Invalid ${type.data} data`, data.error);
  return { ...envelope, type: type.data, data: data.data };
}
