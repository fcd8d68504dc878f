import type { Queryable } from '@pwa/db';

/** A personal token as its owner sees it: never the secret or its hash. */
export interface PersonalTokenSummary {
  tokenId: string;
  operatorId: string;
  name: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}

const summaryColumns = `id AS "tokenId", operator_id AS "operatorId", name, created_at AS "createdAt", expires_at AS "expiresAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt", revoked_by AS "revokedBy"`;

export async function insertPersonalToken(
  db: Queryable,
  token: { tokenId: string; operatorId: string; name: string; tokenSha256: Buffer; lifetimeDays: number },
): Promise<PersonalTokenSummary> {
  const result = await db.query<PersonalTokenSummary>(
    `INSERT INTO operator_personal_tokens (id, operator_id, name, token_sha256, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5::int)) RETURNING ${summaryColumns}`,
    [token.tokenId, token.operatorId, token.name, token.tokenSha256, token.lifetimeDays],
  );
  const row = result.rows[0];
  if (!row) throw new Error('the personal token was not stored');
  return row;
}

/** The operator's tokens, newest first, live or ended (a person has a handful: one bounded read). */
export async function personalTokensOf(db: Queryable, operatorId: string, limit = 100): Promise<PersonalTokenSummary[]> {
  const result = await db.query<PersonalTokenSummary>(`SELECT ${summaryColumns} FROM operator_personal_tokens WHERE operator_id = $1 ORDER BY created_at DESC, id LIMIT $2`, [operatorId, limit]);
  return result.rows;
}

export async function findPersonalToken(db: Queryable, tokenId: string): Promise<PersonalTokenSummary | undefined> {
  const result = await db.query<PersonalTokenSummary>(`SELECT ${summaryColumns} FROM operator_personal_tokens WHERE id = $1`, [tokenId]);
  return result.rows[0];
}

/**
 * The live token with this hash and its operator, marked used: not revoked, not expired, its
 * operator active. Anything else is as unknown as no token (the caller answers alike).
 */
export async function useLivePersonalToken(db: Queryable, tokenSha256: Buffer): Promise<{ tokenId: string; operatorId: string; expiresAt: Date } | undefined> {
  const result = await db.query<{ tokenId: string; operatorId: string; expiresAt: Date }>(
    `UPDATE operator_personal_tokens t SET last_used_at = now()
       FROM operators o
      WHERE t.token_sha256 = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND o.id = t.operator_id AND o.status = 'active'
      RETURNING t.id AS "tokenId", t.operator_id AS "operatorId", t.expires_at AS "expiresAt"`,
    [tokenSha256],
  );
  return result.rows[0];
}

/** Revokes one live token; the revoked summary, or undefined when it was revoked already or is unknown. */
export async function revokePersonalToken(db: Queryable, tokenId: string, revokedBy: string): Promise<PersonalTokenSummary | undefined> {
  const result = await db.query<PersonalTokenSummary>(
    `UPDATE operator_personal_tokens SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING ${summaryColumns}`,
    [tokenId, revokedBy],
  );
  return result.rows[0];
}

/** Revokes every live token of an operator (disabled, or roles changed); the ids revoked. */
export async function revokeAllPersonalTokensOf(db: Queryable, operatorId: string, revokedBy: string): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    `UPDATE operator_personal_tokens SET revoked_at = now(), revoked_by = $2 WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
    [operatorId, revokedBy],
  );
  return result.rows.map((row) => row.id);
}
