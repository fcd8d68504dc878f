import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { enqueueEvent } from '@pwa/bus';
import { createEventEnvelope } from '@pwa/contracts';
import { generateClientSecret, hashClientSecret } from '../domain/client-secret';
import { publicView, type Partner, type PartnerPermission, type PartnerStatus, type PartnerWithSecretHash } from '../domain/partner';
import { insertPartner, lockPartnerByClientId, updatePartner } from '../store/partner-store';

export type PartnerEventType = 'partner.created' | 'partner.updated' | 'partner.secret_rotated';

export class PartnerNotFoundError extends Error {
  constructor(readonly clientId: string) {
    super(`No partner with client id ${clientId}`);
    this.name = 'PartnerNotFoundError';
  }
}

export interface OnboardRequest {
  name: string;
  permissions: PartnerPermission[];
  status: PartnerStatus;
  rateLimitPerMinute: number | null;
  webhookUrl: string | null;
}

export interface PartnerWithSecret extends Partner {
  /** Shown once, at onboarding or rotation; only its hash is stored. */
  clientSecret: string;
}

async function recordPartnerEvent(client: PoolClient, type: PartnerEventType, partner: Partner): Promise<void> {
  await enqueueEvent(client, createEventEnvelope({ type, data: publicView(partner), producer: 'auth' }));
}

export async function onboardPartner(pool: Pool, environment: string, request: OnboardRequest): Promise<PartnerWithSecret> {
  const clientSecret = generateClientSecret(environment);
  const partner: PartnerWithSecretHash = {
    partnerId: randomUUID(),
    clientId: randomUUID(),
    name: request.name,
    status: request.status,
    permissions: request.permissions,
    rateLimitPerMinute: request.rateLimitPerMinute,
    webhookUrl: request.webhookUrl,
    clientSecretHash: await hashClientSecret(clientSecret),
  };
  await withTransaction(pool, async (client) => {
    await insertPartner(client, partner);
    await recordPartnerEvent(client, 'partner.created', partner);
  });
  return { ...publicView(partner), clientSecret };
}

type PartnerChange = Partial<Pick<Partner, 'status' | 'permissions' | 'rateLimitPerMinute' | 'webhookUrl' | 'name'>>;

/** Applies a change under a row lock and records partner.updated in the same transaction. */
export async function changePartner(pool: Pool, clientId: string, change: PartnerChange): Promise<Partner> {
  return withTransaction(pool, async (client) => {
    const current = await lockPartnerByClientId(client, clientId);
    if (!current) throw new PartnerNotFoundError(clientId);
    const updated: PartnerWithSecretHash = { ...current, ...change };
    await updatePartner(client, updated, false);
    await recordPartnerEvent(client, 'partner.updated', updated);
    return publicView(updated);
  });
}

/** Replaces the client secret; the old one stops working at once. Tokens already issued stay valid until they expire. */
export async function rotateClientSecret(pool: Pool, environment: string, clientId: string): Promise<PartnerWithSecret> {
  const clientSecret = generateClientSecret(environment);
  const clientSecretHash = await hashClientSecret(clientSecret);
  return withTransaction(pool, async (client) => {
    const current = await lockPartnerByClientId(client, clientId);
    if (!current) throw new PartnerNotFoundError(clientId);
    const updated = { ...current, clientSecretHash };
    await updatePartner(client, updated, true);
    await recordPartnerEvent(client, 'partner.secret_rotated', updated);
    return { ...publicView(updated), clientSecret };
  });
}
