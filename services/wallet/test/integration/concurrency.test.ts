import { setLimit } from '../../src/use-cases/manage-limits';
import {
  balanceOfPartner,
  balanceOfWallet,
  createTestPartner,
  createTestUser,
  expectLedgerInvariantsHold,
  postJson,
  postingCountOf,
  startWalletHarness,
  transferBody,
  type HttpAnswer,
  type WalletHarness,
} from './wallet-harness';

let harness: WalletHarness;

beforeAll(async () => {
  harness = await startWalletHarness();
  // The race tests post many disbursements to one user within the hour; their subject is not the count caps.
  for (const currency of ['LRD', 'USD'] as const) {
    await setLimit(harness.pool, { tier: 'Gold', transactionType: 'disbursement', currency }, { perHourCountMax: 1_000, perDayCountMax: 1_000 });
  }
});

afterAll(async () => {
  await expectLedgerInvariantsHold(harness);
  await harness.stop();
});

const transfersUrl = (): string => `${harness.baseUrl}/internal/transfers`;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function outcomes(answers: HttpAnswer[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const answer of answers) {
    const key = answer.status === 200 ? 'posted' : String(answer.body.code);
    counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
}

describe('concurrent postings', () => {
  it('when the same transfer id is posted 20 times at once, then money moves once and every answer is the same', async () => {
    const user = await createTestUser(harness, { balances: { LRD: 10_000n } });
    const partnerId = await createTestPartner(harness);
    const body = transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '3000', feeMinor: '50' });

    const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(transfersUrl(), body)));

    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.body.transactionId)).size).toBe(1);
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(10_000n - 3_050n);
    expect(await postingCountOf(harness, body.transferId)).toEqual({ transfers: 1, entries: 3 });
  });

  it('when concurrent collections together exceed the user balance, then exactly the affordable ones post and the balance never goes negative', async () => {
    const user = await createTestUser(harness, { balances: { USD: 1_000n } });
    const partnerId = await createTestPartner(harness);

    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        postJson(transfersUrl(), transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '290', feeMinor: '10' })),
      ),
    );

    expect(outcomes(answers)).toEqual({ posted: 3, PKC_4001: 9 });
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(100n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(870n);
  });

  it('when concurrent disbursements to different users together exceed the partner balance, then exactly the affordable ones post', async () => {
    const partnerId = await createTestPartner(harness, { LRD: 10_000n });
    const users = await Promise.all(Array.from({ length: 8 }, () => createTestUser(harness)));

    const answers = await Promise.all(
      users.map((user) =>
        postJson(transfersUrl(), transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '2400', feeMinor: '100' })),
      ),
    );

    expect(outcomes(answers)).toEqual({ posted: 4, PKC_4002: 4 });
    expect(await balanceOfPartner(harness, partnerId, 'LRD')).toBe(0n);
  });

  it('when many affordable disbursements of one partner to different users arrive at once, then every one posts (the partner account, locked after another posting moved it, is still read)', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const users = await Promise.all(Array.from({ length: 24 }, () => createTestUser(harness)));

    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(
        users.map((user) =>
          postJson(transfersUrl(), transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100', feeMinor: '1' })),
        ),
      );
      expect(outcomes(answers)).toEqual({ posted: 24 });
    }
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(1_000_000n - 3n * 24n * 101n);
    for (const user of users) expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(300n);
  });

  it('when concurrent collections from different partners together exceed a daily count, then exactly the allowed number post', async () => {
    await setLimit(harness.pool, { tier: 'Platinum', transactionType: 'collection', currency: 'LRD' }, { perDayCountMax: 3, perHourCountMax: 3 });
    const user = await createTestUser(harness, { tier: 'Platinum', balances: { LRD: 1_000_000n } });
    const partners = await Promise.all(Array.from({ length: 10 }, () => createTestPartner(harness)));

    const answers = await Promise.all(
      partners.map((partnerId) =>
        postJson(transfersUrl(), transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '1000' })),
      ),
    );

    expect(outcomes(answers)).toEqual({ posted: 3, PKC_4009: 7 });
    expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(1_000_000n - 3_000n);
  });

  it('when concurrent collections together exceed a daily amount, then the budget is never overspent', async () => {
    await setLimit(harness.pool, { tier: 'Platinum', transactionType: 'collection', currency: 'USD' }, { dailyMaxMinor: 5_000n });
    const user = await createTestUser(harness, { tier: 'Platinum', balances: { USD: 1_000_000n } });
    const partnerId = await createTestPartner(harness);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        postJson(transfersUrl(), transferBody({ type: 'collection', partnerId, phone: user.phone, currency: 'USD', amountMinor: '1200' })),
      ),
    );

    expect(outcomes(answers)).toEqual({ posted: 4, PKC_4004: 6 });
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(4_800n);
  });

  it('when a user pays and is paid by the same partners at once, then nothing deadlocks and every posting lands', async () => {
    const partners = await Promise.all(Array.from({ length: 3 }, () => createTestPartner(harness, { LRD: 1_000_000n })));
    const users = await Promise.all(Array.from({ length: 3 }, () => createTestUser(harness, { balances: { LRD: 1_000_000n } })));
    const requests = users.flatMap((user) =>
      partners.flatMap((partnerId) =>
        (['collection', 'disbursement'] as const).map((type) =>
          transferBody({ type, partnerId, phone: user.phone, currency: 'LRD', amountMinor: '1000', feeMinor: '10' }),
        ),
      ),
    );

    const answers = await Promise.all(requests.map((body) => postJson(transfersUrl(), body)));

    expect(outcomes(answers)).toEqual({ posted: requests.length });
    for (const user of users) expect(await balanceOfWallet(harness, user.phone, 'LRD')).toBe(1_000_000n - 3n * 10n);
    // The bounded retry would hide a deadlock from the answers; Postgres still counts it.
    const deadlocks = await harness.sql.query('SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()');
    expect(deadlocks.rows[0].n).toBe(0);
  });
});

