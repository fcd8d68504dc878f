import { randomUUID } from 'node:crypto';
import {
  bulkQuoteAnswerSchema,
  bulkQuoteConsumeRequestSchema,
  bulkQuoteRequestSchema,
  consumedBulkQuoteAnswerSchema,
  consumedQuoteAnswerSchema,
  quoteConsumeRequestSchema,
  quotesContractExamples,
  quotesPaths,
  refusalSchema,
  walletCheckAnswerSchema,
  walletCheckBody,
  walletPaths,
  walletTransferBatchCheckAnswerSchema,
  walletTransferBatchCheckBody,
} from '@pwa/contracts';
import { postJson, startQuotesHarness, type QuotesHarness } from './quotes-harness';
import { passEveryItem } from './wallet-stand-in';

/**
 * The quotes service's internal contract (libs/contracts internal/quotes) through its real route:
 * the documented consume example, with a real quote of this test's partner, is accepted and the
 * answer parses with the schema the confirm services read it with. The wallet stand-in these tests
 * use answers checks the way the wallet's contract says.
 */
describe('quotes internal contract', () => {
  let harness: QuotesHarness;

  beforeAll(async () => {
    harness = await startQuotesHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  test('when the documented consume example is posted for a real quote, then the answer parses as the contract says, and a second consume is a refusal envelope', async () => {
    const partnerId = randomUUID();
    const quote = await postJson(`${harness.baseUrl}/partner/v1/disbursement/quote`, { phone: '0880123456', amount: 10.25, currency: 'USD' }, { 'x-partner-id': partnerId });
    expect(quote.status).toBe(200);
    const quoteId = quote.body.data.quoteId as string;
    const example = { ...quotesContractExamples.consumeRequest, partnerId };
    expect(quoteConsumeRequestSchema.safeParse(example).success).toBe(true);
    const consumed = await postJson(`${harness.baseUrl}${quotesPaths.consume(quoteId)}`, example);
    expect(consumed.status).toBe(200);
    expect(consumedQuoteAnswerSchema.parse(consumed.body)).toMatchObject({ quoteId, partnerId, type: 'disbursement', amountMinor: 1_025n });
    expect(Object.keys(consumed.body as object).sort()).toEqual(Object.keys(quotesContractExamples.consumedAnswer).sort());
    const again = await postJson(`${harness.baseUrl}${quotesPaths.consume(quoteId)}`, example);
    expect(refusalSchema.parse(again.body).code).toBe('PKC_5002');
  });

  test("when the wallet stand-in answers a check, then its answer is the wallet's contract", async () => {
    const body = walletCheckBody({ type: 'collection', partnerId: randomUUID(), phone: '+231880123456', currency: 'LRD', amountMinor: 500n, feeMinor: 5n });
    const answer = await postJson(`${harness.wallet.url}${walletPaths.checks}`, body);
    expect(answer.status).toBe(200);
    expect(walletCheckAnswerSchema.safeParse(answer.body).success).toBe(true);
    harness.wallet.answer = () => ({ kind: 'refuse', status: 404, code: 'PKC_3001' });
    expect(refusalSchema.safeParse((await postJson(`${harness.wallet.url}${walletPaths.checks}`, body)).body).success).toBe(true);
    harness.wallet.answer = () => ({ kind: 'pass' });
  });

  test('when the documented bulk quote examples are posted, then the answers parse as the contract says and name the same fields as the documented ones', async () => {
    const partnerId = randomUUID();
    harness.wallet.batchAnswer = (body) => ({
      kind: 'answer',
      body: {
        partnerBalanceMinor: '1000000',
        results: body.items.map((item) =>
          item.phone === '+231770000009' ? { outcome: 'refused', code: 'PKC_3001' } : { outcome: 'passed', phone: item.phone, recipientName: 'Comfort Gold' },
        ),
      },
    });
    try {
      const request = { ...quotesContractExamples.bulkQuoteRequest, partnerId };
      expect(bulkQuoteRequestSchema.safeParse(request).success).toBe(true);
      const quoted = await postJson(`${harness.baseUrl}${quotesPaths.bulkQuotes}`, request);
      expect(quoted.status).toBe(200);
      const answer = bulkQuoteAnswerSchema.parse(quoted.body);
      expect({ ...quoted.body, bulkQuoteId: quotesContractExamples.bulkQuoteAnswer.bulkQuoteId, expiresAt: quotesContractExamples.bulkQuoteAnswer.expiresAt }).toEqual(
        quotesContractExamples.bulkQuoteAnswer,
      );

      const consumeRequest = { ...quotesContractExamples.consumeBulkQuoteRequest, partnerId };
      expect(bulkQuoteConsumeRequestSchema.safeParse(consumeRequest).success).toBe(true);
      const consumed = await postJson(`${harness.baseUrl}${quotesPaths.consumeBulkQuote(answer.bulkQuoteId as string)}`, consumeRequest);
      expect(consumed.status).toBe(200);
      expect(consumedBulkQuoteAnswerSchema.parse(consumed.body)).toMatchObject({ bulkQuoteId: answer.bulkQuoteId, partnerId, currency: 'USD' });
      expect(consumed.body.items).toEqual(quotesContractExamples.consumedBulkQuoteAnswer.items);
      expect(Object.keys(consumed.body as object).sort()).toEqual(Object.keys(quotesContractExamples.consumedBulkQuoteAnswer).sort());
      const again = await postJson(`${harness.baseUrl}${quotesPaths.consumeBulkQuote(answer.bulkQuoteId as string)}`, consumeRequest);
      expect(refusalSchema.parse(again.body).code).toBe('PKC_5002');
    } finally {
      harness.wallet.batchAnswer = passEveryItem;
    }
  });

  test("when the wallet stand-in answers a batch check, then its answer is the wallet's contract", async () => {
    const body = walletTransferBatchCheckBody({
      partnerId: randomUUID(),
      currency: 'USD',
      type: 'disbursement',
      items: [{ phone: '+231770000001', amountMinor: 1_025n, feeMinor: 35n }],
    });
    const answer = await postJson(`${harness.wallet.url}${walletPaths.transferBatchChecks}`, body);
    expect(answer.status).toBe(200);
    expect(walletTransferBatchCheckAnswerSchema.parse(answer.body).results).toHaveLength(1);
  });
});
