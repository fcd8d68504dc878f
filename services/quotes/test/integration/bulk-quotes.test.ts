import { randomUUID } from 'node:crypto';
import { bulkQuoteAnswerSchema, consumedBulkQuoteAnswerSchema, quotesPaths } from '@pwa/contracts';
import { replaceFeeSchedule } from '../../src/store/fee-schedule-store';
import { createTestPartner, createTestUser, startWalletHarness, uniquePhone, type WalletHarness } from '../../../wallet/test/integration/wallet-harness';
import { postJson, startQuotesHarness, type JsonAnswer, type QuotesHarness } from './quotes-harness';
import { passEveryItem, type BatchCheckRequestBody } from './wallet-stand-in';

/**
 * Bulk disbursement quotes (issue 20): POST /internal/bulk-quotes and its consume route, against
 * real Postgres. The wallet's batch check is played by the stand-in (its contract is held by
 * internal-contract.test.ts); USD disbursement fees are 0.25 + 1 % up to 100.00, 0.50 + 0.75 % up
 * to 1,000.00 (defaults of migration 1700000000100).
 */
describe('bulk disbursement quotes (POST /internal/bulk-quotes, POST /internal/bulk-quotes/:id/consume)', () => {
  let harness: QuotesHarness;

  beforeAll(async () => {
    harness = await startQuotesHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  beforeEach(() => {
    harness.wallet.batchAnswer = passEveryItem;
    harness.wallet.batchReceived.length = 0;
  });

  const bulkQuote = (body: unknown, baseUrl = harness.baseUrl): Promise<JsonAnswer> => postJson(`${baseUrl}${quotesPaths.bulkQuotes}`, body);
  const consume = (bulkQuoteId: string, body: unknown, baseUrl = harness.baseUrl): Promise<JsonAnswer> =>
    postJson(`${baseUrl}${quotesPaths.consumeBulkQuote(bulkQuoteId)}`, body);
  const refusal = (status: number, code: string): JsonAnswer => ({ status, body: { success: false, code, message: expect.any(String) } });

  /** Refuses the items of the given phones with their codes, passes the others, with the given partner balance. */
  function walletRefuses(codesByPhone: Record<string, string>, partnerBalanceMinor = '500000000'): void {
    harness.wallet.batchAnswer = (body: BatchCheckRequestBody) => ({
      kind: 'answer',
      body: {
        partnerBalanceMinor,
        results: body.items.map((item) => {
          const code = codesByPhone[item.phone];
          return code ? { outcome: 'refused', code } : { outcome: 'passed', phone: item.phone, recipientName: `Recipient ${item.phone}` };
        }),
      },
    });
  }

  async function storedBulkQuotesOf(partnerId: string): Promise<number> {
    const result = await harness.database.query<{ count: string }>('SELECT count(*) AS count FROM bulk_quotes WHERE partner_id = $1', [partnerId]);
    return Number(result.rows[0]?.count);
  }

  const threeItems = [
    { index: 5, phone: '+231770000005', amountMinor: '50000', externalId: 'payroll-0006', note: null },
    { index: 0, phone: '+231770000001', amountMinor: '1025', externalId: 'payroll-0001', note: 'November salary' },
    { index: 2, phone: '+231770000009', amountMinor: '2000', externalId: 'payroll-0003', note: 'bonus' },
  ];

  async function issueValidBulk(partnerId: string, baseUrl = harness.baseUrl): Promise<string> {
    walletRefuses({ '+231770000009': 'PKC_3001' });
    const answer = await bulkQuote({ partnerId, currency: 'USD', items: threeItems }, baseUrl);
    if (answer.status !== 200 || typeof answer.body.bulkQuoteId !== 'string') throw new Error(`bulk quote failed: ${JSON.stringify(answer.body)}`);
    return answer.body.bulkQuoteId as string;
  }

  test('when a bulk is quoted, then every item is priced, the wallet checks all of them in one call, refused items carry their code, and the valid ones are stored', async () => {
    const partnerId = randomUUID();
    walletRefuses({ '+231770000009': 'PKC_3001' }, '123456789');

    const answer = await bulkQuote({ partnerId, currency: 'USD', items: threeItems });

    expect(answer).toEqual({
      status: 200,
      body: {
        bulkQuoteId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        currency: 'USD',
        expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        partnerBalanceMinor: '123456789',
        items: [
          { index: 5, outcome: 'valid', feeMinor: '425', recipientName: 'Recipient +231770000005' }, // 0.50 + 0.75 % of 500.00
          { index: 0, outcome: 'valid', feeMinor: '35', recipientName: 'Recipient +231770000001' }, // 0.25 + 1 % of 10.25, rounded
          { index: 2, outcome: 'invalid', code: 'PKC_3001' },
        ],
      },
    });
    expect(bulkQuoteAnswerSchema.safeParse(answer.body).success).toBe(true);
    expect(harness.wallet.batchReceived).toEqual([
      {
        partnerId,
        currency: 'USD',
        type: 'disbursement',
        items: [
          { phone: '+231770000005', amountMinor: '50000', feeMinor: '425' },
          { phone: '+231770000001', amountMinor: '1025', feeMinor: '35' },
          { phone: '+231770000009', amountMinor: '2000', feeMinor: '45' },
        ],
      },
    ]);
    const bulk = await harness.database.query(
      `SELECT partner_id, currency, fee_schedule_revision, partner_balance_minor, used_at, extract(epoch FROM expires_at - created_at) AS lifetime
         FROM bulk_quotes WHERE bulk_quote_id = $1`,
      [answer.body.bulkQuoteId],
    );
    expect(bulk.rows).toEqual([{ partner_id: partnerId, currency: 'USD', fee_schedule_revision: 1, partner_balance_minor: '123456789', used_at: null, lifetime: '600.000000' }]);
    expect(new Date(answer.body.expiresAt as string).getTime() - Date.now()).toBeGreaterThan(590_000);
    const items = await harness.database.query(
      'SELECT item_index, phone, recipient_name, amount_minor, fee_minor, external_id, note FROM bulk_quote_items WHERE bulk_quote_id = $1 ORDER BY item_index',
      [answer.body.bulkQuoteId],
    );
    expect(items.rows).toEqual([
      { item_index: 0, phone: '+231770000001', recipient_name: 'Recipient +231770000001', amount_minor: '1025', fee_minor: '35', external_id: 'payroll-0001', note: 'November salary' },
      { item_index: 5, phone: '+231770000005', recipient_name: 'Recipient +231770000005', amount_minor: '50000', fee_minor: '425', external_id: 'payroll-0006', note: null },
    ]);
  });

  test('when the valid items cost more than the partner balance, then the whole call is PKC_4002 and nothing is stored; exactly the balance is enough', async () => {
    const partnerId = randomUUID();
    // Valid: 500.00 + 4.25 and 10.25 + 0.35 = 514.85; the refused item (20.45) does not count.
    walletRefuses({ '+231770000009': 'PKC_4006' }, '51484');

    expect(await bulkQuote({ partnerId, currency: 'USD', items: threeItems })).toEqual(refusal(400, 'PKC_4002'));
    expect(await storedBulkQuotesOf(partnerId)).toBe(0);

    walletRefuses({ '+231770000009': 'PKC_4006' }, '51485');
    const enough = await bulkQuote({ partnerId, currency: 'USD', items: threeItems });
    expect(enough.status).toBe(200);
    expect(enough.body.items[2]).toEqual({ index: 2, outcome: 'invalid', code: 'PKC_4006' });
    expect(await storedBulkQuotesOf(partnerId)).toBe(1);
  });

  test('when no item passes the wallet, then the answer has no bulkQuoteId, every item its code, and nothing is stored', async () => {
    const partnerId = randomUUID();
    walletRefuses({ '+231770000005': 'PKC_3003', '+231770000001': 'PKC_2001', '+231770000009': 'PKC_4009' });

    const answer = await bulkQuote({ partnerId, currency: 'USD', items: threeItems });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      bulkQuoteId: null,
      currency: 'USD',
      items: [
        { index: 5, outcome: 'invalid', code: 'PKC_3003' },
        { index: 0, outcome: 'invalid', code: 'PKC_2001' },
        { index: 2, outcome: 'invalid', code: 'PKC_4009' },
      ],
    });
    expect(bulkQuoteAnswerSchema.safeParse(answer.body).success).toBe(true);
    expect(await storedBulkQuotesOf(partnerId)).toBe(0);
  });

  test('when the currency is not enabled for disbursements, then the answer is PKC_2010, the wallet is not asked and nothing is stored', async () => {
    const partnerId = randomUUID();
    const lrdOnly = await harness.startSibling({ QUOTES_DISBURSEMENT_CURRENCIES: 'LRD' });
    try {
      expect(await bulkQuote({ partnerId, currency: 'USD', items: threeItems }, lrdOnly.baseUrl)).toEqual({
        status: 400,
        body: { success: false, code: 'PKC_2010', message: expect.any(String), invalidFields: [{ field: 'currency', problem: 'not_allowed', expected: 'LRD' }] },
      });
      expect(harness.wallet.batchReceived).toEqual([]);
      expect(await storedBulkQuotesOf(partnerId)).toBe(0);
    } finally {
      await lrdOnly.stop();
    }
  });

  test('when the body is malformed, then the answer is PKC_2008 and neither the wallet nor the store is touched', async () => {
    const partnerId = randomUUID();
    const item = threeItems[1];
    const malformed: unknown[] = [
      {},
      { partnerId, currency: 'USD' },
      { partnerId, currency: 'USD', items: [] },
      { partnerId: 'not-a-uuid', currency: 'USD', items: [item] },
      { partnerId, currency: 'EUR', items: [item] },
      { partnerId, currency: 'USD', items: [{ ...item, amountMinor: '0' }] },
      { partnerId, currency: 'USD', items: [{ ...item, amountMinor: 10.25 }] },
      { partnerId, currency: 'USD', items: [{ ...item, index: 1000 }] },
      { partnerId, currency: 'USD', items: [item, { ...item, externalId: 'other' }] }, // the same index twice
      { partnerId, currency: 'USD', items: Array.from({ length: 1001 }, (_, index) => ({ ...item, index: index % 1000 })) },
    ];
    for (const body of malformed) expect(await bulkQuote(body)).toEqual(refusal(400, 'PKC_2008'));
    expect(harness.wallet.batchReceived).toEqual([]);
    expect(await storedBulkQuotesOf(partnerId)).toBe(0);
  });

  test('when the wallet cannot answer the batch check, then the answer is PKC_7003 and nothing is stored', async () => {
    const partnerId = randomUUID();
    harness.wallet.batchAnswer = () => ({ kind: 'fail', status: 503 });

    expect(await bulkQuote({ partnerId, currency: 'USD', items: threeItems })).toEqual(refusal(503, 'PKC_7003'));
    expect(await storedBulkQuotesOf(partnerId)).toBe(0);
  });

  test('when a bulk of 1,000 items with the longest texts is quoted, then one wallet call checks them all and one bulk quote stores them', async () => {
    const partnerId = randomUUID();
    const items = Array.from({ length: 1000 }, (_, index) => ({
      index,
      phone: `+23177${String(index).padStart(7, '0')}`,
      amountMinor: String(100 + index),
      externalId: `é${String(index).padStart(4, '0')}`.padEnd(100, 'x'),
      note: 'ü'.repeat(200),
    }));

    const answer = await bulkQuote({ partnerId, currency: 'USD', items });

    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(1000);
    expect(harness.wallet.batchReceived).toHaveLength(1);
    const stored = await harness.database.query<{ count: string }>('SELECT count(*) AS count FROM bulk_quote_items WHERE bulk_quote_id = $1', [answer.body.bulkQuoteId]);
    expect(stored.rows[0]?.count).toBe('1000');
  });

  test('when another route gets a body over 16 kB, then it is refused as too large: only the bulk quote route reads large bodies', async () => {
    const padded = { partnerId: randomUUID(), padding: 'x'.repeat(20_000) };

    const answer = await consume(randomUUID(), padded);

    expect(answer).toEqual({ status: 400, body: { success: false, code: 'PKC_2008', message: 'Request body is too large' } });
  });

  test('when the operator replaces the fee schedule, then the next bulk priced with the cached revision is priced and checked again with the new one', async () => {
    const partnerId = randomUUID();
    const items = [{ index: 0, phone: '+231770000001', amountMinor: '10000', externalId: 'lrd-1', note: null }];
    const before = await bulkQuote({ partnerId, currency: 'LRD', items });
    await replaceFeeSchedule(harness.service.pool, 'disbursement', 'LRD', (current) => ({ ...current, minimumFeeMinor: 7_500n }));

    const after = await bulkQuote({ partnerId, currency: 'LRD', items });

    expect(before.body.items[0].feeMinor).toBe('5100'); // 50.00 + 1 % of 100.00 LRD
    expect(after.body.items[0].feeMinor).toBe('7500'); // the new minimum
    // The cached revision 1 priced it first; its insert was refused, so it was priced and checked again.
    expect(harness.wallet.batchReceived.map((call) => call.items[0]?.feeMinor)).toEqual(['5100', '5100', '7500']);
    const revisions = await harness.database.query('SELECT fee_schedule_revision FROM bulk_quotes WHERE partner_id = $1 ORDER BY created_at', [partnerId]);
    expect(revisions.rows.map((row) => row.fee_schedule_revision)).toEqual([1, 2]);
  });

  test('when the owner consumes a live bulk quote, then it gets the valid items ordered by index with their fees, once', async () => {
    const partnerId = randomUUID();
    const bulkQuoteId = await issueValidBulk(partnerId);

    const consumed = await consume(bulkQuoteId, { partnerId });

    expect(consumed).toEqual({
      status: 200,
      body: {
        bulkQuoteId,
        partnerId,
        currency: 'USD',
        expiresAt: expect.stringMatching(/Z$/),
        usedAt: expect.stringMatching(/Z$/),
        items: [
          { index: 0, phone: '+231770000001', recipientName: 'Recipient +231770000001', amountMinor: '1025', feeMinor: '35', externalId: 'payroll-0001', note: 'November salary' },
          { index: 5, phone: '+231770000005', recipientName: 'Recipient +231770000005', amountMinor: '50000', feeMinor: '425', externalId: 'payroll-0006', note: null },
        ],
      },
    });
    expect(consumedBulkQuoteAnswerSchema.safeParse(consumed.body).success).toBe(true);
    expect(await consume(bulkQuoteId, { partnerId })).toEqual(refusal(400, 'PKC_5002'));
  });

  test('when 30 transfer calls consume one bulk quote at once, then exactly one gets its items and the others PKC_5002', async () => {
    const partnerId = randomUUID();
    const bulkQuoteId = await issueValidBulk(partnerId);

    const answers = await Promise.all(Array.from({ length: 30 }, () => consume(bulkQuoteId, { partnerId })));

    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body.items).toHaveLength(2);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) expect(answer).toEqual(refusal(400, 'PKC_5002'));
  });

  test('when the bulk quote is expired, unknown, another partner\'s or its id not a UUID, then the refusal says so and it stays unused', async () => {
    const partnerId = randomUUID();
    const shortLived = await harness.startSibling({ QUOTE_LIFETIME_SECONDS: '1' });
    try {
      const expiring = await issueValidBulk(partnerId, shortLived.baseUrl);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await consume(expiring, { partnerId })).toEqual(refusal(400, 'PKC_5001'));
    } finally {
      await shortLived.stop();
    }
    expect(await consume(randomUUID(), { partnerId })).toEqual(refusal(400, 'PKC_5001'));

    const bulkQuoteId = await issueValidBulk(partnerId);
    expect(await consume(bulkQuoteId, { partnerId: randomUUID() })).toEqual(refusal(403, 'PKC_5004'));
    expect(await consume('not-a-uuid', { partnerId })).toEqual(refusal(400, 'PKC_2009'));
    expect(await consume(bulkQuoteId, {})).toEqual(refusal(400, 'PKC_2008'));
    const stored = await harness.database.query('SELECT used_at FROM bulk_quotes WHERE bulk_quote_id = $1', [bulkQuoteId]);
    expect(stored.rows).toEqual([{ used_at: null }]);
    expect((await consume(bulkQuoteId.toUpperCase(), { partnerId })).status).toBe(200);
  });
});

