import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { enqueueEvent } from '@pwa/bus';
import { createEventEnvelope, type PartnerEventData, type PartnerEventType } from '@pwa/contracts';
import { open, seal } from '@pwa/sealing';
import { generateClientSecret, hashClientSecret } from '../domain/client-secret';
import { publicView, type Partner, type PartnerPermission, type PartnerStatus, type PartnerWithSecretHash } from '../domain/partner';
import { generateWebhookSecret, webhookSecretAssociatedData } from '../domain/webhook-secret';
import { insertPartner, listPartnerDirectory, listPartners, lockPartnerByClientId, touchPartner, updatePartner } from '../store/partner-store';
import {
  endCurrentWebhookSecrets,
  insertWebhookSecret,
  listCurrentWebhookSecrets,
  lockAllWebhookSecrets,
  replaceSealedWebhookSecret,
  type StoredWebhookSecret,
} from '../store/webhook-secret-store';

export type { PartnerEventType };

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

export interface PartnerWithWebhookSecret extends Partner {
  webhookSecretId: string;
  /** Shown once, at onboarding or rotation; stored and published only sealed. */
  webhookSecret: string;
}

/**
 * Every partner event carries the partner's settings and its current webhook secrets (sealed, as
 * stored), read in the same transaction as the change, so a consumer that rebuilds its copy from
 * any one event has the secrets too.
 */
export async function recordPartnerEvent(client: PoolClient, type: PartnerEventType, partner: Partner): Promise<void> {
  const data = partnerEventDataOf(partner, await listCurrentWebhookSecrets(client, partner.partnerId));
  await enqueueEvent(client, createEventEnvelope({ type, data, producer: 'auth' }));
}

function partnerEventDataOf(partner: Partner, secrets: readonly StoredWebhookSecret[]): PartnerEventData {
  return {
    ...publicView(partner),
    webhookSecrets: secrets.map((secret) => ({
      secretId: secret.secretId,
      sealedSecret: secret.sealedSecret.toString('base64'),
      validFrom: secret.validFrom.toISOString(),
      validUntil: secret.validUntil === null ? null : secret.validUntil.toISOString(),
    })),
  };
}

/**
 * A partner as the directory serves it to the services that keep a copy (webhooks): exactly the
 * data of a version-1 partner event, with the time it last changed, which a consumer compares
 * with the occurredAt of the events it applied.
 */
export type PartnerDirectoryEntry = PartnerEventData & { changedAt: string };

export const partnerDirectoryPageMax = 500;

/** One page of every partner in partner id order; nextAfter is the id to ask after, null on the last page. */
export async function partnerDirectoryPage(pool: Pool, afterPartnerId: string | null, limit: number): Promise<{ partners: PartnerDirectoryEntry[]; nextAfter: string | null }> {
  const rows = await listPartnerDirectory(pool, afterPartnerId, limit);
  const partners = rows.map((row) => ({ ...partnerEventDataOf(row.partner, row.webhookSecrets), changedAt: row.changedAt.toISOString() }));
  const last = rows.at(-1);
  return { partners, nextAfter: rows.length === limit && last ? last.partner.partnerId : null };
}

export async function partnerDirectoryEntry(pool: Pool, partnerId: string): Promise<PartnerDirectoryEntry | undefined> {
  const [row] = await listPartnerDirectory(pool, null, 1, partnerId);
  return row && { ...partnerEventDataOf(row.partner, row.webhookSecrets), changedAt: row.changedAt.toISOString() };
}

/** Creates a webhook secret for the partner and stores it sealed; returns it in clear once. */
async function issueWebhookSecret(client: PoolClient, partnerId: string, sealingKey: Buffer): Promise<{ secretId: string; secret: string }> {
  const { secretId, secret } = generateWebhookSecret();
  const sealed = seal(Buffer.from(secret, 'utf8'), sealingKey, webhookSecretAssociatedData(partnerId, secretId));
  await insertWebhookSecret(client, partnerId, secretId, sealed);
  return { secretId, secret };
}

/** Onboards a partner with a client secret and a webhook signing secret, both shown once. */
export async function onboardPartner(
  pool: Pool,
  environment: string,
  webhookSecretSealingKey: Buffer,
  request: OnboardRequest,
): Promise<PartnerWithSecret & PartnerWithWebhookSecret> {
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
  const webhook = await withTransaction(pool, (client) => insertOnboardedPartner(client, partner, webhookSecretSealingKey));
  return { ...publicView(partner), clientSecret, webhookSecretId: webhook.secretId, webhookSecret: webhook.secret };
}

/** A new partner, given its client secret's hash, built as onboarding does (new ids); the secret itself is the caller's to show once. */
export async function newPartnerOf(environment: string, request: OnboardRequest): Promise<{ partner: PartnerWithSecretHash; clientSecret: string }> {
  const clientSecret = generateClientSecret(environment);
  return {
    clientSecret,
    partner: { partnerId: randomUUID(), clientId: randomUUID(), ...request, clientSecretHash: await hashClientSecret(clientSecret) },
  };
}

/**
 * The partner, its first webhook secret (sealed) and partner.created, in the caller's transaction
 * (the CLI's onboard, and the back-office's through auth's admin route). Returns the webhook
 * secret in clear, to be shown once.
 */
