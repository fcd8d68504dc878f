import type { Queryable } from '@pwa/db';
import type { OperatorRole } from '../domain/operator-roles';

export type OperatorStatus = 'invited' | 'active' | 'disabled';

/** An operator as the back-office reads it; the password hash never leaves the store but to the verifier. */
export interface Operator {
  operatorId: string;
  email: string;
  displayName: string;
  roles: OperatorRole[];
  status: OperatorStatus;
  createdAt: Date;
  createdBy: string | null;
}

/** Every column, named as the Operator field it fills: rows come back as operators, with no mapping code. */
const columns = 'id AS "operatorId", email, display_name AS "displayName", roles, status, created_at AS "createdAt", created_by AS "createdBy"';

export async function insertOperator(
  db: Queryable,
  operator: { operatorId: string; email: string; displayName: string; roles: readonly OperatorRole[]; createdBy: string | null },
): Promise<Operator> {
  const result = await db.query<Operator>(
    `INSERT INTO operators (id, email, display_name, roles, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${columns}`,
    [operator.operatorId, operator.email, operator.displayName, operator.roles, operator.createdBy],
  );
  return result.rows[0] as Operator;
}

export async function findOperatorByEmail(db: Queryable, email: string): Promise<Operator | undefined> {
  const result = await db.query<Operator>(`SELECT ${columns} FROM operators WHERE email = $1`, [email]);
  return result.rows[0];
}

export async function findOperatorById(db: Queryable, operatorId: string): Promise<Operator | undefined> {
  const result = await db.query<Operator>(`SELECT ${columns} FROM operators WHERE id = $1`, [operatorId]);
  return result.rows[0];
}

/** How many admins can sign in (active), and how many were invited and never finished set-up. */
export async function adminCounts(db: Queryable): Promise<{ active: number; invited: number }> {
  const result = await db.query<{ active: string; invited: string }>(
    `SELECT count(*) FILTER (WHERE status = 'active') AS active, count(*) FILTER (WHERE status = 'invited') AS invited
       FROM operators WHERE 'admin' = ANY (roles)`,
  );
  const row = result.rows[0];
  return { active: Number(row?.active ?? 0), invited: Number(row?.invited ?? 0) };
}

/** Stores a set-up link (its digest only) and makes every earlier unused link of the person unusable. */
export async function replaceSetupLink(db: Queryable, link: { operatorId: string; tokenSha256: Buffer; lifetimeSeconds: number }): Promise<Date> {
  await db.query(`UPDATE operator_setup_links SET used_at = now() WHERE operator_id = $1 AND used_at IS NULL`, [link.operatorId]);
  const result = await db.query<{ expires_at: Date }>(
    `INSERT INTO operator_setup_links (token_sha256, operator_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::double precision)) RETURNING expires_at`,
    [link.tokenSha256, link.operatorId, link.lifetimeSeconds],
  );
  return (result.rows[0] as { expires_at: Date }).expires_at;
}

/**
 * Uses a set-up link: one conditional UPDATE, so the link works once however many times it is
 * opened at once; undefined when it is unknown, used or expired (the caller says the same for all three).
 */
export async function consumeSetupLink(db: Queryable, tokenSha256: Buffer): Promise<string | undefined> {
  const result = await db.query<{ operator_id: string }>(
    `UPDATE operator_setup_links SET used_at = now() WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > now() RETURNING operator_id`,
    [tokenSha256],
  );
  return result.rows[0]?.operator_id;
}

