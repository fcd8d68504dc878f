import type { PoolClient, Queryable } from '@pwa/db';
import type { JsonWebKey } from 'node:crypto';

export interface SigningKeyRow {
  kid: string;
  publicJwk: JsonWebKey & { kid: string; alg: string; use: string };
  privateKeyCiphertext: Buffer;
  createdAt: Date;
  retiredAt: Date | null;
}

interface RawRow {
  kid: string;
  public_jwk: SigningKeyRow['publicJwk'];
  private_key_ciphertext: Buffer;
  created_at: Date;
  retired_at: Date | null;
}

/** Named, not `*`: a prepared statement's result columns must not change when a migration adds one. */
const signingKeyColumns = 'kid, public_jwk, private_key_ciphertext, created_at, retired_at';

function toRow(raw: RawRow): SigningKeyRow {
  return {
    kid: raw.kid,
    publicJwk: raw.public_jwk,
    privateKeyCiphertext: raw.private_key_ciphertext,
    createdAt: raw.created_at,
    retiredAt: raw.retired_at,
  };
}

export async function findActiveSigningKey(db: Queryable): Promise<SigningKeyRow | undefined> {
  const result = await db.query<RawRow>(`SELECT ${signingKeyColumns} FROM signing_keys WHERE retired_at IS NULL`);
  const row = result.rows[0];
  return row ? toRow(row) : undefined;
}

/** Keys whose tokens may still be valid: the active one and those retired within the grace period. */
export async function listPublishedSigningKeys(db: Queryable, gracePeriodSeconds: number): Promise<SigningKeyRow[]> {
  const result = await db.query<RawRow>(
    `SELECT ${signingKeyColumns} FROM signing_keys
      WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1)
      ORDER BY created_at DESC`,
    [gracePeriodSeconds],
  );
  return result.rows.map(toRow);
}

export async function retireActiveSigningKey(client: PoolClient): Promise<void> {
  await client.query('UPDATE signing_keys SET retired_at = now() WHERE retired_at IS NULL');
}

export async function insertSigningKey(client: PoolClient, kid: string, publicJwk: object, sealedPrivateKey: Buffer): Promise<void> {
  await client.query(
    `INSERT INTO signing_keys (kid, algorithm, public_jwk, private_key_ciphertext) VALUES ($1, 'ES256', $2, $3)`,
    [kid, JSON.stringify(publicJwk), sealedPrivateKey],
  );
}

/** Every signing key, retired ones too, locked for the caller's transaction (a key-encryption-key rotation). */
export async function lockAllSigningKeys(client: PoolClient): Promise<SigningKeyRow[]> {
  const result = await client.query<RawRow>(`SELECT ${signingKeyColumns} FROM signing_keys ORDER BY created_at FOR UPDATE`);
  return result.rows.map(toRow);
}

export async function replacePrivateKeyCiphertext(client: PoolClient, kid: string, privateKeyCiphertext: Buffer): Promise<void> {
  await client.query('UPDATE signing_keys SET private_key_ciphertext = $2 WHERE kid = $1', [kid, privateKeyCiphertext]);
}
