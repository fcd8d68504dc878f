import type { PkcCode } from '@pwa/errors';

export const partnerStatuses = ['active', 'suspended', 'pending_activation', 'inactive'] as const;
export type PartnerStatus = (typeof partnerStatuses)[number];

export const partnerPermissions = ['collection', 'disbursement'] as const;
export type PartnerPermission = (typeof partnerPermissions)[number];

export interface Partner {
  partnerId: string;
  clientId: string;
  name: string;
  status: PartnerStatus;
  permissions: PartnerPermission[];
  rateLimitPerMinute: number | null;
  webhookUrl: string | null;
}

export interface PartnerWithSecretHash extends Partner {
  clientSecretHash: string;
}

/** The PKC code that refuses a partner in this status, or undefined when it may act. */
export function refusalForStatus(status: PartnerStatus): PkcCode | undefined {
  switch (status) {
    case 'active':
      return undefined;
    case 'suspended':
      return 'PKC_1006';
    case 'pending_activation':
      return 'PKC_1007';
    case 'inactive':
      return 'PKC_1009';
  }
}

export function isPartnerStatus(value: string): value is PartnerStatus {
  return (partnerStatuses as readonly string[]).includes(value);
}

/** Parses "collection,disbursement" (or "none") into a sorted, de-duplicated permission list. */
export function parsePermissionList(text: string): PartnerPermission[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const items = trimmed.split(',').map((item) => item.trim());
  const unknown = items.filter((item) => !(partnerPermissions as readonly string[]).includes(item));
  if (unknown.length > 0) {
    throw new Error(`Unknown permission(s): ${unknown.join(', ')}; expected ${partnerPermissions.join(', ')} or none`);
  }
  return [...new Set(items as PartnerPermission[])].sort();
}

export function publicView(partner: Partner): Partner {
  return {
    partnerId: partner.partnerId,
    clientId: partner.clientId,
    name: partner.name,
    status: partner.status,
    permissions: partner.permissions,
    rateLimitPerMinute: partner.rateLimitPerMinute,
    webhookUrl: partner.webhookUrl,
  };
}
