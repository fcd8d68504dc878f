import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import type { z } from '@pwa/config';
import type { consumedQuoteAnswerSchema, walletCheckAnswerSchema } from '@pwa/contracts';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import type { HostedService } from '@pwa/runtime';
import { readCollectionsConfig } from '../../src/config';
import { startCollectionsService } from '../../src/service';
import { deleteExchange } from '../../../../test/support/cleanup';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { postgres: string; amqp: string } };
import { seriesValue } from '../../../../test/support/prometheus-text';

/** The value of one series in Prometheus text, matched by name and a subset of its labels. */

/** Phones whose wallet posting the stand-in refuses (insufficient balance at posting time). */
const refusedPhones = new Set<string>();
/** Quotes the stand-in has consumed: a second consumption is PKC_5002. */
const consumedQuotes = new Set<string>();
const phoneOfQuote = new Map<string, string>();

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
      if (consumedQuotes.has(quoteId)) return send(400, { success: false, code: 'PKC_5002', message: 'Quote already used' });
      consumedQuotes.add(quoteId);
      return send(200, {
        quoteId, type: 'collection', partnerId: body.partnerId ?? '', phone: phoneOfQuote.get(quoteId) ?? '+231880000001', currency: 'USD',
        amountMinor: '1000', feeMinor: '20', totalDebitMinor: '1020', recipientName: 'Comfort Doe', expiresAt: new Date(Date.now() + 60_000).toISOString(), usedAt: new Date().toISOString(),
      } satisfies z.input<typeof consumedQuoteAnswerSchema>);
    }
    if (req.url === '/internal/checks') {
      return send(200, {
        recipient: { name: 'Comfort Doe', phone: body.phone ?? '+231880000001', accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
        userBalanceMinor: '100000',
        partnerBalanceMinor: '0',
      } satisfies z.input<typeof walletCheckAnswerSchema>);
    }
    if (req.url === '/internal/transfers') {
      if (refusedPhones.has(body.phone ?? '')) return send(400, { success: false, code: 'PKC_4001', message: 'insufficient' });
      return send(200, { transferId: body.transferId, transactionId: `TXN-${randomBytes(8).toString('hex').toUpperCase()}`, postedAt: new Date().toISOString(), status: 'posted' });
    }
    return send(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
  });
}

describe('collections metrics (GET /metrics)', () => {
  const servers = serverUrls();
  const exchange = `pwa.collections-metrics-it.${randomBytes(4).toString('hex')}`;
  const partnerId = randomUUID();
  let upstreams: http.Server;
  let service: HostedService;
  let sql: Pool;
  let baseUrl: string;
  let databaseUrl: string;

  beforeAll(async () => {
    const database = new URL(servers.postgres);
    database.pathname = `/pwa_collections_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    databaseUrl = database.toString();
    await ensureDatabase(databaseUrl);
    upstreams = http.createServer(standInUpstreams);
    await new Promise<void>((resolve) => upstreams.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstreams.address() as AddressInfo).port}`;
    service = await startCollectionsService(
      readCollectionsConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        AMQP_URL: servers.amqp,
        BUS_EXCHANGE: exchange,
        QUOTES_URL: upstreamUrl,
        WALLET_URL: upstreamUrl,
        // The first sweep comes after this, so the first test sees an overdue collection before it.
        EXPIRY_SWEEP_INTERVAL_MS: '1500',
      }),
    );
    baseUrl = `http://127.0.0.1:${service.port}`;
    sql = new Pool({ connectionString: databaseUrl, max: 2, options: '-c search_path=collections' });
    // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
    // a connection still closing is then terminated, which is expected, not an error of the test.
    sql.on('error', () => undefined);
  });

  afterAll(async () => {
    await service?.stop();
    await sql?.end();
    await new Promise((resolve) => upstreams?.close(resolve));
    await Promise.allSettled([deleteExchange(servers.amqp, exchange), dropDatabase(databaseUrl)]);
  });

  const scrape = async (): Promise<string> => (await fetch(`${baseUrl}/metrics`)).text();

  async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-partner-id': partnerId }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  }

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
    await sql.query("UPDATE collection_requests SET expires_at = now() - interval '2 minutes' WHERE reference_id = $1", [referenceId]);

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
    await sql.query(
      `UPDATE collection_requests
          SET status = 'processing', approved_at = now() - interval '2 minutes', posting_attempts = 1, next_posting_at = now() + interval '1 hour'
        WHERE reference_id = $1`,
      [referenceId],
    );
    const stale = await scrape();
    const recoveredBefore = seriesValue(stale, 'collection_posting_recovery_last_success_timestamp_seconds', {}) ?? 0;

    await sql.query('UPDATE collection_requests SET next_posting_at = now() WHERE reference_id = $1', [referenceId]);
    const deadline = Date.now() + 10_000;
    let recovered = await scrape();
    const settled = (): boolean =>
      seriesValue(recovered, 'collections_processing_stale', {}) === 0 &&
      (seriesValue(recovered, 'collection_posting_recovery_last_success_timestamp_seconds', {}) ?? 0) > recoveredBefore;
    while (!settled() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = await scrape();
    }
    const status = await sql.query<{ status: string }>('SELECT status FROM collection_requests WHERE reference_id = $1', [referenceId]);

    expect(seriesValue(before, 'collections_processing_stale', { service: 'collections' })).toBe(0);
    expect(seriesValue(before, 'collection_posting_recovery_last_success_timestamp_seconds', { service: 'collections' })).toBeGreaterThanOrEqual(0);
    expect(seriesValue(stale, 'collections_processing_stale', {})).toBe(1);
    expect(seriesValue(recovered, 'collections_processing_stale', {})).toBe(0);
    expect(seriesValue(recovered, 'collection_posting_recovery_last_success_timestamp_seconds', {})).toBeGreaterThan(recoveredBefore);
    expect(seriesValue(recovered, 'collection_posting_recovery_last_success_timestamp_seconds', {})).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(status.rows).toEqual([{ status: 'completed' }]);
  });
});
