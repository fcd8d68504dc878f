import { randomUUID } from 'node:crypto';
import { walletPaths, walletTransferBatchAnswerSchema, walletTransferBatchBody, walletTransferBatchItemsMax, type WalletTransferBatchItemInput } from '@pwa/contracts';
import type { Currency } from '@pwa/money';
import { setLimit } from '../../src/use-cases/manage-limits';
import { changeUser } from '../../src/use-cases/manage-users';
import { seriesValue } from '../../../../test/support/prometheus-text';
import {
  balanceOfPartner,
  balanceOfSystemAccount,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  postJson,
  postingCountOf,
  startWalletHarness,
  transferBody,
  type WalletHarness,
} from './wallet-harness';

/*
 * POST /internal/transfer-batches (decision 0054) through the real route and Postgres: per-item
 * outcomes, balances to the cent, statement lines, replays, and batches racing single postings.
 */

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
  // Known limits for the Gold USD disbursements of this file: 500.00 per transfer, 800.00 a day,
  // and counts high enough that the concurrency tests' many postings to one user are not their subject.
  await setLimit(
    harness.pool,
    { tier: 'Gold', transactionType: 'disbursement', currency: 'USD' },
    { perTransactionMaxMinor: 50_000n, dailyMaxMinor: 80_000n, weeklyMaxMinor: 10_000_000n, monthlyMaxMinor: 10_000_000n, yearlyMaxMinor: 100_000_000n, perHourCountMax: 10_000, perDayCountMax: 10_000 },
  );
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

type Result = ReturnType<typeof walletTransferBatchAnswerSchema.parse>['results'][number];

function item(phone: string, amountMinor: bigint, feeMinor = 0n, fields: Partial<WalletTransferBatchItemInput> = {}): WalletTransferBatchItemInput {
  return { transferId: randomUUID(), phone, amountMinor, feeMinor, ...fields };
}

async function postBatch(partnerId: string, items: readonly WalletTransferBatchItemInput[], currency: Currency = 'USD'): Promise<Result[]> {
  const answer = await postJson(`${harness.baseUrl}${walletPaths.transferBatches}`, walletTransferBatchBody({ partnerId, currency, type: 'disbursement', items }));
  expect(answer.status).toBe(200);
  return walletTransferBatchAnswerSchema.parse(answer.body).results;
}

/** Each result as its outcome, or its code when refused. */
const outcomesOf = (results: readonly Result[]): string[] => results.map((result) => (result.outcome === 'refused' ? result.code : result.outcome));

async function statementLinesOf(partnerId: string, transferIds: readonly string[]): Promise<{ transfer_id: string; amount_minor: string; balance_after_minor: string }[]> {
  const result = await harness.sql.query<{ transfer_id: string; amount_minor: string; balance_after_minor: string }>(
    `SELECT l.transfer_id::text, l.amount_minor::text, l.balance_after_minor::text
       FROM partner_statement_lines l JOIN ledger_accounts a ON a.account_id = l.account_id
      WHERE a.kind = 'partner' AND a.partner_id = $1 AND l.transfer_id = ANY ($2::uuid[])
      ORDER BY l.posted_at, l.line_id`,
    [partnerId, transferIds],
  );
  return result.rows;
}

