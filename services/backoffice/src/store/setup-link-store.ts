import type { Queryable } from '@pwa/db';

/** The invited operator a usable set-up link belongs to (unused, unexpired, the person still invited), read without using it. */
export async function invitedOperatorOfSetupLink(db: Queryable, tokenSha256: Buffer): Promise<{ operatorId: string; email: string; displayName: string } | undefined> {
  const result = await db.query<{ id: string; email: string; display_name: string }>(
    `SELECT o.id, o.email, o.display_name
       FROM operator_setup_links l JOIN operators o ON o.id = l.operator_id
      WHERE l.token_sha256 = $1 AND l.used_at IS NULL AND l.expires_at > now() AND o.status = 'invited'`,
    [tokenSha256],
  );
  const row = result.rows[0];
  return row ? { operatorId: row.id, email: row.email, displayName: row.display_name } : undefined;
}