/** The password hash of an operator who may sign in (active), for the verifier only; undefined for anyone else. */
export async function signInCredentialsOf(db: Queryable, email: string): Promise<{ operator: Operator; passwordHash: string } | undefined> {
  const result = await db.query<Operator & { passwordHash: string }>(
    `SELECT ${columns}, password_hash AS "passwordHash" FROM operators WHERE email = $1 AND status = 'active' AND password_hash IS NOT NULL`,
    [email],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  const { passwordHash, ...operator } = row;
  return { operator, passwordHash };
}

/** Finishes set-up: the password hash and the sealed TOTP secret in one statement each, inside the caller's transaction. */
export async function activateInvitedOperator(db: Queryable, setup: { operatorId: string; passwordHash: string; sealedTotpSecret: string }): Promise<boolean> {
  const activated = await db.query(
    `UPDATE operators SET status = 'active', password_hash = $2, updated_at = now() WHERE id = $1 AND status = 'invited'`,
    [setup.operatorId, setup.passwordHash],
  );
  if (activated.rowCount !== 1) return false;
  await db.query(
    `INSERT INTO operator_totp_factors (operator_id, sealed_secret) VALUES ($1, $2)
     ON CONFLICT (operator_id) DO UPDATE SET sealed_secret = EXCLUDED.sealed_secret, last_accepted_step = NULL, enrolled_at = now()`,
    [setup.operatorId, setup.sealedTotpSecret],
  );
  return true;
}

export async function totpFactorOf(db: Queryable, operatorId: string): Promise<{ sealedSecret: string; lastAcceptedStep: number | null } | undefined> {
  const result = await db.query<{ sealed_secret: string; last_accepted_step: string | null }>(
    `SELECT sealed_secret, last_accepted_step FROM operator_totp_factors WHERE operator_id = $1`,
    [operatorId],
  );
  const row = result.rows[0];
  return row ? { sealedSecret: row.sealed_secret, lastAcceptedStep: row.last_accepted_step === null ? null : Number(row.last_accepted_step) } : undefined;
}

/** Records the time step a code was accepted for, only if it is later than the last one: false means the code was used already. */
export async function acceptTotpStep(db: Queryable, operatorId: string, step: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE operator_totp_factors SET last_accepted_step = $2 WHERE operator_id = $1 AND (last_accepted_step IS NULL OR last_accepted_step < $2)`,
    [operatorId, step],
  );
  return result.rowCount === 1;
}

/** Every operator, by address (a back-office has tens of people, not thousands: one bounded read). */
export async function listOperators(db: Queryable, limit: number): Promise<Operator[]> {
  const result = await db.query<Operator>(`SELECT ${columns} FROM operators ORDER BY email LIMIT $1`, [limit]);
  return result.rows;
}

/** Replaces an operator's roles, locking the row; answers the operator before and after, or undefined when unknown. */
export async function replaceOperatorRoles(db: Queryable, operatorId: string, roles: readonly OperatorRole[]): Promise<{ before: Operator; after: Operator } | undefined> {
  const before = await db.query<Operator>(`SELECT ${columns} FROM operators WHERE id = $1 FOR UPDATE`, [operatorId]);
  const row = before.rows[0];
  if (!row) return undefined;
  const after = await db.query<Operator>(`UPDATE operators SET roles = $2, updated_at = now() WHERE id = $1 RETURNING ${columns}`, [operatorId, roles]);
  return { before: row, after: after.rows[0] as Operator };
}

/** Disables an operator (they can no longer sign in); undefined when unknown or disabled already. */
export async function disableOperator(db: Queryable, operatorId: string): Promise<Operator | undefined> {
  const result = await db.query<Operator>(`UPDATE operators SET status = 'disabled', updated_at = now() WHERE id = $1 AND status <> 'disabled' RETURNING ${columns}`, [operatorId]);
  return result.rows[0];
}

/**
 * Locks every active admin's row, in id order, and answers their ids: a change that could remove
 * the last admin takes this lock first, so two admins demoting each other at once are serialised
 * (and never deadlock: every such change locks the admins first, in the same order, then its target).
 */
export async function lockActiveAdmins(db: Queryable): Promise<string[]> {
  const result = await db.query<{ id: string }>(`SELECT id FROM operators WHERE status = 'active' AND 'admin' = ANY (roles) ORDER BY id FOR UPDATE`);
  return result.rows.map((row) => row.id);
}

/** Display names of these operators by id (the approvals queue shows people, not ids); unknown ids are left out. */
export async function operatorNamesOf(db: Queryable, operatorIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(operatorIds)];
  if (ids.length === 0) return new Map();
  const result = await db.query<{ id: string; display_name: string }>('SELECT id, display_name FROM operators WHERE id = ANY($1::uuid[])', [ids]);
  return new Map(result.rows.map((row) => [row.id, row.display_name]));
}
