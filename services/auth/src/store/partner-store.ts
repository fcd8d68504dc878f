import type { PoolClient, Queryable } from '@pwa/db';
import type { PartnerPermission, PartnerStatus, PartnerWithSecretHash } from '../domain/partner';

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

/** Locks the partner row, named by its partner id, for an update in the caller's transaction. */
export async function lockPartnerById(client: PoolClient, partnerId: string): Promise<PartnerWithSecretHash | undefined> {
  const result = await client.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners WHERE partner_id = $1 FOR UPDATE`, [partnerId]);
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

/** A partner as the directory lists it: settings, current sealed webhook secrets and when either last changed. */
export interface PartnerDirectoryRow {
  partner: PartnerWithSecretHash;
  webhookSecrets: { secretId: string; sealedSecret: Buffer; validFrom: Date; validUntil: Date | null }[];
  /** The latest of the settings' change and the newest secret's creation, on the database clock. */
  changedAt: Date;
}

interface DirectoryRawRow extends PartnerRow {
  changed_at: Date;
  webhook_secrets: { secret_id: string; sealed_secret: string; valid_from: string; valid_until: string | null }[];
}

/**
 * One page of the partner directory in partner id order (keyset: the ids after `afterPartnerId`),
 * each partner with its secrets valid now or later, read in one statement (one snapshot).
 */
export async function listPartnerDirectory(db: Queryable, afterPartnerId: string | null, limit: number, onlyPartnerId: string | null = null): Promise<PartnerDirectoryRow[]> {
  const result = await db.query<DirectoryRawRow>(
    `SELECT ${partnerColumns.split(', ').map((column) => `p.${column}`).join(', ')},
            GREATEST(p.updated_at, COALESCE(s.newest_created_at, p.updated_at)) AS changed_at,
            COALESCE(s.secrets, '[]'::json) AS webhook_secrets
       FROM partners p
       LEFT JOIN LATERAL (
         SELECT max(w.created_at) AS newest_created_at,
                json_agg(json_build_object('secret_id', w.secret_id, 'sealed_secret', encode(w.sealed_secret, 'base64'),
                                           'valid_from', w.valid_from, 'valid_until', w.valid_until)
                         ORDER BY w.valid_from, w.created_at)
                  FILTER (WHERE w.valid_until IS NULL OR w.valid_until > now()) AS secrets
           FROM webhook_secrets w WHERE w.partner_id = p.partner_id
       ) s ON true
      WHERE ($1::uuid IS NULL OR p.partner_id > $1::uuid) AND ($3::uuid IS NULL OR p.partner_id = $3::uuid)
      ORDER BY p.partner_id
      LIMIT $2`,
    [afterPartnerId, limit, onlyPartnerId],
  );
  return result.rows.map((row) => ({
    partner: toPartner(row),
    changedAt: row.changed_at,
    webhookSecrets: row.webhook_secrets.map((secret) => ({
      secretId: secret.secret_id,
      // encode(…, 'base64') wraps lines every 76 characters.
      sealedSecret: Buffer.from(secret.sealed_secret.replace(/\s/g, ''), 'base64'),
      validFrom: new Date(secret.valid_from),
      validUntil: secret.valid_until === null ? null : new Date(secret.valid_until),
    })),
  }));
}

/** Marks the partner changed now (its directory entry's changedAt) without changing a setting: its secrets were re-sealed. */
export async function touchPartner(client: PoolClient, partnerId: string): Promise<void> {
  await client.query('UPDATE partners SET updated_at = now() WHERE partner_id = $1', [partnerId]);
}