/**
 * The same routes with the real wallet's batch check (services/wallet, POST
 * /internal/transfer-batches/checks) on its own database: its per-item codes, its recipients'
 * names and the partner's balance it answers are what the bulk quote answers, weighs and stores.
 */
describe('bulk disbursement quotes against the real wallet', () => {
  let wallet: WalletHarness;
  let harness: QuotesHarness;

  beforeAll(async () => {
    wallet = await startWalletHarness();
    harness = await startQuotesHarness({ WALLET_URL: wallet.baseUrl });
  });

  afterAll(async () => {
    await harness?.stop();
    await wallet?.stop();
  });

  test("when a bulk mixes a valid recipient with unknown, KYC-pending and wallet-less ones, then the wallet's codes come back per item and only the valid one is stored, weighed against the real balance", async () => {
    const partnerId = await createTestPartner(wallet, { USD: 100_000n });
    const valid = await createTestUser(wallet, { name: 'Comfort Gold' });
    const pending = await createTestUser(wallet, { kycStatus: 'pending' });
    const lrdOnly = await createTestUser(wallet, { currencies: ['LRD'] });
    const items = [
      { index: 0, phone: valid.phone, amountMinor: '1025', externalId: 'real-0', note: 'November salary' },
      { index: 1, phone: uniquePhone(), amountMinor: '2000', externalId: 'real-1', note: null },
      { index: 2, phone: pending.phone, amountMinor: '2000', externalId: 'real-2', note: null },
      { index: 3, phone: lrdOnly.phone, amountMinor: '2000', externalId: 'real-3', note: null },
    ];

    const answer = await postJson(`${harness.baseUrl}${quotesPaths.bulkQuotes}`, { partnerId, currency: 'USD', items });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      currency: 'USD',
      partnerBalanceMinor: '100000',
      items: [
        { index: 0, outcome: 'valid', feeMinor: '35', recipientName: 'Comfort Gold' },
        { index: 1, outcome: 'invalid', code: 'PKC_3001' },
        { index: 2, outcome: 'invalid', code: 'PKC_3005' },
        { index: 3, outcome: 'invalid', code: 'PKC_3003' },
      ],
    });
    const consumed = await postJson(`${harness.baseUrl}${quotesPaths.consumeBulkQuote(answer.body.bulkQuoteId as string)}`, { partnerId });
    expect(consumed.status).toBe(200);
    expect(consumed.body.items).toEqual([
      { index: 0, phone: valid.phone, recipientName: 'Comfort Gold', amountMinor: '1025', feeMinor: '35', externalId: 'real-0', note: 'November salary' },
    ]);
  });

  test("when the real partner balance does not cover the valid items, then the whole call is PKC_4002 and nothing is stored", async () => {
    const partnerId = await createTestPartner(wallet, { USD: 1_059n });
    const recipient = await createTestUser(wallet);

    const answer = await postJson(`${harness.baseUrl}${quotesPaths.bulkQuotes}`, {
      partnerId,
      currency: 'USD',
      items: [{ index: 0, phone: recipient.phone, amountMinor: '1025', externalId: 'short-0', note: null }], // 10.25 + 0.35 = 10.60
    });

    expect(answer).toEqual({ status: 400, body: { success: false, code: 'PKC_4002', message: expect.any(String) } });
    const stored = await harness.database.query('SELECT 1 FROM bulk_quotes WHERE partner_id = $1', [partnerId]);
    expect(stored.rows).toEqual([]);
  });
});
