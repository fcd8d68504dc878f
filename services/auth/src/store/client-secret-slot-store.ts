import type { PoolClient, Queryable } from '@pwa/db';

/**
 * The second client secret of a partner (migration 1700000000600): its hash while one is held. The
 * current secret's hash stays in partners.client_secret_hash (partner-store.ts); promoting the
 * second moves its hash there in one UPDATE.
 */
export async function secondSecretHashOf(db: Queryable, clientId: string): Promise<string | undefined> {
  const result = await db.query<{ hash: string | null }>(`SELECT second_client_secret_hash AS hash FROM partners WHERE client_id = $1`, [clientId]);
  return result.rows[0]?.hash ?? undefined;
}

export interface ClientSecretSlotRow {
  clientId: string;
  currentSince: Date;
  secondSince: Date | null;
}

export async function clientSecretSlotsOf(db: Queryable, partnerId: string): Promise<ClientSecretSlotRow | undefined> {
  const result = await db.query<ClientSecretSlotRow>(
    `SELECT client_id AS "clientId", secret_rotated_at AS "currentSince", second_client_secret_added_at AS "secondSince" FROM partners WHERE partner_id = $1`,
    [partnerId],
  );
  return result.rows[0];
}

/** Stores a second secret's hash; false when the partner holds one already (the row is locked by the caller). */
export async function addSecondSecret(client: PoolClient, partnerId: string, hash: string): Promise<boolean> {
  const result = await client.query(
    `UPDATE partners SET second_client_secret_hash = $2, second_client_secret_added_at = now() WHERE partner_id = $1 AND second_client_secret_hash IS NULL`,
    [partnerId, hash],
  );
  return result.rowCount === 1;
}

/** The second secret becomes the only one: the previous stops at once. False when there is no second. */
export async function promoteSecondSecret(client: PoolClient, partnerId: string): Promise<boolean> {
  const result = await client.query(
    `UPDATE partners SET client_secret_hash = second_client_secret_hash, secret_rotated_at = second_client_secret_added_at,
            second_client_secret_hash = NULL, second_client_secret_added_at = NULL
      WHERE partner_id = $1 AND second_client_secret_hash IS NOT NULL`,
    [partnerId],
  );
  return result.rowCount === 1;
}
