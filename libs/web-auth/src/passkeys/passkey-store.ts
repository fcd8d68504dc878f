import type { Queryable } from '@pwa/db';

/**
 * Where a console keeps its people's passkeys: one table per console (operator_passkeys in the
 * back-office, member_passkeys in the dashboard) of the same shape, the person's id in its own
 * column. The statements are the same for both; only the two identifiers differ, fixed in code.
 */
export interface PasskeyTable {
  /** The table, e.g. operator_passkeys. */
  name: string;
  /** The column holding the person's id, e.g. operator_id. */
  personColumn: string;
}

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
  personId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  signCount: number;
  transports: string[];
}

export interface NewPasskey {
  passkeyId: string;
  personId: string;
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: readonly string[];
  name: string;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

const identifier = /^[a-z][a-z_]{0,62}$/;

/** The statements on one console's table; the identifiers are checked once here (they come from code, never from a request). */
export function passkeyStoreOf(table: PasskeyTable) {
  if (!identifier.test(table.name) || !identifier.test(table.personColumn)) throw new Error(`Not a table or column name: ${table.name}.${table.personColumn}`);
  const { name, personColumn } = table;
  const summaryColumns = `id AS "passkeyId", credential_id AS "credentialId", name, transports, device_type AS "deviceType", backed_up AS "backedUp", created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

  return {
    /** A person's passkeys, oldest first (a person has a handful: one bounded read). */
    async passkeysOf(db: Queryable, personId: string, limit = 50): Promise<PasskeySummary[]> {
      const result = await db.query<PasskeySummary>(`SELECT ${summaryColumns} FROM ${name} WHERE ${personColumn} = $1 ORDER BY created_at, id LIMIT $2`, [personId, limit]);
      return result.rows;
    },

    async passkeyCountOf(db: Queryable, personId: string): Promise<number> {
      const result = await db.query<{ count: string }>(`SELECT count(*) AS count FROM ${name} WHERE ${personColumn} = $1`, [personId]);
      return Number(result.rows[0]?.count ?? 0);
    },

    /**
     * Stores a verified registration; false when the credential id is registered already (to anyone),
     * so one authenticator credential never belongs to two people.
     */
    async insertPasskey(db: Queryable, passkey: NewPasskey): Promise<boolean> {
      const result = await db.query(
        `INSERT INTO ${name} (id, ${personColumn}, credential_id, public_key, sign_count, transports, name, device_type, backed_up)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (credential_id) DO NOTHING`,
        [passkey.passkeyId, passkey.personId, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.signCount, passkey.transports, passkey.name, passkey.deviceType, passkey.backedUp],
      );
      return result.rowCount === 1;
    },

    /** The credential with this id if it belongs to this person; another person's credential is as unknown as none. */
    async passkeyCredentialOf(db: Queryable, personId: string, credentialId: string): Promise<PasskeyCredential | undefined> {
      const result = await db.query<{ id: string; person_id: string; credential_id: string; public_key: Buffer; sign_count: string; transports: string[] }>(
        `SELECT id, ${personColumn} AS person_id, credential_id, public_key, sign_count, transports FROM ${name} WHERE ${personColumn} = $1 AND credential_id = $2`,
        [personId, credentialId],
      );
      const row = result.rows[0];
      if (!row) return undefined;
      return { passkeyId: row.id, personId: row.person_id, credentialId: row.credential_id, publicKey: new Uint8Array(row.public_key), signCount: Number(row.sign_count), transports: row.transports };
    },

    /**
     * Records a sign-in with the passkey: the new counter only if it is higher than the stored one
     * (or both are zero: an authenticator that keeps no counter). False means another sign-in used
     * this counter first (a replay racing the original), and the caller refuses.
     */
    async recordPasskeyUse(db: Queryable, passkeyId: string, expectedSignCount: number, newSignCount: number): Promise<boolean> {
      const result = await db.query(
        `UPDATE ${name} SET sign_count = $3, last_used_at = now()
          WHERE id = $1 AND sign_count = $2 AND ($3 > sign_count OR ($3 = 0 AND sign_count = 0))`,
        [passkeyId, expectedSignCount, newSignCount],
      );
      return result.rowCount === 1;
    },

    /** Removes one of the person's passkeys; the removed one's credential id, or undefined when it is not theirs (or gone). */
    async deletePasskey(db: Queryable, personId: string, passkeyId: string): Promise<{ credentialId: string; name: string } | undefined> {
      const result = await db.query<{ credential_id: string; name: string }>(`DELETE FROM ${name} WHERE id = $1 AND ${personColumn} = $2 RETURNING credential_id, name`, [passkeyId, personId]);
      const row = result.rows[0];
      return row ? { credentialId: row.credential_id, name: row.name } : undefined;
    },
  };
}

export type PasskeyStore = ReturnType<typeof passkeyStoreOf>;