export async function insertOnboardedPartner(client: PoolClient, partner: PartnerWithSecretHash, webhookSecretSealingKey: Buffer): Promise<{ secretId: string; secret: string }> {
  await insertPartner(client, partner);
  const issued = await issueWebhookSecret(client, partner.partnerId, webhookSecretSealingKey);
  await recordPartnerEvent(client, 'partner.created', partner);
  return issued;
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
  const fresh = await newClientSecret(environment);
  return withTransaction(pool, async (client) => {
    const current = await lockPartnerByClientId(client, clientId);
    if (!current) throw new PartnerNotFoundError(clientId);
    return replaceClientSecret(client, current, fresh);
  });
}

/** A new client secret and its hash (hashing is slow: done before any transaction). */
export async function newClientSecret(environment: string): Promise<{ clientSecret: string; clientSecretHash: string }> {
  const clientSecret = generateClientSecret(environment);
  return { clientSecret, clientSecretHash: await hashClientSecret(clientSecret) };
}

/** In the caller's transaction, with the partner locked: the new secret's hash stored and partner.secret_rotated published. */
export async function replaceClientSecret(client: PoolClient, current: PartnerWithSecretHash, fresh: { clientSecret: string; clientSecretHash: string }): Promise<PartnerWithSecret> {
  const updated = { ...current, clientSecretHash: fresh.clientSecretHash };
  await updatePartner(client, updated, true);
  await recordPartnerEvent(client, 'partner.secret_rotated', updated);
  return { ...publicView(updated), clientSecret: fresh.clientSecret };
}

export interface RotatedWebhookSecret extends PartnerWithWebhookSecret {
  /** When the secrets that were current before stop being valid; null when there were none. */
  previousSecretsValidUntil: string | null;
}

/**
 * Issues a new webhook secret. The secrets current until now stay valid for the overlap (so
 * deliveries signed with either verify while the partner switches), then stop; an overlap of 0
 * stops them at once. A partner onboarded before webhook secrets existed gets its first one here.
 */
export async function rotateWebhookSecret(
  pool: Pool,
  webhookSecretSealingKey: Buffer,
  clientId: string,
  overlapHours: number,
): Promise<RotatedWebhookSecret> {
  return withTransaction(pool, async (client) => {
    const partner = await lockPartnerByClientId(client, clientId);
    if (!partner) throw new PartnerNotFoundError(clientId);
    return replaceWebhookSecret(client, partner, webhookSecretSealingKey, overlapHours);
  });
}

/** In the caller's transaction, with the partner locked: the current secrets end after the overlap, a new one is issued, partner.webhook_secret_rotated published. */
export async function replaceWebhookSecret(client: PoolClient, partner: PartnerWithSecretHash, webhookSecretSealingKey: Buffer, overlapHours: number): Promise<RotatedWebhookSecret> {
  const previousEnd = await endCurrentWebhookSecrets(client, partner.partnerId, overlapHours);
  const issued = await issueWebhookSecret(client, partner.partnerId, webhookSecretSealingKey);
  await recordPartnerEvent(client, 'partner.webhook_secret_rotated', partner);
  return {
    ...publicView(partner),
    webhookSecretId: issued.secretId,
    webhookSecret: issued.secret,
    previousSecretsValidUntil: previousEnd === null ? null : previousEnd.toISOString(),
  };
}

export interface ResealOutcome {
  partners: number;
  /** Secrets sealed under the old key and now under the new one. */
  resealed: number;
  /** Secrets that opened with the new key already (a repeated or interrupted run). */
  alreadyUnderNewKey: number;
}

/** A stored secret opens with neither key: the rotation stops before changing that partner. */
export class UnopenableWebhookSecretError extends Error {
  constructor(readonly partnerId: string, readonly secretId: string) {
    super(`Webhook secret ${secretId} of partner ${partnerId} opens with neither the old nor the new sealing key; nothing of that partner was changed`);
    this.name = 'UnopenableWebhookSecretError';
  }
}

/**
 * Re-seals every stored webhook secret (ended ones too) from the old sealing key to the new one,
 * one partner per transaction under its row lock, and publishes partner.updated for each partner
 * changed, so the webhooks service's copy carries the secrets sealed under the new key. The secret
 * values never change: partners verify as before. A secret that opens with the new key already is
 * left alone, so the command can be run again after an interruption.
 */
export async function resealWebhookSecrets(pool: Pool, oldKey: Buffer, newKey: Buffer): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { partners: 0, resealed: 0, alreadyUnderNewKey: 0 };
  for (const listed of await listPartners(pool)) {
    await withTransaction(pool, async (client) => {
      const partner = await lockPartnerByClientId(client, listed.clientId);
      if (!partner) return;
      let resealed = 0;
      for (const secret of await lockAllWebhookSecrets(client, partner.partnerId)) {
        const associatedData = webhookSecretAssociatedData(partner.partnerId, secret.secretId);
        if (opensWith(secret.sealedSecret, newKey, associatedData) !== undefined) {
          outcome.alreadyUnderNewKey += 1;
          continue;
        }
        const plaintext = opensWith(secret.sealedSecret, oldKey, associatedData);
        if (plaintext === undefined) throw new UnopenableWebhookSecretError(partner.partnerId, secret.secretId);
        await replaceSealedWebhookSecret(client, partner.partnerId, secret.secretId, seal(plaintext, newKey, associatedData));
        resealed += 1;
      }
      if (resealed > 0) {
        await touchPartner(client, partner.partnerId);
        await recordPartnerEvent(client, 'partner.updated', partner);
      }
      outcome.partners += 1;
      outcome.resealed += resealed;
    });
  }
  return outcome;
}

function opensWith(sealed: Buffer, key: Buffer, associatedData: string): Buffer | undefined {
  try {
    return open(sealed, key, associatedData);
  } catch {
    return undefined;
  }
}
