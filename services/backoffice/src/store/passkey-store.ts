import type { Queryable } from '@pwa/db';

/** A passkey as its owner sees it in the console: never the public key. */
export interface PasskeySummary {
  passkeyId: string;
  credentialId: string;
  name: string;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What the verifier needs to check an assertion: the public key (COSE) and the last counter. */
export interface PasskeyCredential {
  passkeyId: string;
  operatorId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  signCount: number;
  transports: string[];
}

const summaryColumns = `id AS "passkeyId", credential_id AS "credentialId", name, transports, device_type AS "deviceType", backed_up AS "backedUp", created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

/** An operator's passkeys, oldest first (a person has a handful: one bounded read). */
export async function passkeysOf(db: Queryable, operatorId: string, limit = 50): Promise<PasskeySummary[]> {
  const result = await db.query<PasskeySummary>(`SELECT ${summaryColumns} FROM operator_passkeys WHERE operator_id = $1 ORDER BY created_at, id LIMIT $2`, [operatorId, limit]);
  return result.rows;
}

export async function passkeyCountOf(db: Queryable, operatorId: string): Promise<number> {
  const result = await db.query<{ count: string }>(`SELECT count(*) AS count FROM operator_passkeys WHERE operator_id = $1`, [operatorId]);
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Stores a verified registration; false when the credential id is registered already (to anyone),
 * so one authenticator credential never belongs to two people.
 */
export async function insertPasskey(
  db: Queryable,
  passkey: { passkeyId: string; operatorId: string; credentialId: string; publicKey: Uint8Array; signCount: number; transports: readonly string[]; name: string; deviceType: 'singleDevice' | 'multiDevice'; backedUp: boolean },
): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO operator_passkeys (id, operator_id, credential_id, public_key, sign_count, transports, name, device_type, backed_up)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (credential_id) DO NOTHING`,
    [passkey.passkeyId, passkey.operatorId, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.signCount, passkey.transports, passkey.name, passkey.deviceType, passkey.backedUp],
  );
  return result.rowCount === 1;
}

/** The credential with this id if it belongs to this operator; another person's credential is as unknown as none. */
export async function passkeyCredentialOf(db: Queryable, operatorId: string, credentialId: string): Promise<PasskeyCredential | undefined> {
  const result = await db.query<{ id: string; operator_id: string; credential_id: string; public_key: Buffer; sign_count: string; transports: string[] }>(
    `SELECT id, operator_id, credential_id, public_key, sign_count, transports FROM operator_passkeys WHERE operator_id = $1 AND credential_id = $2`,
    [operatorId, credentialId],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return { passkeyId: row.id, operatorId: row.operator_id, credentialId: row.credential_id, publicKey: new Uint8Array(row.public_key), signCount: Number(row.sign_count), transports: row.transports };
}

/**
 * Records a sign-in with the passkey: the new counter only if it is higher than the stored one
 * (or both are zero: an authenticator that keeps no counter). False means another sign-in used
 * this counter first (a replay racing the original), and the caller refuses.
 */
export async function recordPasskeyUse(db: Queryable, passkeyId: string, expectedSignCount: number, newSignCount: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE operator_passkeys SET sign_count = $3, last_used_at = now()
      WHERE id = $1 AND sign_count = $2 AND ($3 > sign_count OR ($3 = 0 AND sign_count = 0))`,
    [passkeyId, expectedSignCount, newSignCount],
  );
  return result.rowCount === 1;
}

/** Removes one of the operator's passkeys; the removed one's credential id, or undefined when it is not theirs (or gone). */
export async function deletePasskey(db: Queryable, operatorId: string, passkeyId: string): Promise<{ credentialId: string; name: string } | undefined> {
  const result = await db.query<{ credential_id: string; name: string }>(`DELETE FROM operator_passkeys WHERE id = $1 AND operator_id = $2 RETURNING credential_id, name`, [passkeyId, operatorId]);
  const row = result.rows[0];
  return row ? { credentialId: row.credential_id, name: row.name } : undefined;
}
