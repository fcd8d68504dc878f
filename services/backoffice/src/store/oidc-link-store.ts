import type { Queryable } from '@pwa/db';

/** The operator an identity-provider subject is linked to, if any (linked on the first sign-in). */
export async function operatorIdLinkedTo(db: Queryable, issuer: string, subject: string): Promise<string | undefined> {
  const result = await db.query<{ operator_id: string }>(`SELECT operator_id FROM operator_oidc_links WHERE issuer = $1 AND subject = $2`, [issuer, subject]);
  return result.rows[0]?.operator_id;
}

/**
 * Links a subject to an operator, once: false when the subject is linked already or the operator
 * has another subject at this issuer (two first sign-ins at once make one link).
 */
export async function linkOidcSubject(db: Queryable, link: { issuer: string; subject: string; operatorId: string }): Promise<boolean> {
  const result = await db.query(`INSERT INTO operator_oidc_links (issuer, subject, operator_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [link.issuer, link.subject, link.operatorId]);
  return result.rowCount === 1;
}

export async function recordOidcLinkUse(db: Queryable, issuer: string, subject: string): Promise<void> {
  await db.query(`UPDATE operator_oidc_links SET last_used_at = now() WHERE issuer = $1 AND subject = $2`, [issuer, subject]);
}
