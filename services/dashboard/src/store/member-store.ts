import type { Queryable } from '@pwa/db';
import { passkeyStoreOf } from '@pwa/web-auth';
import type { MemberRole } from '../domain/member-roles';

export type MemberStatus = 'invited' | 'active' | 'removed';

/** Who invited a member: another member, or the operator (onboarding, the set-up command). */
export type Inviter = { kind: 'member'; memberId: string; displayName: string } | { kind: 'operator'; name: string };

/** A member as the dashboard reads it; the password hash never leaves the store but to the verifier. */
export interface Member {
  memberId: string;
  partnerId: string;
  email: string;
  displayName: string;
  role: MemberRole;
  status: MemberStatus;
  invitedBy: Inviter;
  createdAt: Date;
}

/** Every column, named as the Member field it fills (of the table `alias` when given). */
const columnsOf = (alias = ''): string =>
  `${alias}id AS "memberId", ${alias}partner_id AS "partnerId", ${alias}email, ${alias}display_name AS "displayName", ${alias}role, ${alias}status, ${alias}invited_by AS "invitedBy", ${alias}created_at AS "createdAt"`;
const columns = columnsOf();

/** Inserts an invited member; undefined when the address is already in use by someone not removed. */
export async function insertInvitedMember(db: Queryable, member: Omit<Member, 'status' | 'createdAt'>): Promise<Member | undefined> {
  const result = await db.query<Member>(
    `INSERT INTO members (id, partner_id, email, display_name, role, invited_by) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (email) WHERE status <> 'removed' DO NOTHING RETURNING ${columns}`,
    [member.memberId, member.partnerId, member.email, member.displayName, member.role, JSON.stringify(member.invitedBy)],
  );
  return result.rows[0];
}

export async function findMemberById(db: Queryable, memberId: string): Promise<Member | undefined> {
  const result = await db.query<Member>(`SELECT ${columns} FROM members WHERE id = $1`, [memberId]);
  return result.rows[0];
}

/** A member of this partner only: another partner's member id finds nothing. */
export async function findMemberOfPartner(db: Queryable, partnerId: string, memberId: string): Promise<Member | undefined> {
  const result = await db.query<Member>(`SELECT ${columns} FROM members WHERE id = $1 AND partner_id = $2`, [memberId, partnerId]);
  return result.rows[0];
}

export async function membersOfPartner(db: Queryable, partnerId: string): Promise<Member[]> {
  const result = await db.query<Member>(`SELECT ${columns} FROM members WHERE partner_id = $1 AND status <> 'removed' ORDER BY created_at, id`, [partnerId]);
  return result.rows;
}

/** The active admins of a partner: the last one cannot be removed or demoted. */
export async function activeAdminCount(db: Queryable, partnerId: string): Promise<number> {
  const result = await db.query<{ count: string }>(`SELECT count(*) AS count FROM members WHERE partner_id = $1 AND role = 'admin' AND status = 'active'`, [partnerId]);
  return Number(result.rows[0]?.count ?? 0);
}

/** The active member with this address and their password hash, for the verifier only. */
export async function signInCredentialsOf(db: Queryable, email: string): Promise<{ member: Member; passwordHash: string } | undefined> {
  const result = await db.query<Member & { passwordHash: string }>(`SELECT ${columns}, password_hash AS "passwordHash" FROM members WHERE email = $1 AND status = 'active'`, [email]);
  const row = result.rows[0];
  if (!row) return undefined;
  const { passwordHash, ...member } = row;
  return { member, passwordHash };
}

export async function activateInvitedMember(db: Queryable, change: { memberId: string; passwordHash: string; sealedTotpSecret: string }): Promise<boolean> {
  const updated = await db.query(`UPDATE members SET status = 'active', password_hash = $2, updated_at = now() WHERE id = $1 AND status = 'invited'`, [change.memberId, change.passwordHash]);
  if (updated.rowCount !== 1) return false;
  await db.query(`INSERT INTO member_totp_factors (member_id, sealed_secret) VALUES ($1, $2)`, [change.memberId, change.sealedTotpSecret]);
  return true;
}