/** The wallet's backend whose statement (starting with this text) waits for a row lock; polled for up to 5 s. */
async function backendWaitingFor(statementStart: string): Promise<number> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = await harness.sql.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND ltrim(query) LIKE $1 || '%'`,
      [statementStart],
    );
    const pid = found.rows[0]?.pid;
    if (pid !== undefined) return pid;
    if (Date.now() > deadline) throw new Error(`no backend waits in a statement starting ${statementStart}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /internal/transfer-batches', () => {
  it('when a batch mixes valid and failing items, then each item has its own outcome and only the valid ones move money, to the cent', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const [valid, frozen, nearLimit] = await Promise.all([createTestUser(harness), createTestUser(harness), createTestUser(harness)]);
    await changeUser(harness.pool, frozen.phone, { freeze: ['USD'] });
    const feeRevenueBefore = await balanceOfSystemAccount(harness, 'fee_revenue', 'USD');
    const metricsBefore = await (await fetch(`${harness.baseUrl}/metrics`)).text();
    const items = [
      item(valid.phone, 10_000n, 100n, { reference: 'payroll', referenceId: 'PKD-1764121956774-4B7E19C2D05A83F6E1B2C3D4', externalId: 'payroll-1' }),
      item('+231770999999', 1_000n, 10n),
      item(frozen.phone, 1_000n, 10n),
      item(valid.phone, 60_000n, 10n),
      item(nearLimit.phone, 45_000n, 50n),
      // Alone it passes every limit; after the item above, the user's day would reach 850.00 > 800.00.
      item(nearLimit.phone, 40_000n, 50n),
      // Lands exactly on the daily limit (allowed).
      item(nearLimit.phone, 35_000n),
      item('0770 12', 1_000n),
    ];

    const results = await postBatch(partnerId, items);

    expect(outcomesOf(results)).toEqual(['posted', 'PKC_3001', 'PKC_3004', 'PKC_4003', 'posted', 'PKC_4004', 'posted', 'PKC_2001']);
    expect(results.map((result) => result.transferId)).toEqual(items.map((batchItem) => batchItem.transferId));
    const posted = results.filter((result) => result.outcome === 'posted');
    expect(new Set(posted.map((result) => result.transactionId)).size).toBe(3);
    expect(posted.every((result) => !result.replayed)).toBe(true);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(1_000_000n - 10_100n - 45_050n - 35_000n);
    expect(await balanceOfWallet(harness, valid.phone, 'USD')).toBe(10_000n);
    expect(await balanceOfWallet(harness, nearLimit.phone, 'USD')).toBe(80_000n);
    expect(await balanceOfWallet(harness, frozen.phone, 'USD')).toBe(0n);
    expect(await balanceOfSystemAccount(harness, 'fee_revenue', 'USD')).toBe(feeRevenueBefore + 150n);
    const postedIds = [items[0], items[4], items[6]].map((batchItem) => batchItem?.transferId ?? '');
    expect(await Promise.all(postedIds.map((transferId) => postingCountOf(harness, transferId)))).toEqual([
      { transfers: 1, entries: 3 },
      { transfers: 1, entries: 3 },
      { transfers: 1, entries: 2 },
    ]);
    for (const refusedItem of [items[1], items[2], items[3], items[5], items[7]]) {
      expect(await postingCountOf(harness, refusedItem?.transferId ?? '')).toEqual({ transfers: 0, entries: 0 });
    }
    // The partner's statement: one line per posted item, in the batch's order, each with the balance right after it.
    expect(await statementLinesOf(partnerId, postedIds)).toEqual([
      { transfer_id: postedIds[0], amount_minor: '-10100', balance_after_minor: '989900' },
      { transfer_id: postedIds[1], amount_minor: '-45050', balance_after_minor: '944850' },
      { transfer_id: postedIds[2], amount_minor: '-35000', balance_after_minor: '909850' },
    ]);
    const kept = await harness.sql.query<{ reference: string; reference_id: string; external_id: string }>(
      'SELECT reference, reference_id, external_id FROM transfers WHERE transfer_id = $1',
      [postedIds[0]],
    );
    expect(kept.rows[0]).toEqual({ reference: 'payroll', reference_id: 'PKD-1764121956774-4B7E19C2D05A83F6E1B2C3D4', external_id: 'payroll-1' });
    const metricsAfter = await (await fetch(`${harness.baseUrl}/metrics`)).text();
    const postingsOf = (text: string): number | undefined => seriesValue(text, 'ledger_postings_total', { type: 'disbursement', currency: 'USD' });
    expect((postingsOf(metricsAfter) ?? 0) - (postingsOf(metricsBefore) ?? 0)).toBe(3);
    await expectLedgerInvariantsHold(harness);
  });

  it('when the partner balance runs out midway, then the items before post and the items after are refused PKC_4002', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000n });
    const users = await Promise.all(Array.from({ length: 5 }, () => createTestUser(harness)));

    const results = await postBatch(partnerId, users.map((user) => item(user.phone, 290n, 10n)));

    expect(outcomesOf(results)).toEqual(['posted', 'posted', 'posted', 'PKC_4002', 'PKC_4002']);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(100n);
    expect(await Promise.all(users.map((user) => balanceOfWallet(harness, user.phone, 'USD')))).toEqual([290n, 290n, 290n, 0n, 0n]);
  });

  it('when the same batch is sent again, then every item answers its first outcome and nothing moves', async () => {
    const partnerId = await createTestPartner(harness, { USD: 700n });
    const [first, second] = await Promise.all([createTestUser(harness), createTestUser(harness)]);
    const items = [item(first.phone, 300n, 20n), item(second.phone, 300n, 20n), item(first.phone, 300n, 20n), item('+231770999998', 5n)];

    const firstResults = await postBatch(partnerId, items);
    const balancesAfterFirst = await Promise.all([balanceOfPartner(harness, partnerId, 'USD'), balanceOfWallet(harness, first.phone, 'USD'), balanceOfWallet(harness, second.phone, 'USD')]);
    const replayResults = await postBatch(partnerId, items);

    expect(outcomesOf(firstResults)).toEqual(['posted', 'posted', 'PKC_4002', 'PKC_3001']);
    expect(replayResults).toEqual(firstResults.map((result) => (result.outcome === 'posted' ? { ...result, replayed: true } : result)));
    expect(await Promise.all([balanceOfPartner(harness, partnerId, 'USD'), balanceOfWallet(harness, first.phone, 'USD'), balanceOfWallet(harness, second.phone, 'USD')])).toEqual(
      balancesAfterFirst,
    );
    expect(balancesAfterFirst).toEqual([60n, 300n, 300n]);
  });

  it('when a batch carries ids already posted singly or cancelled, then those are answered as they were and only the new ones post', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const user = await createTestUser(harness);
    const single = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1000', feeMinor: '25' });
    const singleAnswer = await postJson(`${harness.baseUrl}${walletPaths.transfers}`, single);
    expect(singleAnswer.status).toBe(200);
    const cancelledId = randomUUID();
    expect((await postJson(`${harness.baseUrl}${walletPaths.cancellation(cancelledId)}`, {})).body).toEqual({ transferId: cancelledId, state: 'cancelled' });

    const results = await postBatch(partnerId, [
      item(user.phone, 1_000n, 25n, { transferId: single.transferId }),
      item(user.phone, 500n, 0n, { transferId: cancelledId }),
      item(user.phone, 2_000n),
    ]);

    expect(results[0]).toEqual({ transferId: single.transferId, outcome: 'posted', transactionId: singleAnswer.body.transactionId, postedAt: singleAnswer.body.postedAt, replayed: true });
    expect(results[1]).toEqual({ transferId: cancelledId, outcome: 'cancelled' });
    expect(results[2]).toMatchObject({ outcome: 'posted', replayed: false });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(10_000n - 1_025n - 2_000n);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(3_000n);
    expect(await postingCountOf(harness, cancelledId)).toEqual({ transfers: 0, entries: 0 });
  });

  it('when a body breaks the contract (a transferId twice, no items, too many), then it is 400 PKC_2008 and nothing posts', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000n });
    const user = await createTestUser(harness);
    const twice = item(user.phone, 100n);
    const tooMany = Array.from({ length: walletTransferBatchItemsMax + 1 }, () => item(user.phone, 1n));
    for (const items of [[twice, { ...twice, amountMinor: 200n }], [], tooMany]) {
      const answer = await postJson(`${harness.baseUrl}${walletPaths.transferBatches}`, walletTransferBatchBody({ partnerId, currency: 'USD', type: 'disbursement', items }));
      expect([answer.status, answer.body.code]).toEqual([400, 'PKC_2008']);
    }
    const collection = await postJson(`${harness.baseUrl}${walletPaths.transferBatches}`, { partnerId, currency: 'USD', type: 'collection', items: walletTransferBatchBody({ partnerId, currency: 'USD', type: 'disbursement', items: [item(user.phone, 1n)] }).items });
    expect([collection.status, collection.body.code]).toEqual([400, 'PKC_2008']);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(10_000n);
  });

  it('when a batch of 200 items carries the longest texts the contract allows, in non-ASCII letters, then its body is accepted and every item posts', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const users = await Promise.all(Array.from({ length: 10 }, () => createTestUser(harness)));
    const items = Array.from({ length: walletTransferBatchItemsMax }, (_, index) =>
      item(users[index % users.length]?.phone ?? '', 100n, 0n, { reference: 'é'.repeat(200), referenceId: 'ü'.repeat(100), externalId: 'ñ'.repeat(400) }),
    );
    expect(Buffer.byteLength(JSON.stringify(walletTransferBatchBody({ partnerId, currency: 'USD', type: 'disbursement', items })))).toBeGreaterThan(256 * 1024);

    const results = await postBatch(partnerId, items);

    expect(results.every((result) => result.outcome === 'posted')).toBe(true);
  });

  it('when the database connection of a batch dies before its writes or in the middle of them, then nothing of it stays and sending it again posts every item once', async () => {
    const partnerId = await createTestPartner(harness, { USD: 100_000n });
    const users = await Promise.all(Array.from({ length: 3 }, () => createTestUser(harness)));
    const items = users.map((user) => item(user.phone, 1_000n, 10n));
    const body = walletTransferBatchBody({ partnerId, currency: 'USD', type: 'disbursement', items });
    const ids = items.map((batchItem) => batchItem.transferId);
    // Each row lock below stops the batch at one point: the partner's account in statement 2
    // (facts and account locks, nothing written yet); the fee revenue account in statement 3, in
    // the triggers that run after every item's transfer and entries were inserted (the entries'
    // foreign key check or the ledger trigger, whichever reaches that row first).
    const stops: [string, string][] = [
      [`SELECT 1 FROM ledger_accounts WHERE kind = 'partner' AND partner_id = '${partnerId}' AND currency = 'USD' FOR UPDATE`, 'WITH locked AS'],
      [`SELECT 1 FROM ledger_accounts WHERE kind = 'fee_revenue' AND currency = 'USD' FOR UPDATE`, 'WITH item AS'],
    ];
    for (const [lockRow, waitingStatement] of stops) {
      const blocker = await harness.sql.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query(lockRow);
        const pending = postJson(`${harness.baseUrl}${walletPaths.transferBatches}`, body);
        const pid = await backendWaitingFor(waitingStatement);
        await harness.sql.query('SELECT pg_terminate_backend($1)', [pid]);
        const answer = await pending;
        expect([answer.status, answer.body.code]).toEqual([503, 'PKC_7003']);
      } finally {
        await blocker.query('ROLLBACK');
        blocker.release();
      }
      const written = await harness.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM transfers WHERE transfer_id = ANY ($1::uuid[])', [ids]);
      expect([waitingStatement, written.rows[0]?.count]).toEqual([waitingStatement, 0]);
      expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(100_000n);
    }

    const results = await postBatch(partnerId, items);

    expect(results.map((result) => [result.outcome, result.outcome === 'posted' && result.replayed])).toEqual(items.map(() => ['posted', false]));
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(100_000n - 3n * 1_010n);
    expect(await Promise.all(users.map((user) => balanceOfWallet(harness, user.phone, 'USD')))).toEqual([1_000n, 1_000n, 1_000n]);
  });

  it('when two batches and 20 single postings of one partner run together, then all finish, each transfer posts once and the balances are exact', async () => {
    const partnerId = await createTestPartner(harness, { USD: 10_000_000n });
    const users = await Promise.all(Array.from({ length: 8 }, () => createTestUser(harness)));
    // Both batches touch every user, in opposite orders, so a lock order that followed the items would deadlock.
    const batchA = Array.from({ length: 40 }, (_, index) => item(users[index % users.length]?.phone ?? '', 100n + BigInt(index), 5n));
    const batchB = Array.from({ length: 40 }, (_, index) => item(users[users.length - 1 - (index % users.length)]?.phone ?? '', 200n + BigInt(index), 7n));
    const singles = Array.from({ length: 20 }, (_, index) =>
      transferBody({ type: 'disbursement', partnerId, phone: users[(index * 3) % users.length]?.phone ?? '', currency: 'USD', amountMinor: String(300 + index), feeMinor: '9' }),
    );

    const [resultsA, resultsB, ...singleAnswers] = await Promise.all([
      postBatch(partnerId, batchA),
      postBatch(partnerId, batchB),
      ...singles.map((body) => postJson(`${harness.baseUrl}${walletPaths.transfers}`, body)),
    ]);

    expect(outcomesOf(resultsA ?? []).every((outcome) => outcome === 'posted')).toBe(true);
    expect(outcomesOf(resultsB ?? []).every((outcome) => outcome === 'posted')).toBe(true);
    expect(singleAnswers.map((answer) => answer.status)).toEqual(singles.map(() => 200));
    const allIds = [...batchA, ...batchB].map((batchItem) => batchItem.transferId).concat(singles.map((body) => body.transferId));
    const counts = await harness.sql.query<{ transfers: number; entries: number }>(
      `SELECT (SELECT count(*) FROM transfers WHERE transfer_id = ANY ($1::uuid[]) AND state = 'posted')::int AS transfers,
              (SELECT count(*) FROM entries WHERE transfer_id = ANY ($1::uuid[]))::int AS entries`,
      [allIds],
    );
    expect(counts.rows[0]).toEqual({ transfers: 100, entries: 300 });
    const expectedWallets = new Map<string, bigint>();
    let debitedMinor = 0n;
    const credit = (phone: string, amountMinor: bigint, feeMinor: bigint): void => {
      expectedWallets.set(phone, (expectedWallets.get(phone) ?? 0n) + amountMinor);
      debitedMinor += amountMinor + feeMinor;
    };
    for (const batchItem of [...batchA, ...batchB]) credit(batchItem.phone, batchItem.amountMinor, batchItem.feeMinor);
    for (const body of singles) credit(body.phone, BigInt(body.amountMinor), BigInt(body.feeMinor));
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(10_000_000n - debitedMinor);
    for (const user of users) expect([user.phone, await balanceOfWallet(harness, user.phone, 'USD')]).toEqual([user.phone, expectedWallets.get(user.phone) ?? 0n]);
    await expectLedgerInvariantsHold(harness);
  });

  it('when a batch of 200 items posts, then one transaction and one entries statement post them all, each its own balanced posting', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const users = await Promise.all(Array.from({ length: 20 }, () => createTestUser(harness)));
    const items = Array.from({ length: walletTransferBatchItemsMax }, (_, index) => item(users[index % users.length]?.phone ?? '', 1_000n + BigInt(index), 10n));

    const results = await postBatch(partnerId, items);

    expect(results.filter((result) => result.outcome === 'posted')).toHaveLength(200);
    const ids = items.map((batchItem) => batchItem.transferId);
    // xmin names the writing transaction, cmin the command within it: one of each means one
    // transaction and one INSERT of entries, whose statement-level trigger therefore ran once and
    // moved the partner's row once (by the sum of the batch's entries on it).
    const written = await harness.sql.query<{ transactions: number; entry_commands: number; transfer_commands: number; partner_row_by_batch: boolean; postings: number; unbalanced: number }>(
      `SELECT (SELECT count(DISTINCT xmin::text) FROM (SELECT xmin FROM entries WHERE transfer_id = ANY ($1::uuid[]) UNION ALL SELECT xmin FROM transfers WHERE transfer_id = ANY ($1::uuid[])) x)::int AS transactions,
              (SELECT count(DISTINCT cmin::text) FROM entries WHERE transfer_id = ANY ($1::uuid[]))::int AS entry_commands,
              (SELECT count(DISTINCT cmin::text) FROM transfers WHERE transfer_id = ANY ($1::uuid[]))::int AS transfer_commands,
              (SELECT a.xmin::text FROM ledger_accounts a WHERE a.kind = 'partner' AND a.partner_id = $2 AND a.currency = 'USD')
                = (SELECT min(xmin::text) FROM transfers WHERE transfer_id = ANY ($1::uuid[])) AS partner_row_by_batch,
              (SELECT count(DISTINCT transaction_id) FROM transfers WHERE transfer_id = ANY ($1::uuid[]))::int AS postings,
              (SELECT count(*) FROM (SELECT transfer_id FROM entries WHERE transfer_id = ANY ($1::uuid[]) GROUP BY transfer_id HAVING sum(amount_minor) <> 0) u)::int AS unbalanced`,
      [ids, partnerId],
    );
    expect(written.rows[0]).toEqual({ transactions: 1, entry_commands: 1, transfer_commands: 1, partner_row_by_batch: true, postings: 200, unbalanced: 0 });
    const lines = await statementLinesOf(partnerId, ids);
    expect(lines.map((line) => line.transfer_id)).toEqual(ids);
    let balanceMinor = 1_000_000n;
    for (const [index, line] of lines.entries()) {
      balanceMinor -= 1_010n + BigInt(index);
      expect(line.balance_after_minor).toBe(balanceMinor.toString());
    }
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(balanceMinor);
    await expectLedgerInvariantsHold(harness);
  });
});
