import { randomUUID } from 'node:crypto';
import { postJson, startQuotesHarness, type QuotesHarness } from './quotes-harness';
import { seriesValue } from '../../../../test/support/prometheus-text';

/** The value of one series in Prometheus text, matched by name and a subset of its labels. */

describe('quotes metrics (GET /metrics)', () => {
  let harness: QuotesHarness;

  beforeAll(async () => {
    harness = await startQuotesHarness({ BREAKER_VOLUME_THRESHOLD: '2', BREAKER_RESET_TIMEOUT_MS: '60000' });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const scrape = async (): Promise<string> => (await fetch(`${harness.baseUrl}/metrics`)).text();
  const quote = (type: 'collection' | 'disbursement', partnerId: string, body: unknown = { phone: '0880123456', amount: 10, currency: 'USD' }) =>
    postJson(`${harness.baseUrl}/partner/v1/${type}/quote`, body, { 'x-partner-id': partnerId });

  test('when quotes are issued, refused and consumed, then the counters move with type, outcome and code, and the breaker reads closed', async () => {
    const before = await scrape();
    const partnerId = randomUUID();
    const issued = await quote('collection', partnerId);
    await quote('disbursement', partnerId, { phone: '0880123456', amount: 10.001, currency: 'USD' });
    const quoteId = issued.body.data.quoteId as string;
    const consumed = await postJson(`${harness.baseUrl}/internal/quotes/${quoteId}/consume`, { partnerId, type: 'collection' });
    const again = await postJson(`${harness.baseUrl}/internal/quotes/${quoteId}/consume`, { partnerId, type: 'collection' });
    const after = await scrape();

    expect([issued.status, consumed.status, again.body.code]).toEqual([200, 200, 'PKC_5002']);
    expect(seriesValue(before, 'quotes_requests_total', { type: 'collection', outcome: 'issued', code: 'none', service: 'quotes' })).toBe(0);
    expect(seriesValue(before, 'quotes_requests_total', { type: 'disbursement', outcome: 'issued', code: 'none' })).toBe(0);
    expect(seriesValue(before, 'quote_consumptions_total', { outcome: 'consumed', code: 'none' })).toBe(0);
    expect(seriesValue(after, 'quotes_requests_total', { type: 'collection', outcome: 'issued', code: 'none' })).toBe(1);
    expect(seriesValue(after, 'quotes_requests_total', { type: 'disbursement', outcome: 'rejected', code: 'PKC_2002' })).toBe(1);
    expect(seriesValue(after, 'quote_consumptions_total', { outcome: 'consumed', code: 'none' })).toBe(1);
    expect(seriesValue(after, 'quote_consumptions_total', { outcome: 'rejected', code: 'PKC_5002' })).toBe(1);
    expect(seriesValue(after, 'pkc_errors_total', { code: 'PKC_5002', status_code: '400' })).toBe(1);
    expect(seriesValue(after, 'circuit_breaker_state', { breaker: 'wallet' })).toBe(0);
  });

  test('when the wallet keeps failing, then the quote requests are rejected with PKC_7003 and circuit_breaker_state reads 2 (open)', async () => {
    harness.wallet.answer = () => ({ kind: 'fail', status: 503 });

    for (let attempt = 0; attempt < 3; attempt += 1) await quote('disbursement', randomUUID());
    const after = await scrape();

    expect(seriesValue(after, 'quotes_requests_total', { type: 'disbursement', outcome: 'rejected', code: 'PKC_7003' })).toBe(3);
    expect(seriesValue(after, 'circuit_breaker_state', { breaker: 'wallet' })).toBe(2);
  });
});
