import { randomUUID } from 'node:crypto';
import { replaceFeeSchedule } from '../../src/store/fee-schedule-store';
import { countQuotes, postJson, startQuotesHarness, type QuotesHarness } from './quotes-harness';

describe('quote endpoints (quotes in-process, wallet stand-in)', () => {
  let harness: QuotesHarness;

  beforeAll(async () => {
    harness = await startQuotesHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  beforeEach(() => {
    harness.wallet.answer = () => ({ kind: 'pass' });
    harness.wallet.received.length = 0;
  });

  const quote = (type: 'collection' | 'disbursement', body: unknown, partnerId: string = randomUUID(), baseUrl = harness.baseUrl) =>
    postJson(`${baseUrl}/partner/v1/${type}/quote`, body, { 'x-partner-id': partnerId });

  test('when a collection quote passes every check, then the spec fields come back and the quote is stored with its fee', async () => {
    const partnerId = randomUUID();

    const response = await quote('collection', { phone: '0770123456', amount: 250.5, currency: 'USD' }, partnerId);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        quoteId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        recipient: { name: 'Comfort Doe', phone: '+231770123456', accountStatus: 'active' },
        amount: 250.5,
        currency: 'USD',
        fee: 2.13, // 0.25 + 0.75 % of 250.50 = 2.12875 -> 2.13
        totalDebit: 252.63,
        sufficientBalance: true,
        approvalWindowMinutes: 10,
        note: expect.stringContaining('252.63 USD'),
      },
    });
    expect(harness.wallet.received).toEqual([
      {
        path: '/internal/checks',
        body: { type: 'collection', partnerId, phone: '+231770123456', currency: 'USD', amountMinor: '25050', feeMinor: '213' },
      },
    ]);
    const stored = await harness.database.query(
      `SELECT partner_id, quote_type, amount_minor, fee_minor, total_debit_minor, used_at,
              extract(epoch FROM expires_at - created_at) AS lifetime_seconds
         FROM quotes WHERE quote_id = $1`,
      [response.body.data.quoteId],
    );
    expect(stored.rows).toEqual([
      { partner_id: partnerId, quote_type: 'collection', amount_minor: '25050', fee_minor: '213', total_debit_minor: '25263', used_at: null, lifetime_seconds: '600.000000' },
    ]);
  });

  test('when a disbursement quote passes, then it shows the partner balance and what remains after the transfer', async () => {
    harness.wallet.answer = () => ({ kind: 'pass', name: 'Musu Kollie', partnerBalanceMinor: '1000000' });

    const response = await quote('disbursement', { phone: '+231880123456', amount: 1000, currency: 'LRD' });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      quoteId: expect.any(String),
      recipient: { name: 'Musu Kollie', phone: '+231880123456', accountStatus: 'active', hasWallet: true },
      amount: 1000,
      currency: 'LRD',
      fee: 60, // 50.00 + 1 % of 1,000.00
      totalDebit: 1060,
      partnerBalance: 10000,
      sufficientBalance: true,
      note: expect.stringContaining('leaving 8,940.00 LRD'),
    });
  });

  test.each([
    [{ amount: 100, currency: 'USD' }, 'PKC_2008', 'phone', 'missing'],
    [{ phone: '12345', amount: 100, currency: 'USD' }, 'PKC_2001', 'phone', 'wrong_format'],
    [{ phone: '0770123456', amount: '100', currency: 'USD' }, 'PKC_2002', 'amount', 'wrong_type'],
    [{ phone: '0770123456', amount: 10.005, currency: 'USD' }, 'PKC_2002', 'amount', 'wrong_format'],
    [{ phone: '0770123456', amount: 100, currency: 'EUR' }, 'PKC_2005', 'currency', 'not_allowed'],
    [{ phone: '0770123456', amount: 0.5, currency: 'USD' }, 'PKC_2003', 'amount', 'out_of_range'],
    [{ phone: '0770123456', amount: 1_850_000.01, currency: 'LRD' }, 'PKC_2004', 'amount', 'out_of_range'],
    [{ phone: '0770123456', amount: 100, currency: 'USD', reference: 'x' }, 'PKC_2008', 'reference', 'unknown'],
  ])('when the body is %j, then the answer is 400 %s naming %s as %s, the wallet is not asked and nothing is stored', async (body, code, field, problem) => {
    const before = await countQuotes(harness.database);

    const response = await quote('collection', body);

    const named = problem === 'unknown' ? { field, problem } : { field, problem, expected: expect.any(String) };
    expect(response).toEqual({ status: 400, body: { success: false, code, message: expect.stringContaining(field), invalidFields: [named] } });
    expect(harness.wallet.received).toEqual([]);
    expect(await countQuotes(harness.database)).toBe(before);
  });

  test.each([
    [404, 'PKC_3001'],
    [403, 'PKC_3002'],
    [404, 'PKC_3003'],
    [403, 'PKC_3004'],
    [403, 'PKC_3005'],
    [400, 'PKC_4001'],
    [400, 'PKC_4002'],
    [400, 'PKC_4003'],
    [400, 'PKC_4004'],
    [400, 'PKC_4005'],
    [400, 'PKC_4007'],
    [400, 'PKC_4008'],
    [400, 'PKC_4009'],
    [429, 'PKC_4010'],
    [403, 'PKC_4011'],
    [403, 'PKC_4012'],
  ])('when the wallet refuses with %s %s, then the partner gets that answer and nothing is stored', async (status, code) => {
    harness.wallet.answer = () => ({ kind: 'refuse', status, code });
    const before = await countQuotes(harness.database);

    const response = await quote('disbursement', { phone: '0770123456', amount: 100, currency: 'USD' });

    expect(response).toEqual({ status, body: { success: false, code, message: `refused with ${code}` } });
    expect(await countQuotes(harness.database)).toBe(before);
  });

  test('when the wallet answers 500, then the partner gets 503 PKC_7003 and nothing is stored', async () => {
    harness.wallet.answer = () => ({ kind: 'fail', status: 500 });
    const before = await countQuotes(harness.database);

    const response = await quote('collection', { phone: '0770123456', amount: 100, currency: 'USD' });

    expect(response).toEqual({ status: 503, body: { success: false, code: 'PKC_7003', message: expect.any(String) } });
    expect(await countQuotes(harness.database)).toBe(before);
  });

  test('when the wallet does not answer within the deadline, then the partner gets PKC_7003 soon after it, and nothing is stored', async () => {
    harness.wallet.answer = () => ({ kind: 'hang', delayMs: 5_000 });
    const before = await countQuotes(harness.database);
    const startedAt = Date.now();

    const response = await quote('collection', { phone: '0770123456', amount: 100, currency: 'USD' });

    expect(response.status).toBe(503);
    expect(response.body.code).toBe('PKC_7003');
    expect(Date.now() - startedAt).toBeLessThan(2_000); // WALLET_TIMEOUT_MS is 500 here
    expect(await countQuotes(harness.database)).toBe(before);
  });

  test('when the request does not name a partner, then it is refused before anything else', async () => {
    const response = await postJson(`${harness.baseUrl}/partner/v1/collection/quote`, { phone: '0770123456', amount: 100, currency: 'USD' });

    expect(response).toEqual({ status: 403, body: { success: false, code: 'PKC_6005', message: expect.any(String) } });
    expect(harness.wallet.received).toEqual([]);
  });

  test('when the operator changes a fee, then the next quote uses it and a quote already issued keeps its fee', async () => {
    const partnerId = randomUUID();
    const body = { phone: '0770123456', amount: 100, currency: 'LRD' };
    const before = await quote('collection', body, partnerId);

    await replaceFeeSchedule(harness.service.pool, 'collection', 'LRD', (current) => ({ ...current, minimumFeeMinor: 7_500n, maximumFeeMinor: 400_000n }));
    try {
      const after = await quote('collection', body, partnerId);

      expect(before.body.data.fee).toBe(20); // the default minimum fee, 20.00 LRD
      expect(after.body.data.fee).toBe(75);
      const consumed = await postJson(`${harness.baseUrl}/internal/quotes/${before.body.data.quoteId}/consume`, { partnerId, type: 'collection' });
      expect(consumed.body).toMatchObject({ feeMinor: '2000', totalDebitMinor: '12000' });
      const revisions = await harness.database.query('SELECT fee_schedule_revision FROM quotes WHERE quote_id = ANY($1) ORDER BY created_at', [
        [before.body.data.quoteId, after.body.data.quoteId],
      ]);
      expect(revisions.rows.map((row) => row.fee_schedule_revision)).toEqual([1, 2]);
    } finally {
      await replaceFeeSchedule(harness.service.pool, 'collection', 'LRD', (current) => ({ ...current, minimumFeeMinor: 2_000n }));
    }
  });

  test('when a currency is switched off for an operation, then its quotes answer PKC_2010 and the other operation is unaffected', async () => {
    const sibling = await harness.startSibling({ QUOTES_DISBURSEMENT_CURRENCIES: 'LRD' });
    try {
      const body = { phone: '0770123456', amount: 100, currency: 'USD' };
      const refused = await quote('disbursement', body, randomUUID(), sibling.baseUrl);
      expect(refused).toEqual({ status: 400, body: { success: false, code: 'PKC_2010', message: expect.any(String), invalidFields: [{ field: 'currency', problem: 'not_allowed', expected: 'LRD' }] } });
      expect((await quote('collection', body, randomUUID(), sibling.baseUrl)).status).toBe(200);
      expect((await quote('disbursement', { ...body, currency: 'LRD' }, randomUUID(), sibling.baseUrl)).status).toBe(200);
    } finally {
      await sibling.stop();
    }
  });

  test('when quotes are issued, then the wallet is only ever asked to check, never to post', async () => {
    await quote('collection', { phone: '0770123456', amount: 100, currency: 'USD' });
    await quote('disbursement', { phone: '0770123456', amount: 100, currency: 'USD' });

    expect(harness.wallet.received.map((request) => request.path)).toEqual(['/internal/checks', '/internal/checks']);
  });
});