/** Changes a member's role; the row as it was before, or undefined when no such member of the partner is left. */
export async function changeMemberRole(db: Queryable, partnerId: string, memberId: string, role: MemberRole): Promise<MemberRole | undefined> {
  const result = await db.query<{ role: MemberRole }>(
    `UPDATE members m SET role = $3, updated_at = now() FROM (SELECT role FROM members WHERE id = $1 AND partner_id = $2 AND status <> 'removed' FOR UPDATE) before
      WHERE m.id = $1 RETURNING before.role`,
    [memberId, partnerId, role],
  );
  return result.rows[0]?.role;
}

export async function removeMember(db: Queryable, partnerId: string, memberId: string): Promise<boolean> {
  const result = await db.query(`UPDATE members SET status = 'removed', updated_at = now() WHERE id = $1 AND partner_id = $2 AND status <> 'removed'`, [memberId, partnerId]);
  if (result.rowCount !== 1) return false;
  await db.query(`UPDATE member_invitations SET used_at = now() WHERE member_id = $1 AND used_at IS NULL`, [memberId]);
  return true;
}

/** Stores an invitation (its digest only) and makes every earlier unused one of the member unusable. */
export async function replaceInvitation(db: Queryable, link: { memberId: string; tokenSha256: Buffer; lifetimeSeconds: number }): Promise<Date> {
  await db.query(`UPDATE member_invitations SET used_at = now() WHERE member_id = $1 AND used_at IS NULL`, [link.memberId]);
  const result = await db.query<{ expires_at: Date }>(
    `INSERT INTO member_invitations (token_sha256, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::double precision)) RETURNING expires_at`,
    [link.tokenSha256, link.memberId, link.lifetimeSeconds],
  );
  return (result.rows[0] as { expires_at: Date }).expires_at;
}

/** The invited member a usable invitation is for (unused, unexpired, the member still invited). */
export async function invitedMemberOf(db: Queryable, tokenSha256: Buffer): Promise<Member | undefined> {
  const result = await db.query<Member>(
    `SELECT ${columnsOf('m.')} FROM member_invitations i JOIN members m ON m.id = i.member_id
      WHERE i.token_sha256 = $1 AND i.used_at IS NULL AND i.expires_at > now() AND m.status = 'invited'`,
    [tokenSha256],
  );
  return result.rows[0];
}

/** Uses an invitation once, whatever runs at the same time: the member id, or undefined when it was not usable. */
export async function consumeInvitation(db: Queryable, tokenSha256: Buffer): Promise<string | undefined> {
  const result = await db.query<{ member_id: string }>(
    `UPDATE member_invitations SET used_at = now() WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > now() RETURNING member_id`,
    [tokenSha256],
  );
  return result.rows[0]?.member_id;
}

export async function totpFactorOf(db: Queryable, memberId: string): Promise<{ sealedSecret: string; lastAcceptedStep: number | null } | undefined> {
  const result = await db.query<{ sealed_secret: string; last_accepted_step: string | null }>(`SELECT sealed_secret, last_accepted_step FROM member_totp_factors WHERE member_id = $1`, [memberId]);
  const row = result.rows[0];
  return row ? { sealedSecret: row.sealed_secret, lastAcceptedStep: row.last_accepted_step === null ? null : Number(row.last_accepted_step) } : undefined;
}

/** Spends a TOTP step: true only for the one caller that moved it forward. */
export async function acceptTotpStep(db: Queryable, memberId: string, step: number): Promise<boolean> {
  const result = await db.query(`UPDATE member_totp_factors SET last_accepted_step = $2 WHERE member_id = $1 AND (last_accepted_step IS NULL OR last_accepted_step < $2)`, [memberId, step]);
  return result.rowCount === 1;
}

/** The members' passkeys (migration 1700000000200): the statements are libs/web-auth's, shared with the back-office's operators. */
export const memberPasskeys = passkeyStoreOf({ name: 'member_passkeys', personColumn: 'member_id' });
