import { randomUUID } from 'node:crypto';
import { processOnce } from '@pwa/bus';
import type { PoolClient } from '@pwa/db';
import { createTestDatabase, sleep, type TestDatabase } from '../support/test-environment';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query('CREATE TABLE effects (event_id uuid NOT NULL, consumer text NOT NULL)');
});

afterAll(async () => {
  await database.drop();
});

/** The work of a consumer: one row per run, in the same transaction as the processed_events row. */
function recordEffect(consumer: string, eventId: string) {
  return async (client: PoolClient): Promise<void> => {
    await client.query('INSERT INTO effects (event_id, consumer) VALUES ($1, $2)', [eventId, consumer]);
  };
}

async function effectCount(eventId: string): Promise<number> {
  const result = await database.pool.query<{ total: string }>('SELECT count(*) AS total FROM effects WHERE event_id = $1', [eventId]);
  return Number(result.rows[0]?.total);
}

describe('processOnce', () => {
  test('when an event id is seen for the first time, then the work runs and it is recorded as processed', async () => {
    const eventId = randomUUID();
    await expect(processOnce(database.pool, 'wallet', eventId, recordEffect('wallet', eventId))).resolves.toBe('processed');
    expect(await effectCount(eventId)).toBe(1);
  });

  test('when the same event id comes again, then it is a duplicate and the work does not run', async () => {
    const eventId = randomUUID();
    await processOnce(database.pool, 'wallet', eventId, recordEffect('wallet', eventId));
    const work = jest.fn(recordEffect('wallet', eventId));
    await expect(processOnce(database.pool, 'wallet', eventId, work)).resolves.toBe('duplicate');
    expect(work).not.toHaveBeenCalled();
    expect(await effectCount(eventId)).toBe(1);
  });

  test('when another consumer gets the same event id, then it processes it too', async () => {
    const eventId = randomUUID();
    await processOnce(database.pool, 'wallet', eventId, recordEffect('wallet', eventId));
    await expect(processOnce(database.pool, 'webhooks', eventId, recordEffect('webhooks', eventId))).resolves.toBe('processed');
    expect(await effectCount(eventId)).toBe(2);
  });

  test('when the work fails, then nothing is recorded and a redelivery processes the event', async () => {
    const eventId = randomUUID();
    const failing = async (client: PoolClient): Promise<void> => {
      await recordEffect('wallet', eventId)(client);
      throw new Error('ledger unavailable');
    };
    await expect(processOnce(database.pool, 'wallet', eventId, failing)).rejects.toThrow('ledger unavailable');
    expect(await effectCount(eventId)).toBe(0);
    await expect(processOnce(database.pool, 'wallet', eventId, recordEffect('wallet', eventId))).resolves.toBe('processed');
    expect(await effectCount(eventId)).toBe(1);
  });

  test('when two deliveries of the same event run concurrently, then the work runs once and the other is a duplicate', async () => {
    const eventId = randomUUID();
    let runs = 0;
    const slowWork = async (client: PoolClient): Promise<void> => {
      runs += 1;
      await sleep(150);
      await recordEffect('wallet', eventId)(client);
    };
    const outcomes = await Promise.all([
      processOnce(database.pool, 'wallet', eventId, slowWork),
      processOnce(database.pool, 'wallet', eventId, slowWork),
    ]);
    expect(outcomes.sort()).toEqual(['duplicate', 'processed']);
    expect(runs).toBe(1);
    expect(await effectCount(eventId)).toBe(1);
  });

  test('when the first of two concurrent deliveries fails, then the second does the work', async () => {
    const eventId = randomUUID();
    const failingSlowly = async (): Promise<void> => {
      await sleep(150);
      throw new Error('crashed mid-way');
    };
    const first = processOnce(database.pool, 'wallet', eventId, failingSlowly);
    await sleep(30);
    const second = processOnce(database.pool, 'wallet', eventId, recordEffect('wallet', eventId));
    await expect(first).rejects.toThrow('crashed mid-way');
    await expect(second).resolves.toBe('processed');
    expect(await effectCount(eventId)).toBe(1);
  });
});
