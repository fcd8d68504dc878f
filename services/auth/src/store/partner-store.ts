import type { Pool, PoolClient } from '@pwa/db';
import type { PartnerPermission, PartnerStatus, PartnerWithSecretHash } from '../domain/partner';

type Queryable = Pool | PoolClient;

interface PartnerRow {
  partner_id: string;
  client_id: string;
  name: string;
  client_secret_hash: string;
  status: PartnerStatus;
  permissions: PartnerPermission[];
  rate_limit_per_minute: number | null;
  webhook_url: string | null;
}

const partnerColumns = 'partner_id, client_id, name, client_secret_hash, status, permissions, rate_limit_per_minute, webhook_url';

function toPartner(row: PartnerRow): PartnerWithSecretHash {
  return {
    partnerId: row.partner_id,
    clientId: row.client_id,
    name: row.name,
    clientSecretHash: row.client_secret_hash,
    status: row.status,
    permissions: row.permissions,
    rateLimitPerMinute: row.rate_limit_per_minute,
    webhookUrl: row.webhook_url,
  };
}

export async function findPartnerByClientId(db: Queryable, clientId: string): Promise<PartnerWithSecretHash | undefined> {
  const result = await db.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners WHERE client_id = $1`, [clientId]);
  const row = result.rows[0];
  return row ? toPartner(row) : undefined;
}

export async function findPartnerById(db: Queryable, partnerId: string): Promise<PartnerWithSecretHash | undefined> {
  const result = await db.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners WHERE partner_id = $1`, [partnerId]);
  const row = result.rows[0];
  return row ? toPartner(row) : undefined;
}

/** Locks the partner row for an update in the caller's transaction. */
export async function lockPartnerByClientId(client: PoolClient, clientId: string): Promise<PartnerWithSecretHash | undefined> {
  const result = await client.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners WHERE client_id = $1 FOR UPDATE`, [clientId]);
  const row = result.rows[0];
  return row ? toPartner(row) : undefined;
}

export async function listPartners(db: Queryable): Promise<PartnerWithSecretHash[]> {
  const result = await db.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners ORDER BY created_at`);
  return result.rows.map(toPartner);
}

export async function insertPartner(client: PoolClient, partner: PartnerWithSecretHash): Promise<void> {
  await client.query(
    `INSERT INTO partners (partner_id, client_id, name, client_secret_hash, status, permissions, rate_limit_per_minute, webhook_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      partner.partnerId,
      partner.clientId,
      partner.name,
      partner.clientSecretHash,
      partner.status,
      partner.permissions,
      partner.rateLimitPerMinute,
      partner.webhookUrl,
    ],
  );
}

export async function updatePartner(client: PoolClient, partner: PartnerWithSecretHash, secretRotated: boolean): Promise<void> {
  await client.query(
    `UPDATE partners
        SET name = $2, client_secret_hash = $3, status = $4, permissions = $5, rate_limit_per_minute = $6,
            webhook_url = $7, updated_at = now(),
            secret_rotated_at = CASE WHEN $8 THEN now() ELSE secret_rotated_at END
      WHERE partner_id = $1`,
    [
      partner.partnerId,
      partner.name,
      partner.clientSecretHash,
      partner.status,
      partner.permissions,
      partner.rateLimitPerMinute,
      partner.webhookUrl,
      secretRotated,
    ],
  );
}
