import { randomUUID } from 'node:crypto';
import type { Pool } from '@pwa/db';
import { listQueryOf, type DisbursementListFilter } from '../../src/store/disbursement-list-store';
import { listDisbursements } from '../../src/use-cases/list-disbursements';
import { openDisbursementsDatabase, type TestDatabase } from './disbursements-harness';

/**
 * The disbursements list's store and use case against a real Postgres: keyset pages that neither
 * skip nor repeat rows created in the same millisecond or microsecond, and plans that are index
 * scans in list order (no sort, no sequential scan) for a page, a filtered page and a lookup.
 */
describe('the disbursements list', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await openDisbursementsDatabase('disbursements_list');
    pool = database.pool;
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** Rows of a partner, `count` of them, created at the given instants (Postgres text, microseconds). */
  async function insertRows(partnerId: string, createdAts: readonly string[]): Promise<void> {
    await pool.query(
      `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, status, transaction_id, completed_at, settled_at, created_at)
       SELECT gen_random_uuid(), 'PKD-1-' || upper(replace(gen_random_uuid()::text, '-', '')), $1, 'row-' || n, gen_random_uuid(), '+231770000001', 'Musu', 'USD', 100, 1,
              'completed', 'TXN-' || upper(substr(md5(random()::text), 1, 16)), at::timestamptz, at::timestamptz, at::timestamptz
         FROM unnest($2::text[]) WITH ORDINALITY AS t (at, n)`,
      [partnerId, createdAts],
    );
  }

  test('when rows share a millisecond or a microsecond, then pages of two visit each exactly once, newest first, ties by id', async () => {
    const partnerId = randomUUID();
    const createdAts = [
      '2024-06-10T00:00:00.123456Z',
      '2024-06-10T00:00:00.123456Z',
      '2024-06-10T00:00:00.123456Z',
      '2024-06-10T00:00:00.123457Z',
      '2024-06-10T00:00:00.123001Z',
      '2024-06-10T00:00:00.124000Z',
      '2024-06-10T00:00:00.122999Z',
    ];
    await insertRows(partnerId, createdAts);
    const expected = await pool.query<{ reference_id: string }>('SELECT reference_id FROM disbursements WHERE partner_id = $1 ORDER BY created_at DESC, disbursement_id DESC', [partnerId]);

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const result = await listDisbursements(pool, partnerId, { limit: '2', ...(cursor === null ? {} : { cursor }) });
      seen.push(...result.items.map((item) => item.referenceId));
      cursor = result.nextCursor;
      if (!result.hasMore) break;
    }

    expect(seen).toEqual(expected.rows.map((row) => row.reference_id));
    expect(seen).toHaveLength(createdAts.length);
  });

  test('when the table holds many partners, then a page, a cursor page, a filtered page and a lookup are index scans in list order', async () => {
    const partnerId = randomUUID();
    await pool.query(
      `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, status, transaction_id, failure_code, completed_at, settled_at, created_at)
       SELECT gen_random_uuid(), 'PKD-1-' || upper(lpad(to_hex(i), 12, '0')), CASE WHEN i % 4 = 0 THEN $1::uuid ELSE md5('other-' || (i % 50))::uuid END, 'ext-' || i, gen_random_uuid(),
              '+2317700' || lpad((i % 40)::text, 5, '0'), 'Musu', CASE WHEN i % 3 = 0 THEN 'LRD' ELSE 'USD' END, 100, 1,
              CASE WHEN i % 20 = 0 THEN 'failed' WHEN i % 97 = 0 THEN 'timed_out' ELSE 'completed' END,
              CASE WHEN i % 20 = 0 OR i % 97 = 0 THEN NULL ELSE 'TXN-' || upper(lpad(to_hex(i), 16, '0')) END,
              CASE WHEN i % 20 = 0 THEN 'PKC_4002' WHEN i % 97 = 0 THEN 'PKC_7004' END,
              CASE WHEN i % 20 = 0 OR i % 97 = 0 THEN NULL ELSE now() END, now(), now() - i * interval '1 minute'
         FROM generate_series(1, 40000) AS i`,
      [partnerId],
    );
    await pool.query('ANALYZE disbursements');
    const middle = await pool.query<{ created_at_key: string; disbursement_id: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_key, disbursement_id FROM disbursements WHERE partner_id = $1 AND external_id = 'ext-20000'`,
      [partnerId],
    );
    const after = { createdAt: middle.rows[0]?.created_at_key ?? '', disbursementId: middle.rows[0]?.disbursement_id ?? '' };
    const shapes: [DisbursementListFilter, string][] = [
      [{ partnerId, rowCount: 21 }, 'disbursements_partner_created_idx'],
      [{ partnerId, after, rowCount: 21 }, 'disbursements_partner_created_idx'],
      [{ partnerId, createdFrom: '2020-01-01T00:00:00Z', createdTo: new Date(Date.now() - 86_400_000).toISOString(), rowCount: 21 }, 'disbursements_partner_created_idx'],
      [{ partnerId, status: 'failed', currency: 'USD', rowCount: 21 }, 'disbursements_partner_status_created_idx'],
      [{ partnerId, currency: 'LRD', rowCount: 21 }, 'disbursements_partner_currency_created_idx'],
      [{ partnerId, externalId: 'ext-4000', rowCount: 21 }, 'disbursements_partner_external_id_created_idx'],
      [{ partnerId, phone: '+231770000020', rowCount: 21 }, 'disbursements_partner_phone_created_idx'],
    ];
    for (const [filter, index] of shapes) {
      const { sql, values } = listQueryOf(filter);
      const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values)).rows.map((row) => row['QUERY PLAN']).join('\n');
      expect({ filter: Object.keys(filter), plan }).toEqual({ filter: Object.keys(filter), plan: expect.stringContaining(`Index Scan Backward using ${index}`) });
      expect(plan).not.toMatch(/Sort|Seq Scan/);
    }
  });

  test('when support searches by the recipient’s phone as they would type it, then only that phone’s disbursements are listed, and a phone that is not one is refused naming it', async () => {
    const partnerId = randomUUID();
    await insertRows(partnerId, ['2024-06-10T00:00:01.000000Z', '2024-06-10T00:00:02.000000Z']);
    await pool.query("UPDATE disbursements SET phone = '+231880000123' WHERE partner_id = $1 AND external_id = 'row-2'", [partnerId]);

    const page = await listDisbursements(pool, partnerId, { phone: '088-000-0123' });
    expect(page.items.map((item) => item.externalId)).toEqual(['row-2']);
    expect((await listDisbursements(pool, randomUUID(), { phone: '+231880000123' })).items).toEqual([]);

    await expect(listDisbursements(pool, partnerId, { phone: '+1 555 0100' })).rejects.toMatchObject({ code: 'PKC_2008', message: expect.stringContaining('phone') });
  });
});
