import type { Queryable } from '@pwa/db';
import type { PartnerPermission, PartnerStatus } from '../domain/partner';

/**
 * The back-office's reads of partners (decision 0069): pages newest first by (created_at, partner
 * id), searched by part of the name or an exact partner or client id, and one partner with the
 * approved changes recorded for it. Never the client secret's hash.
 */
export interface AdminPartnerRow {
  partnerId: string;
  clientId: string;
  name: string;
  status: PartnerStatus;
  permissions: PartnerPermission[];
  rateLimitPerMinute: number | null;
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

const columns = `partner_id AS "partnerId", client_id AS "clientId", name, status, permissions, rate_limit_per_minute AS "rateLimitPerMinute",
  webhook_url AS "webhookUrl", to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdAt",
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt"`;

export interface PartnerSearch {
  q: string | undefined;
  status: PartnerStatus | undefined;
  after: { createdAt: string; id: string } | undefined;
  pageSize: number;
}

/** One page; `next` is the last row's position when there are more. The name match escapes LIKE's wildcards: what the person typed is matched literally. */
export async function searchPartners(db: Queryable, search: PartnerSearch): Promise<{ partners: AdminPartnerRow[]; next: { createdAt: string; id: string } | null }> {
  const values: unknown[] = [];
  const conditions: string[] = [];
  const placeholder = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (search.q !== undefined) {
    const exact = placeholder(search.q.toLowerCase());
    const pattern = placeholder(`%${search.q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
    conditions.push(`(partner_id::text = ${exact} OR client_id::text = ${exact} OR name ILIKE ${pattern})`);
  }
  if (search.status !== undefined) conditions.push(`status = ${placeholder(search.status)}`);
  if (search.after !== undefined) conditions.push(`(created_at, partner_id) < (${placeholder(search.after.createdAt)}::timestamptz, ${placeholder(search.after.id)}::uuid)`);
  const limit = placeholder(search.pageSize + 1);
  const result = await db.query<AdminPartnerRow>(
    `SELECT ${columns} FROM partners ${conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`} ORDER BY created_at DESC, partner_id DESC LIMIT ${limit}`,
    values,
  );
  const partners = result.rows.slice(0, search.pageSize);
  const last = partners.at(-1);
  return { partners, next: result.rows.length > search.pageSize && last ? { createdAt: last.createdAt, id: last.partnerId } : null };
}

export async function findAdminPartner(db: Queryable, partnerId: string): Promise<AdminPartnerRow | undefined> {
  const result = await db.query<AdminPartnerRow>(`SELECT ${columns} FROM partners WHERE partner_id = $1`, [partnerId]);
  return result.rows[0];
}

export interface RecordedPartnerChange {
  requestId: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  reason: string;
  operatorId: string;
  operatorName: string;
  makerId: string;
  checkerId: string;
  recordedAt: string;
}

/** The approved changes of one partner, newest first, at most `limit`. */
export async function partnerChanges(db: Queryable, partnerId: string, limit: number): Promise<RecordedPartnerChange[]> {
  const result = await db.query<RecordedPartnerChange & { recordedAt: Date }>(
    `SELECT request_id AS "requestId", action, before, after, reason, operator_id AS "operatorId", operator_name AS "operatorName",
            maker_id AS "makerId", checker_id AS "checkerId", recorded_at AS "recordedAt"
       FROM operator_changes WHERE target = $1 ORDER BY recorded_at DESC LIMIT $2`,
    [partnerId, limit],
  );
  return result.rows.map((row) => ({ ...row, recordedAt: row.recordedAt.toISOString() }));
}
