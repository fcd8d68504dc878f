import { randomUUID } from 'node:crypto';
import { postJson, startQuotesHarness, type JsonAnswer, type QuotesHarness } from './quotes-harness';

describe('quote consumption (POST /internal/quotes/:quoteId/consume)', () => {
  let harness: QuotesHarness;

  beforeAll(async () => {
    harness = await startQuotesHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  async function issue(type: 'collection' | 'disbursement', partnerId: string, baseUrl = harness.baseUrl): Promise<string> {
    const response = await postJson(`${baseUrl}/partner/v1/${type}/quote`, { phone: '0880123456', amount: 99.99, currency: 'USD' }, { 'x-partner-id': partnerId });
    if (response.status !== 200) throw new Error(`quote failed: ${JSON.stringify(response.body)}`);
    return response.body.data.quoteId as string;
  }

  const consume = (quoteId: string, body: unknown, baseUrl = harness.baseUrl): Promise<JsonAnswer> =>
    postJson(`${baseUrl}/internal/quotes/${quoteId}/consume`, body);

  const refusal = (status: number, code: string): JsonAnswer => ({ status, body: { success: false, code, message: expect.any(String) } });

  test('when the owner consumes a live quote of the right type, then it gets the quote in minor units and the quote is used', async () => {
    const partnerId = randomUUID();
    const quoteId = await issue('disbursement', partnerId);

    const response = await consume(quoteId, { partnerId, type: 'disbursement' });

    expect(response).toEqual({
      status: 200,
      body: {
        quoteId,
        type: 'disbursement',
        partnerId,
        phone: '+231880123456',
        currency: 'USD',
        amountMinor: '9999',
        feeMinor: '125', // 0.25 + 1 % of 99.99 = 1.2499 -> 1.25
        totalDebitMinor: '10124',
        recipientName: 'Comfort Doe',
        expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        usedAt: expect.stringMatching(/Z$/),
      },
    });
    const stored = await harness.database.query('SELECT used_at FROM quotes WHERE quote_id = $1', [quoteId]);
    expect(stored.rows[0].used_at).toBeInstanceOf(Date);
    expect(await consume(quoteId, { partnerId, type: 'disbursement' })).toEqual(refusal(400, 'PKC_5002'));
  });

  test('when 50 confirm calls consume one quote at once, then exactly one succeeds and the others get PKC_5002', async () => {
    const partnerId = randomUUID();
    const quoteId = await issue('collection', partnerId);

    const answers = await Promise.all(Array.from({ length: 50 }, () => consume(quoteId, { partnerId, type: 'collection' })));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(49);
    for (const answer of refused) expect(answer).toEqual(refusal(400, 'PKC_5002'));
  });

  test('when the quote id is unknown, then the answer is PKC_5001', async () => {
    expect(await consume(randomUUID(), { partnerId: randomUUID(), type: 'collection' })).toEqual(refusal(400, 'PKC_5001'));
  });

  test('when the quote id is not a UUID, then the answer is PKC_2009', async () => {
    expect(await consume('not-a-uuid', { partnerId: randomUUID(), type: 'collection' })).toEqual(refusal(400, 'PKC_2009'));
    expect(await consume('123', {})).toEqual(refusal(400, 'PKC_2009'));
  });

  test('when the body lacks a partner or a known type, then the answer is PKC_2008 and the quote stays unused', async () => {
    const partnerId = randomUUID();
    const quoteId = await issue('collection', partnerId);

    expect(await consume(quoteId, { type: 'collection' })).toEqual(refusal(400, 'PKC_2008'));
    expect(await consume(quoteId, { partnerId, type: 'refund' })).toEqual(refusal(400, 'PKC_2008'));
    expect((await consume(quoteId, { partnerId, type: 'collection' })).status).toBe(200);
  });

  test('when a quote is consumed on the other type of confirm, then the answer is PKC_5003 and the quote stays usable', async () => {
    const partnerId = randomUUID();
    const quoteId = await issue('collection', partnerId);

    expect(await consume(quoteId, { partnerId, type: 'disbursement' })).toEqual(refusal(400, 'PKC_5003'));
    expect((await consume(quoteId, { partnerId, type: 'collection' })).status).toBe(200);
  });

  test("when another partner consumes a quote, then the answer is 403 PKC_5004 and the owner can still use it", async () => {
    const owner = randomUUID();
    const quoteId = await issue('disbursement', owner);

    expect(await consume(quoteId, { partnerId: randomUUID(), type: 'disbursement' })).toEqual(refusal(403, 'PKC_5004'));
    expect(await consume(quoteId, { partnerId: randomUUID(), type: 'collection' })).toEqual(refusal(403, 'PKC_5004'));
    expect((await consume(quoteId, { partnerId: owner, type: 'disbursement' })).status).toBe(200);
    // Once used, another partner still learns only that it is not theirs.
    expect(await consume(quoteId, { partnerId: randomUUID(), type: 'disbursement' })).toEqual(refusal(403, 'PKC_5004'));
  });

  test('when a quote has expired, then the answer is PKC_5001 for everyone, used or not', async () => {
    const partnerId = randomUUID();
    const unused = await issue('collection', partnerId);
    const used = await issue('collection', partnerId);
    expect((await consume(used, { partnerId, type: 'collection' })).status).toBe(200);

    await harness.database.query(
      `UPDATE quotes SET created_at = created_at - interval '11 minutes', expires_at = expires_at - interval '11 minutes',
                         used_at = used_at - interval '11 minutes'
        WHERE quote_id = ANY($1)`,
      [[unused, used]],
    );

    expect(await consume(unused, { partnerId, type: 'collection' })).toEqual(refusal(400, 'PKC_5001'));
    expect(await consume(used, { partnerId, type: 'collection' })).toEqual(refusal(400, 'PKC_5001'));
    expect(await consume(unused, { partnerId: randomUUID(), type: 'disbursement' })).toEqual(refusal(400, 'PKC_5001'));
    const stored = await harness.database.query('SELECT used_at FROM quotes WHERE quote_id = $1', [unused]);
    expect(stored.rows[0].used_at).toBeNull();
  });

  test('when QUOTE_LIFETIME_SECONDS is short, then a quote expires after it on the database clock', async () => {
    const shortLived = await harness.startSibling({ QUOTE_LIFETIME_SECONDS: '1' });
    try {
      const partnerId = randomUUID();
      const quoteId = await issue('collection', partnerId, shortLived.baseUrl);
      const note = await harness.database.query(`SELECT extract(epoch FROM expires_at - created_at) AS seconds FROM quotes WHERE quote_id = $1`, [quoteId]);
      expect(Number(note.rows[0].seconds)).toBe(1);

      await new Promise((resolve) => setTimeout(resolve, 1_100));

      expect(await consume(quoteId, { partnerId, type: 'collection' }, shortLived.baseUrl)).toEqual(refusal(400, 'PKC_5001'));
    } finally {
      await shortLived.stop();
    }
  });
});
