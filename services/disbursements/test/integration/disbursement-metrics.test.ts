import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from '@pwa/config';
import type { consumedQuoteAnswerSchema } from '@pwa/contracts';
import { seriesValue } from '../../../../test/support/prometheus-text';
import { startDisbursementsHarness, type DisbursementsHarness, type StandInRequest, type StandInSend } from './disbursements-harness';

/** How the stand-in wallet treats a transfer, chosen by the quote's phone. */
type WalletBehaviour = 'post' | 'refuse' | 'hang_then_cancel' | 'hang_always';
const phoneOf: Record<WalletBehaviour, string> = {
  post: '+231880000011',
  refuse: '+231880000012',
  hang_then_cancel: '+231880000013',
  hang_always: '+231880000014',
};
const behaviourOfPhone = new Map(Object.entries(phoneOf).map(([behaviour, phone]) => [phone, behaviour as WalletBehaviour]));
const phoneOfQuote = new Map<string, string>();
const transferPhones = new Map<string, string>();

/** Just enough of quotes and the wallet on one listener, answering by their contracts (libs/contracts internal). */
function standInUpstreams({ url, body }: StandInRequest<Record<string, string>>, send: StandInSend): void {
  const consume = /^\/internal\/quotes\/([^/]+)\/consume$/.exec(url);
  if (consume) {
    const quoteId = consume[1] ?? '';
    return send(200, {
      quoteId, type: 'disbursement', partnerId: body.partnerId ?? '', phone: phoneOfQuote.get(quoteId) ?? '', currency: 'USD', amountMinor: '1000', feeMinor: '20',
      totalDebitMinor: '1020', recipientName: 'Comfort Doe', expiresAt: new Date(Date.now() + 60_000).toISOString(), usedAt: new Date().toISOString(),
    } satisfies z.input<typeof consumedQuoteAnswerSchema>);
  }
  const cancel = /^\/internal\/transfers\/([^/]+)\/cancel$/.exec(url);
  if (cancel) {
    if (behaviourOfPhone.get(transferPhones.get(cancel[1] ?? '') ?? '') === 'hang_always') return undefined;
    return send(200, { transferId: cancel[1], state: 'cancelled' });
  }
  if (url === '/internal/transfers') {
    transferPhones.set(body.transferId ?? '', body.phone ?? '');
    switch (behaviourOfPhone.get(body.phone ?? '')) {
      case 'post':
        return send(200, { transferId: body.transferId, transactionId: `TXN-${randomBytes(8).toString('hex').toUpperCase()}`, postedAt: new Date().toISOString(), status: 'posted' });
      case 'refuse':
        return send(400, { success: false, code: 'PKC_4002', message: 'Partner balance insufficient' });
      case 'hang_then_cancel':
      case 'hang_always':
      case undefined:
        return undefined; // no answer: the budget runs out
    }
  }
  return send(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
}

describe('disbursements metrics (GET /metrics)', () => {
  const partnerId = randomUUID();
  let harness: DisbursementsHarness;

  beforeAll(async () => {
    harness = await startDisbursementsHarness(standInUpstreams, {
      DISBURSEMENT_BUDGET_MS: '600',
      WALLET_CANCEL_TIMEOUT_MS: '300',
      BREAKER_VOLUME_THRESHOLD: '1000',
      SETTLEMENT_SWEEP_INTERVAL_MS: '3600000',
    });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const scrape = (): Promise<string> => harness.scrape();

  async function transfer(behaviour: WalletBehaviour, quoteId: string = randomUUID()): Promise<{ status: number; code?: string }> {
    phoneOfQuote.set(quoteId, phoneOf[behaviour]);
    const answer = await harness.call('POST', '/partner/v1/disbursement/transfer', { partner: partnerId, body: { quoteId, externalId: `metrics-${randomUUID()}` } });
    const body = answer.body as { code?: string };
    return { status: answer.status, code: body.code };
  }

  test('when transfers complete, are refused, time out and end unknown, then confirms and durations are counted by outcome', async () => {
    const before = await scrape();

    const answers = [await transfer('post'), await transfer('refuse'), await transfer('hang_then_cancel'), await transfer('hang_always')];
    const after = await scrape();

    expect(answers).toEqual([{ status: 200 }, { status: 400, code: 'PKC_4002' }, { status: 504, code: 'PKC_7004' }, { status: 500, code: 'PKC_7002' }]);
    expect(seriesValue(before, 'confirm_requests_total', { type: 'disbursement', outcome: 'completed', code: 'none', service: 'disbursements' })).toBe(0);
    for (const outcome of ['completed', 'rejected', 'timed_out', 'unknown']) expect(seriesValue(before, 'disbursement_duration_seconds_count', { outcome })).toBe(0);
    expect(seriesValue(before, 'circuit_breaker_state', { breaker: 'quotes' })).toBe(0);
    expect(seriesValue(before, 'circuit_breaker_state', { breaker: 'wallet' })).toBe(0);
    expect(seriesValue(after, 'confirm_requests_total', { type: 'disbursement', outcome: 'completed', code: 'none' })).toBe(1);
    expect(seriesValue(after, 'confirm_requests_total', { type: 'disbursement', outcome: 'rejected', code: 'PKC_4002' })).toBe(1);
    expect(seriesValue(after, 'confirm_requests_total', { type: 'disbursement', outcome: 'rejected', code: 'PKC_7004' })).toBe(1);
    expect(seriesValue(after, 'confirm_requests_total', { type: 'disbursement', outcome: 'rejected', code: 'PKC_7002' })).toBe(1);
    for (const outcome of ['completed', 'rejected', 'timed_out', 'unknown']) expect(seriesValue(after, 'disbursement_duration_seconds_count', { outcome })).toBe(1);
    // The budget (0.6 s) passed before the timed-out answer.
    expect(seriesValue(after, 'disbursement_duration_seconds_sum', { outcome: 'timed_out' })).toBeGreaterThanOrEqual(0.55);
    expect(seriesValue(after, 'pkc_errors_total', { code: 'PKC_7004', status_code: '504' })).toBe(1);
  });

  test('when a disbursement stays processing more than a minute, then it is stale; a sweep pass moves the sweep timestamp, and once the wallet answers the cancellation it settles', async () => {
    const before = await scrape();
    // The wallet answers neither the posting nor the cancellation: the row stays processing.
    const quoteId = randomUUID();
    const answer = await transfer('hang_always', quoteId);
    const fresh = await scrape();
    const row = await harness.sql.query<{ disbursement_id: string }>(
      "UPDATE disbursements SET created_at = created_at - interval '2 minutes' WHERE quote_id = $1 AND status = 'processing' RETURNING disbursement_id",
      [quoteId],
    );
    const stale = await scrape();

    await harness.service.sweep.sweepNow();
    const sweptWhileWalletSilent = await scrape();
    // The wallet answers again: the next pass cancels the transfer id and settles the row timed_out.
    transferPhones.set(row.rows[0]?.disbursement_id ?? '', phoneOf.post);
    await harness.service.sweep.sweepNow();
    const settled = await scrape();
    const status = await harness.sql.query<{ status: string }>('SELECT status FROM disbursements WHERE quote_id = $1', [quoteId]);

    expect(answer).toEqual({ status: 500, code: 'PKC_7002' });
    expect(row.rowCount).toBe(1);
    expect(seriesValue(before, 'disbursements_processing_stale', { service: 'disbursements' })).toBe(0);
    expect(seriesValue(before, 'disbursement_settlement_sweep_last_success_timestamp_seconds', { service: 'disbursements' })).toBe(0);
    expect(seriesValue(fresh, 'disbursements_processing_stale', {})).toBe(0);
    expect(seriesValue(stale, 'disbursements_processing_stale', {})).toBe(1);
    expect(seriesValue(stale, 'disbursement_settlement_sweep_last_success_timestamp_seconds', {})).toBe(0);
    const firstSweep = seriesValue(sweptWhileWalletSilent, 'disbursement_settlement_sweep_last_success_timestamp_seconds', {}) ?? 0;
    expect(firstSweep).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(seriesValue(sweptWhileWalletSilent, 'disbursements_processing_stale', {})).toBe(1);
    expect(seriesValue(settled, 'disbursement_settlement_sweep_last_success_timestamp_seconds', {})).toBeGreaterThanOrEqual(firstSweep);
    expect(seriesValue(settled, 'disbursements_processing_stale', {})).toBe(0);
    expect(status.rows).toEqual([{ status: 'timed_out' }]);
  });
});
