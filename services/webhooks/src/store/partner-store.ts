import type { PoolClient, Queryable } from '@pwa/db';
import type { PartnerEvent, PartnerEventData } from '@pwa/contracts';

/** A partner's webhook secret as auth sealed it: opened only in memory, when an attempt is signed. */
export interface SealedWebhookSecret {
  secretId: string;
  sealedSecret: string;
  validFrom: string;
  validUntil: string | null;
}

export interface WebhookPartner {
  partnerId: string;
  clientId: string;
  status: string;
  webhookUrl: string | null;
  secrets: SealedWebhookSecret[];
}

interface PartnerRow {
  partner_id: string;
  client_id: string;
  status: string;
  webhook_url: string | null;
  webhook_secrets: SealedWebhookSecret[];
}

/**
 * Replaces the local copy of a partner with the event's settings, unless a newer event was already
 * applied (events may arrive out of order after a redelivery). An event without webhookSecrets
 * (published before secrets existed) keeps the secrets already known.
 */
export async function applyPartnerEvent(client: PoolClient, event: PartnerEvent): Promise<boolean> {
  return applyPartnerData(client, event.data, event.occurredAt);
}

/**
 * The same replacement for a partner read from auth's directory: its changedAt stands where an
 * event's occurredAt would, so an event newer than the directory's answer still wins, and the
 * directory's answer replaces a copy older than it (a restored or partly rebuilt table).
 */
export async function applyPartnerData(db: Queryable, data: PartnerEventData, changedAt: string): Promise<boolean> {
  const secrets = data.webhookSecrets === undefined ? null : JSON.stringify(data.webhookSecrets);
  const result = await db.query(
    `INSERT INTO partners (partner_id, client_id, status, webhook_url, webhook_secrets, source_occurred_at)
     VALUES ($1, $2, $3, $4, COALESCE($5::jsonb, '[]'::jsonb), $6)
     ON CONFLICT (partner_id) DO UPDATE SET
       client_id = excluded.client_id, status = excluded.status, webhook_url = excluded.webhook_url,
       webhook_secrets = CASE WHEN $5::jsonb IS NULL THEN partners.webhook_secrets ELSE excluded.webhook_secrets END,
       source_occurred_at = excluded.source_occurred_at, updated_at = now()
     WHERE partners.source_occurred_at <= excluded.source_occurred_at`,
    [data.partnerId.toLowerCase(), data.clientId, data.status, data.webhookUrl, secrets, changedAt],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function findPartner(db: Queryable, partnerId: string): Promise<WebhookPartner | undefined> {
  const result = await db.query<PartnerRow>(
    'SELECT partner_id, client_id, status, webhook_url, webhook_secrets FROM partners WHERE partner_id = $1',
    [partnerId],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return { partnerId: row.partner_id, clientId: row.client_id, status: row.status, webhookUrl: row.webhook_url, secrets: row.webhook_secrets };
}
