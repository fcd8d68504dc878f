import type { Queryable } from '@pwa/db';
import type { OperatorStatus } from './operator-store';

/** What a person signed in with before an admin's reset: counts and flags only, never a secret. */
export interface ClearedFactors {
  /** A TOTP factor (an authenticator app) was enrolled. */
  authenticatorApp: boolean;
  passkeys: number;
  identityProviderLinks: number;
}

/**
 * Takes a person back to "invited" for a factor reset, inside the caller's transaction: the row is
 * locked, the password hash removed (the set-up link sets a new one), and the TOTP factor, passkeys
 * and identity-provider links deleted. Undefined for an unknown or disabled person (nothing changes).
 */
export async function returnToInvited(db: Queryable, operatorId: string): Promise<{ before: OperatorStatus; cleared: ClearedFactors } | undefined> {
  const locked = await db.query<{ status: OperatorStatus }>(`SELECT status FROM operators WHERE id = $1 FOR UPDATE`, [operatorId]);
  const before = locked.rows[0]?.status;
  if (before === undefined || before === 'disabled') return undefined;
  await db.query(`UPDATE operators SET status = 'invited', password_hash = NULL, updated_at = now() WHERE id = $1`, [operatorId]);
  const totp = await db.query(`DELETE FROM operator_totp_factors WHERE operator_id = $1`, [operatorId]);
  const passkeys = await db.query(`DELETE FROM operator_passkeys WHERE operator_id = $1`, [operatorId]);
  const links = await db.query(`DELETE FROM operator_oidc_links WHERE operator_id = $1`, [operatorId]);
  return { before, cleared: { authenticatorApp: (totp.rowCount ?? 0) > 0, passkeys: passkeys.rowCount ?? 0, identityProviderLinks: links.rowCount ?? 0 } };
}
