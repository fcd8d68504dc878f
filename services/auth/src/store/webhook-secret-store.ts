import type { PoolClient, Queryable } from '@pwa/db';

/** A stored webhook secret: only its sealed form (iv | tag | ciphertext) is kept. */
export interface StoredWebhookSecret {
  secretId: string;
  sealedSecret: Buffer;
  validFrom: Date;
  validUntil: Date | null;
}

interface WebhookSecretRow {
  secret_id: string;
  sealed_secret: Buffer;
  valid_from: Date;
  valid_until: Date | null;
}

/** The partner's secrets that are valid now or will be (valid_until unset or in the future), oldest first. */
export async function listCurrentWebhookSecrets(db: Queryable, partnerId: string): Promise<StoredWebhookSecret[]> {
  const result = await db.query<WebhookSecretRow>(
    `SELECT secret_id, sealed_secret, valid_from, valid_until
       FROM webhook_secrets
      WHERE partner_id = $1 AND (valid_until IS NULL OR valid_until > now())
      ORDER BY valid_from, created_at`,
    [partnerId],
  );
  return result.rows.map((row) => ({
    secretId: row.secret_id,
    sealedSecret: row.sealed_secret,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
  }));
}

/**
 * Ends every current secret of the partner at now + overlap, or earlier when it already ended
 * sooner (an overlap of 0 stops them all at once). Returns the end it set, or null when the
 * partner had no current secret.
 */
export async function endCurrentWebhookSecrets(client: PoolClient, partnerId: string, overlapHours: number): Promise<Date | null> {
  const result = await client.query<{ ends_at: Date }>(
    `UPDATE webhook_secrets
        SET valid_until = LEAST(COALESCE(valid_until, 'infinity'), now() + make_interval(hours => $2::int))
      WHERE partner_id = $1 AND (valid_until IS NULL OR valid_until > now())
      RETURNING now() + make_interval(hours => $2::int) AS ends_at`,
    [partnerId, overlapHours],
  );
  return result.rows[0]?.ends_at ?? null;
}

export async function insertWebhookSecret(client: PoolClient, partnerId: string, secretId: string, sealedSecret: Buffer): Promise<void> {
  await client.query(
    'INSERT INTO webhook_secrets (partner_id, secret_id, sealed_secret, valid_from) VALUES ($1, $2, $3, now())',
    [partnerId, secretId, sealedSecret],
  );
}

/** Every webhook secret of the partner, ended ones too (a key rotation re-seals them all), locked for the caller's transaction. */
export async function lockAllWebhookSecrets(client: PoolClient, partnerId: string): Promise<StoredWebhookSecret[]> {
  const result = await client.query<WebhookSecretRow>(
    `SELECT secret_id, sealed_secret, valid_from, valid_until FROM webhook_secrets WHERE partner_id = $1 ORDER BY valid_from, created_at FOR UPDATE`,
    [partnerId],
  );
  return result.rows.map((row) => ({ secretId: row.secret_id, sealedSecret: row.sealed_secret, validFrom: row.valid_from, validUntil: row.valid_until }));
}

export async function replaceSealedWebhookSecret(client: PoolClient, partnerId: string, secretId: string, sealedSecret: Buffer): Promise<void> {
  await client.query('UPDATE webhook_secrets SET sealed_secret = $3 WHERE partner_id = $1 AND secret_id = $2', [partnerId, secretId, sealedSecret]);
}
