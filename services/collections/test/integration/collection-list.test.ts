import { randomUUID } from 'node:crypto';
import type { Pool } from '@pwa/db';
import { listQueryOf, type CollectionListFilter } from '../../src/store/collection-list-store';
import type { CollectionsDependencies } from '../../src/use-cases/dependencies';
import { listCollections } from '../../src/use-cases/list-collections';
import { openCollectionsDatabase, type TestDatabase } from './collections-harness';

/**
 * The collections list's store and use case against a real Postgres: keyset pages that neither
 * skip nor repeat rows created in the same microsecond, processing shown and filtered as
 * pending_approval, and plans that are index scans in list order for each filter shape.
 */
describe('the collections list', () => {
  let database: TestDatabase;
  let pool: Pool;
  let dependencies: CollectionsDependencies;

  beforeAll(async () => {
    database = await openCollectionsDatabase('collections_list');
    pool = database.pool;
    // The list reads nothing but the pool.
    dependencies = { pool } as unknown as CollectionsDependencies;
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** `count` rows of the partner from generate_series: status and created_at by n. */
  async function insertRows(partnerId: string, count: number, createdAtSql: string, statusSql = "'pending_approval'"): Promise<void> {
    await pool.query(
      `INSERT INTO collection_requests (id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, status, expires_at, created_at, next_posting_at)
       SELECT gen_random_uuid(), 'PKC-1-' || upper(replace(gen_random_uuid()::text, '-', '')), $1, 'row-' || n, gen_random_uuid(), '+2317700' || lpad((n % 10)::text, 5, '0'), 'Musu',
              CASE WHEN n % 3 = 0 THEN 'LRD' ELSE 'USD' END, 100, 1, ${statusSql}, now() + interval '10 minutes', ${createdAtSql}, now()
         FROM generate_series(1, $2) AS n`,
      [partnerId, count],
    );
  }

  test('when rows share a microsecond and some are processing, then pages of two visit each once in order, and processing is listed and filtered as pending_approval', async () => {
    const partnerId = randomUUID();
    await insertRows(partnerId, 7, "'2024-06-10T00:00:00.123456Z'::timestamptz + (n / 3) * interval '1 microsecond'", "CASE WHEN n % 2 = 0 THEN 'processing' ELSE 'pending_approval' END");
    const expected = await pool.query<{ reference_id: string }>('SELECT reference_id FROM collection_requests WHERE partner_id = $1 ORDER BY created_at DESC, id DESC', [partnerId]);

    const seen: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const result = await listCollections(dependencies, partnerId, { limit: '2', status: 'pending_approval', ...(cursor === null ? {} : { cursor }) });
      seen.push(...result.items);
      cursor = result.nextCursor;
      if (!result.hasMore) break;
    }

    expect(seen.map((item) => item.referenceId)).toEqual(expected.rows.map((row) => row.reference_id));
    expect(new Set(seen.map((item) => item.status))).toEqual(new Set(['pending_approval']));
  });

  test('when the table holds many partners, then each filter shape is an index scan in list order', async () => {
    const partnerId = randomUUID();
    await insertRows(partnerId, 10_000, "now() - n * interval '1 minute'", "CASE WHEN n % 10 = 0 THEN 'declined' WHEN n % 7 = 0 THEN 'expired' ELSE 'pending_approval' END");
    for (let other = 0; other < 3; other += 1) await insertRows(randomUUID(), 10_000, "now() - n * interval '1 minute'");
    await pool.query('ANALYZE collection_requests');
    const shapes: [CollectionListFilter, string][] = [
      [{ partnerId, rowCount: 21 }, 'collection_requests_partner_created'],
      [{ partnerId, status: 'declined', rowCount: 21 }, 'collection_requests_partner_status_created'],
      [{ partnerId, currency: 'LRD', rowCount: 21 }, 'collection_requests_partner_currency_created'],
      [{ partnerId, externalId: 'row-42', rowCount: 21 }, 'collection_requests_partner_external_id_created'],
      // A customer with many payments (a thousand here): the page is the newest 20 of an index range, never a sort of them all.
      [{ partnerId, phone: '+231770000007', rowCount: 21 }, 'collection_requests_partner_phone_created'],
    ];
    for (const [filter, index] of shapes) {
      const { sql, values } = listQueryOf(filter);
      const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values)).rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain(`Index Scan Backward using ${index} `);
      expect(plan).not.toMatch(/Sort|Seq Scan/);
    }
  });

  test('when support searches by the customer’s phone as they would type it, then only that phone’s collections are listed, and a phone that is not one is refused naming it', async () => {
    const partnerId = randomUUID();
    await insertRows(partnerId, 120, "now() - n * interval '1 minute'");
    const expected = await pool.query<{ reference_id: string }>("SELECT reference_id FROM collection_requests WHERE partner_id = $1 AND phone = '+231770000007' ORDER BY created_at DESC, id DESC", [partnerId]);
    expect(expected.rows).toHaveLength(12);

    const page = await listCollections(dependencies, partnerId, { phone: '077 000 0007', limit: '20' });
    expect(page.items.map((item) => item.referenceId)).toEqual(expected.rows.map((row) => row.reference_id));
    const other = await listCollections(dependencies, randomUUID(), { phone: '+231770000007' });
    expect(other.items).toEqual([]);

    await expect(listCollections(dependencies, partnerId, { phone: '12345' })).rejects.toMatchObject({ code: 'PKC_2008', message: expect.stringContaining('phone') });
  });
});
