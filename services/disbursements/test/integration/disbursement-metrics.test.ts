import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from '@pwa/config';
import type { consumedQuoteAnswerSchema } from '@pwa/contracts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import { readDisbursementsConfig } from '../../src/config';
import { startDisbursementsService, type DisbursementsService } from '../../src/service';
import { deleteExchange } from '../../../../test/support/cleanup';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string; amqp: string } };
import { seriesValue } from '../../../../test/support/prometheus-text';

/** The value of one series in Prometheus text, matched by name and a subset of its labels. */

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
function standInUpstreams(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
    const send = (status: number, answer: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    };
    const consume = /^\/internal\/quotes\/([^/]+)\/consume$/.exec(req.url ?? '');
    if (consume) {
      const quoteId = consume[1] ?? '';
      return send(200, {
        quoteId, type: 'disbursement', partnerId: body.partnerId ?? '', phone: phoneOfQuote.get(quoteId) ?? '', currency: 'USD', amountMinor: '1000', feeMinor: '20',
        totalDebitMinor: '1020', recipientName: 'Comfort Doe', expiresAt: new Date(Date.now() + 60_000).toISOString(), usedAt: new Date().toISOString(),
      } satisfies z.input<typeof consumedQuoteAnswerSchema>);
    }
    const cancel = /^\/internal\/transfers\/([^/]+)\/cancel$/.exec(req.url ?? '');
    if (cancel) {
      if (behaviourOfPhone.get(transferPhones.get(cancel[1] ?? '') ?? '') === 'hang_always') return undefined;
      return send(200, { transferId: cancel[1], state: 'cancelled' });
    }
    if (req.url === '/internal/transfers') {
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
  });
}

describe('disbursements metrics (GET /metrics)', () => {
  const servers = serverUrls();
  const exchange = `pwa.disbursements-metrics-it.${randomBytes(4).toString('hex')}`;
  const partnerId = randomUUID();
  let upstreams: http.Server;
  let service: DisbursementsService;
  let sql: Pool;
  let baseUrl: string;
  let databaseUrl: string;

  beforeAll(async () => {
    const database = new URL(servers.postgres);
    database.pathname = `/pwa_disbursements_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    databaseUrl = database.toString();
    await ensureDatabase(databaseUrl);
    upstreams = http.createServer(standInUpstreams);
    await new Promise<void>((resolve) => upstreams.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstreams.address() as AddressInfo).port}`;
    service = await startDisbursementsService(
      readDisbursementsConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        AMQP_URL: servers.amqp,
        BUS_EXCHANGE: exchange,
        QUOTES_URL: upstreamUrl,
        WALLET_URL: upstreamUrl,
        DISBURSEMENT_BUDGET_MS: '600',
        WALLET_CANCEL_TIMEOUT_MS: '300',
        BREAKER_VOLUME_THRESHOLD: '1000',
        SETTLEMENT_SWEEP_INTERVAL_MS: '3600000',
      }),
    );
    baseUrl = `http://127.0.0.1:${service.port}`;
    sql = new Pool({ connectionString: databaseUrl, max: 2, options: '-c search_path=disbursements' });
    // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
    // a connection still closing is then terminated, which is expected, not an error of the test.
    sql.on('error', () => undefined);
  });

  afterAll(async () => {
    await service?.stop();
    await sql?.end();
    upstreams?.closeAllConnections();
    await new Promise((resolve) => upstreams?.close(resolve));
    await Promise.allSettled([deleteExchange(servers.amqp, exchange), dropDatabase(databaseUrl)]);
  });

  const scrape = async (): Promise<string> => (await fetch(`${baseUrl}/metrics`)).text();

  async function transfer(behaviour: WalletBehaviour, quoteId: string = randomUUID()): Promise<{ status: number; code?: string }> {
    phoneOfQuote.set(quoteId, phoneOf[behaviour]);
    const response = await fetch(`${baseUrl}/partner/v1/disbursement/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-partner-id': partnerId },
      body: JSON.stringify({ quoteId, externalId: `metrics-${randomUUID()}` }),
    });
    const body = (await response.json()) as { code?: string };
    return { status: response.status, code: body.code };
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
    const row = await sql.query<{ disbursement_id: string }>(
      "UPDATE disbursements SET created_at = created_at - interval '2 minutes' WHERE quote_id = $1 AND status = 'processing' RETURNING disbursement_id",
      [quoteId],
    );
    const stale = await scrape();

    await service.sweep.sweepNow();
    const sweptWhileWalletSilent = await scrape();
    // The wallet answers again: the next pass cancels the transfer id and settles the row timed_out.
    transferPhones.set(row.rows[0]?.disbursement_id ?? '', phoneOf.post);
    await service.sweep.sweepNow();
    const settled = await scrape();
    const status = await sql.query<{ status: string }>('SELECT status FROM disbursements WHERE quote_id = $1', [quoteId]);

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
