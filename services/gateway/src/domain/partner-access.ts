import type { PartnerRecord } from '@pwa/contracts';

export { decidePartnerAccess, type AccessDecision, type PartnerRecord } from '@pwa/contracts';

/** The partner's own limit when the operator set one, otherwise the platform default. */
export function rateLimitPerMinuteOf(partner: PartnerRecord, defaultPerMinute: number): number {
  return partner.rateLimitPerMinute ?? defaultPerMinute;
}