describe('cancellation racing a posting', () => {
  it('when cancel and post race for the same transfer id, then exactly one wins and the ledger agrees with the answers', async () => {
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const user = await createTestUser(harness);
    const rounds = 25;
    let postedRounds = 0;
    for (let round = 0; round < rounds; round += 1) {
      const body = transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '100' });
      // The first rounds give the cancel a head start (on a loaded machine a bare cancel is not
      // always faster than a posting), so some land before the posting claims the id; then the
      // cancel is held back by a growing delay: middle rounds land while the posting's transaction
      // is open (the cancel then waits for its commit), late ones after it.
      const headStartRounds = 8;
      const postDelayMs = Math.max(0, headStartRounds - round) * 3;
      const cancelDelayMs = Math.max(0, round - headStartRounds) * 3;
      const [posted, cancelled] = await Promise.all([
        delay(postDelayMs).then(() => postJson(transfersUrl(), body)),
        delay(cancelDelayMs).then(() => postJson(`${harness.baseUrl}/internal/transfers/${body.transferId}/cancel`, {})),
      ]);

      const stored = await postingCountOf(harness, body.transferId);
      if (posted.status === 200) {
        postedRounds += 1;
        expect(cancelled.body).toEqual({ transferId: body.transferId, state: 'posted', transactionId: posted.body.transactionId, postedAt: posted.body.postedAt });
        expect(stored).toEqual({ transfers: 1, entries: 2 });
      } else {
        expect(posted).toMatchObject({ status: 409, body: { code: 'PKC_7004' } });
        expect(cancelled.body).toEqual({ transferId: body.transferId, state: 'cancelled' });
        expect(stored).toEqual({ transfers: 0, entries: 0 });
      }
      // Whatever happened, a late retry of either call agrees with the first outcome.
      const retried = await postJson(transfersUrl(), body);
      expect(retried.status).toBe(posted.status);
    }
    expect(postedRounds).toBeGreaterThan(0);
    expect(postedRounds).toBeLessThan(rounds);
    expect(await balanceOfWallet(harness, user.phone, 'USD')).toBe(BigInt(postedRounds) * 100n);
    expect(await balanceOfPartner(harness, partnerId, 'USD')).toBe(1_000_000n - BigInt(postedRounds) * 100n);
  });

  it('when many transfer ids are cancelled while they are being posted, then no cancelled id has entries', async () => {
    const partnerId = await createTestPartner(harness, { LRD: 1_000_000n });
    const user = await createTestUser(harness);
    const bodies = Array.from({ length: 20 }, () => transferBody({ type: 'disbursement', partnerId, phone: user.phone, currency: 'LRD', amountMinor: '100' }));
    await Promise.all(bodies.flatMap((body) => [postJson(transfersUrl(), body), postJson(`${harness.baseUrl}/internal/transfers/${body.transferId}/cancel`, {})]));
    const cancelledWithEntries = await harness.sql.query(
      `SELECT t.transfer_id FROM transfers t JOIN entries e USING (transfer_id) WHERE t.state = 'cancelled' AND t.transfer_id = ANY($1::uuid[])`,
      [bodies.map((body) => body.transferId)],
    );
    expect(cancelledWithEntries.rows).toEqual([]);
    const claimed = await harness.sql.query(`SELECT count(*)::int AS n FROM transfers WHERE transfer_id = ANY($1::uuid[])`, [bodies.map((body) => body.transferId)]);
    expect(claimed.rows[0].n).toBe(20);
  });
});
