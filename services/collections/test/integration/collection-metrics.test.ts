import { randomBytes, randomUUID } from 'node:crypto';
import { seriesValue } from '../../../../test/support/prometheus-text';
import { quotesAndWalletStandIn, standInUserPhone, startCollectionsHarness, type CollectionsHarness, type JsonAnswer, type StandInSend } from './collections-harness';

/** Phones whose wallet posting the stand-in refuses (insufficient balance at posting time). */
const refusedPhones = new Set<string>();
const phoneOfQuote = new Map<string, string>();

function postTransfer(body: Record<string, string>, send: StandInSend): void {
  if (refusedPhones.has(body.phone ?? '')) return send(400, { success: false, code: 'PKC_4001', message: 'insufficient' });
  return send(200, { transferId: body.transferId, transactionId: `TXN-${randomBytes(8).toString('hex').toUpperCase()}`, postedAt: new Date().toISOString(), status: 'posted' });
}

describe('collections metrics (GET /metrics)', () => {
  const partnerId = randomUUID();
  let harness: CollectionsHarness;

  beforeAll(async () => {
    // The first sweep comes after this, so the first test sees an overdue collection before it.
    harness = await startCollectionsHarness(quotesAndWalletStandIn(postTransfer, (quoteId) => phoneOfQuote.get(quoteId) ?? standInUserPhone), { EXPIRY_SWEEP_INTERVAL_MS: '1500' });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const scrape = (): Promise<string> => harness.scrape();
  const post = (path: string, body: unknown): Promise<JsonAnswer> => harness.call('POST', path, { partner: partnerId, body });

  /** A pending collection for `phone`; returns its referenceId. */
  async function requestCollection(phone = '+231880000001', quoteId: string = randomUUID()): Promise<string> {
    phoneOfQuote.set(quoteId, phone);
    const answer = await post('/partner/v1/collection/request', { quoteId, externalId: `metrics-${randomUUID()}` });
    if (answer.status !== 202) throw new Error(`collection request failed: ${JSON.stringify(answer.body)}`);
    return answer.body.data.referenceId as string;
  }

  test('when a pending collection is a minute past its window and the sweeper has not run, then it is overdue; once the sweep finishes it is expired and counted', async () => {
    const before = await scrape();
    const referenceId = await requestCollection();
    await harness.sql.query("UPDATE collection_requests SET expires_at = now() - interval '2 minutes' WHERE reference_id = $1", [referenceId]);

    const overdue = await scrape();
    const deadline = Date.now() + 5_000;
    let swept = await scrape();
    while ((seriesValue(swept, 'collection_expiry_sweep_last_success_timestamp_seconds', {}) ?? 0) === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      swept = await scrape();
    }

    for (const state of ['completed', 'declined', 'expired', 'failed']) expect(seriesValue(before, 'collections_terminal_total', { state, service: 'collections' })).toBe(0);
    expect(seriesValue(before, 'confirm_requests_total', { type: 'collection', outcome: 'accepted', code: 'none' })).toBe(0);
    expect(seriesValue(before, 'circuit_breaker_state', { breaker: 'quotes' })).toBe(0);
    expect(seriesValue(before, 'circuit_breaker_state', { breaker: 'wallet' })).toBe(0);
    expect(seriesValue(overdue, 'collections_pending_overdue', {})).toBe(1);
    expect(seriesValue(overdue, 'collection_expiry_sweep_last_success_timestamp_seconds', {})).toBe(0);
    expect(seriesValue(swept, 'collection_expiry_sweep_last_success_timestamp_seconds', {})).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(seriesValue(swept, 'collections_pending_overdue', {})).toBe(0);
    expect(seriesValue(swept, 'collections_terminal_total', { state: 'expired' })).toBe(1);
  });

  test('when collections are confirmed, approved, declined and refused at posting, then confirms, final states and approval latency are counted', async () => {
    const refusedPhone = '+231880000002';
    refusedPhones.add(refusedPhone);
    const before = await scrape();
    const completed = await requestCollection();
    const declined = await requestCollection();
    const failed = await requestCollection(refusedPhone);
    const usedQuote = randomUUID();
    await requestCollection('+231880000001', usedQuote);
    const reused = await post('/partner/v1/collection/request', { quoteId: usedQuote, externalId: `metrics-${randomUUID()}` });

    const approvedAnswer = await post(`/internal/app/collections/${completed}/approve`, {});
    const declinedAnswer = await post(`/internal/app/collections/${declined}/decline`, {});
    const failedAnswer = await post(`/internal/app/collections/${failed}/approve`, {});
    const again = await post(`/internal/app/collections/${declined}/approve`, {});
    const after = await scrape();

    expect([approvedAnswer.body.data.status, declinedAnswer.body.data.status, failedAnswer.body.data.status]).toEqual(['completed', 'declined', 'failed']);
    expect([reused.status, reused.body.code, again.body.code]).toEqual([400, 'PKC_5002', 'PKC_6004']);
    const moved = (name: string, labels: Record<string, string>): number => (seriesValue(after, name, labels) ?? 0) - (seriesValue(before, name, labels) ?? 0);
    expect(moved('confirm_requests_total', { type: 'collection', outcome: 'accepted', code: 'none' })).toBe(4);
    expect(moved('confirm_requests_total', { type: 'collection', outcome: 'rejected', code: 'PKC_5002' })).toBe(1);
    expect(moved('collections_terminal_total', { state: 'completed' })).toBe(1);
    expect(moved('collections_terminal_total', { state: 'declined' })).toBe(1);
    expect(moved('collections_terminal_total', { state: 'failed' })).toBe(1);
    expect(moved('collections_terminal_total', { state: 'expired' })).toBe(0);
    expect(moved('collection_approval_latency_seconds_count', {})).toBe(2);
    expect(moved('pkc_errors_total', { code: 'PKC_6004', status_code: '409' })).toBe(1);
  });

  test('when an approved collection stays processing more than a minute, then it is stale; once the recovery worker posts it, it is not, and the recovery timestamp has moved', async () => {
    const before = await scrape();
    const referenceId = await requestCollection();
    // Approved two minutes ago and not due for a re-drive yet: the wallet answered none of its postings.
    await harness.sql.query(
      `UPDATE collection_requests
          SET status = 'processing', approved_at = now() - interval '2 minutes', posting_attempts = 1, next_posting_at = now() + interval '1 hour'
        WHERE reference_id = $1`,
      [referenceId],
    );
    const stale = await scrape();
    const recoveredBefore = seriesValue(stale, 'collection_posting_recovery_last_success_timestamp_seconds', {}) ?? 0;

    await harness.sql.query('UPDATE collection_requests SET next_posting_at = now() WHERE reference_id = $1', [referenceId]);
    const deadline = Date.now() + 10_000;
    let recovered = await scrape();
    const settled = (): boolean =>
      seriesValue(recovered, 'collections_processing_stale', {}) === 0 &&
      (seriesValue(recovered, 'collection_posting_recovery_last_success_timestamp_seconds', {}) ?? 0) > recoveredBefore;
    while (!settled() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = await scrape();
    }
    const status = await harness.sql.query<{ status: string }>('SELECT status FROM collection_requests WHERE reference_id = $1', [referenceId]);

    expect(seriesValue(before, 'collections_processing_stale', { service: 'collections' })).toBe(0);
    expect(seriesValue(before, 'collection_posting_recovery_last_success_timestamp_seconds', { service: 'collections' })).toBeGreaterThanOrEqual(0);
    expect(seriesValue(stale, 'collections_processing_stale', {})).toBe(1);
    expect(seriesValue(recovered, 'collections_processing_stale', {})).toBe(0);
    expect(seriesValue(recovered, 'collection_posting_recovery_last_success_timestamp_seconds', {})).toBeGreaterThan(recoveredBefore);
    expect(seriesValue(recovered, 'collection_posting_recovery_last_success_timestamp_seconds', {})).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(status.rows).toEqual([{ status: 'completed' }]);
  });
});