describe('quote endpoints when the wallet is failing or down', () => {
  let harness: QuotesHarness;
  const body = { phone: '0770123456', amount: 100, currency: 'USD' };

  beforeAll(async () => {
    harness = await startQuotesHarness({ BREAKER_VOLUME_THRESHOLD: '3', BREAKER_RESET_TIMEOUT_MS: '60000' });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const quoteAttempts = async (count: number) => {
    const answers = [];
    for (let attempt = 0; attempt < count; attempt += 1) {
      answers.push(await postJson(`${harness.baseUrl}/partner/v1/disbursement/quote`, body, { 'x-partner-id': randomUUID() }));
    }
    return answers;
  };

  test('when the wallet keeps failing, then the breaker opens and later quotes fail fast without calling it', async () => {
    harness.wallet.answer = () => ({ kind: 'fail', status: 503 });

    const answers = await quoteAttempts(6);

    for (const answer of answers) expect(answer).toEqual({ status: 503, body: { success: false, code: 'PKC_7003', message: expect.any(String) } });
    expect(harness.wallet.received).toHaveLength(3); // the volume threshold; after it the breaker is open
    expect(await countQuotes(harness.database)).toBe(0);
  });

  test('when the wallet is unreachable, then quotes answer 503 PKC_7003 and store nothing, while quotes itself stays ready', async () => {
    await harness.wallet.stop();

    const answers = await quoteAttempts(2);

    for (const answer of answers) expect(answer.body.code).toBe('PKC_7003');
    expect(await countQuotes(harness.database)).toBe(0);
    // The wallet is a dependency of some requests, not of quotes' readiness: consumption still works without it.
    expect((await fetch(`${harness.baseUrl}/readyz`)).status).toBe(200);
  });
});
