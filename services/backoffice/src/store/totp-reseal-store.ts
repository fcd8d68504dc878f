import type { Queryable } from '@pwa/db';

/** One operator's sealed TOTP secret, as the re-sealing reads it: nothing else of the factor. */
export interface SealedTotpSecretRow {
  operatorId: string;
  sealedSecret: string;
}

/**
 * The next page of sealed TOTP secrets after an operator id, in id order (keyset paging: a page is
 * one indexed range read, however many operators there are, and rows added meanwhile are not lost).
 */
export async function sealedTotpSecretsAfter(db: Queryable, afterOperatorId: string | null, limit: number): Promise<SealedTotpSecretRow[]> {
  const result = await db.query<SealedTotpSecretRow>(
    `SELECT operator_id AS "operatorId", sealed_secret AS "sealedSecret"
       FROM operator_totp_factors
      WHERE $1::uuid IS NULL OR operator_id > $1::uuid
      ORDER BY operator_id
      LIMIT $2`,
    [afterOperatorId, limit],
  );
  return result.rows;
}

/** One operator's sealed TOTP secret now, or undefined when the factor is gone. */
export async function sealedTotpSecretOf(db: Queryable, operatorId: string): Promise<string | undefined> {
  const result = await db.query<{ sealedSecret: string }>(`SELECT sealed_secret AS "sealedSecret" FROM operator_totp_factors WHERE operator_id = $1`, [operatorId]);
  return result.rows[0]?.sealedSecret;
}

/**
 * Replaces a sealed secret only if it is still the one that was read: one statement, so its own
 * short transaction, and a factor changed in between (a new enrolment, another run) is never
 * overwritten with a stale secret. True when the row was replaced. The last accepted time step is
 * left alone, so a code used before the re-sealing stays used.
 */
export async function replaceSealedTotpSecret(db: Queryable, operatorId: string, expectedSealedSecret: string, newSealedSecret: string): Promise<boolean> {
  const result = await db.query(`UPDATE operator_totp_factors SET sealed_secret = $3 WHERE operator_id = $1 AND sealed_secret = $2`, [
    operatorId,
    expectedSealedSecret,
    newSealedSecret,
  ]);
  return result.rowCount === 1;
}
