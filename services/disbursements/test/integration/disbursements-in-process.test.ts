import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Pool } from 'pg';
import { startStack, type Stack } from '../../../../test/support/stack';
import { busExchangeOf } from '../../../../test/support/disbursement-helpers';
import { onboardPartner } from '../../../../test/support/partners';
import { createWalletUser, fundPartner, type WalletUser } from '../../../../test/support/wallet-users';
import { readDisbursementsConfig } from '../../src/config';
import { startDisbursementsService, type DisbursementsService } from '../../src/service';
import { insertProcessing } from '../../src/store/disbursement-store';
import { newReferenceId } from '../../src/domain/reference-id';

/**
 * The disbursements service booted in-process (so the tests can reach its settlement sweep and its
 * store) against a real stack's quotes and wallet, Postgres and RabbitMQ. Requests go straight to
 * the service with x-partner-id, as the gateway sends them.
 */
describe('disbursements service in-process', () => {
  let stack: Stack;
  let sql: Pool;
  const services: DisbursementsService[] = [];
  // A partner auth knows: fund-partner checks the id with auth before it posts anything.
  let partnerId = '';

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    sql = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
    // a connection still closing is then terminated, which is expected, not an error of the test.
    sql.on('error', () => undefined);
    partnerId = (await onboardPartner(stack)).partnerId;
    await fundPartner(stack, partnerId, 'USD', '1000.00');
  });

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      for (const service of services) await service.stop();
      await sql?.end();
      await stack?.stop();
    }
  });

  async function startService(env: Record<string, string> = {}): Promise<{ service: DisbursementsService; url: string }> {
    const config = readDisbursementsConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: stack.databaseUrl,
      BUS_EXCHANGE: busExchangeOf(stack),
      QUOTES_URL: stack.internalUrls.quotes,
      WALLET_URL: stack.internalUrls.wallet,
      SETTLEMENT_SWEEP_INTERVAL_MS: '3600000',
      ...env,
    });
    const service = await startDisbursementsService(config);
    services.push(service);
    return { service, url: `http://127.0.0.1:${service.port}` };
  }

  async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-partner-id': partnerId }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  }

  async function quote(user: WalletUser, amount: number): Promise<{ quoteId: string; fee: number }> {
    const answer = await post(`${stack.internalUrls.quotes}/partner/v1/disbursement/quote`, { phone: user.localPhone, amount, currency: 'USD' });
    if (answer.status !== 200) throw new Error(`quote failed: ${JSON.stringify(answer.body)}`);
    return answer.body.data as { quoteId: string; fee: number };
  }

  /** A port nothing listens on (fetch refuses some low ports outright, so it must be a real closed one). */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  async function rowOf(externalId: string): Promise<Record<string, unknown>[]> {
    const result = await sql.query('SELECT status, failure_code, transaction_id FROM disbursements.disbursements WHERE partner_id = $1 AND external_id = $2 ORDER BY created_at', [partnerId, externalId]);
    return result.rows as Record<string, unknown>[];
  }

  test('when the wallet refuses connections, then 503 PKC_7003, the attempt is failed, the quote is used, and the externalId stays free', async () => {
    const unreachable = await startService({ WALLET_URL: `http://127.0.0.1:${await closedPort()}`, BREAKER_VOLUME_THRESHOLD: '2' });
    const healthy = await startService();
    const user = await createWalletUser(stack);
    const externalId = `down-${randomUUID()}`;
    const first = await quote(user, 5);

    const answers = [await post(`${unreachable.url}/partner/v1/disbursement/transfer`, { quoteId: first.quoteId, externalId })];
    // More attempts open the breaker; the answer stays the same.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      answers.push(await post(`${unreachable.url}/partner/v1/disbursement/transfer`, { quoteId: (await quote(user, 5)).quoteId, externalId }));
    }

    // Each attempt left a failed record, and the answer names it (fields beside the envelope's three).
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 503,
        body: { success: false, code: 'PKC_7003', message: expect.any(String), referenceId: expect.stringMatching(/^PKD-\d+-[0-9A-F]+$/), status: 'failed' },
      });
    }
    expect(await rowOf(externalId)).toEqual(Array.from({ length: 4 }, () => ({ status: 'failed', failure_code: 'PKC_7003', transaction_id: null })));
    const reused = await post(`${healthy.url}/partner/v1/disbursement/transfer`, { quoteId: first.quoteId, externalId });
    expect(reused.body.code).toBe('PKC_5002');
    const fresh = await post(`${healthy.url}/partner/v1/disbursement/transfer`, { quoteId: (await quote(user, 5)).quoteId, externalId });
    expect(fresh.status).toBe(200);
  });

  test('when a disbursement was left processing after its wallet posting, then the sweep completes it and writes disbursement.completed', async () => {
    const { service } = await startService();
    const user = await createWalletUser(stack);
    const disbursementId = randomUUID();
    const externalId = `crash-${randomUUID()}`;
    await insertProcessing(service.pool, {
      disbursementId, referenceId: newReferenceId(), partnerId, externalId, quoteId: randomUUID(), phone: user.phone,
      recipientName: user.name, currency: 'USD', amountMinor: 300n, feeMinor: 25n, note: null,
    });
    const posted = await post(`${stack.internalUrls.wallet}/internal/transfers`, {
      transferId: disbursementId, type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '300', feeMinor: '25', reference: 'before the crash',
    });
    expect(posted.status).toBe(200);
    await sql.query("UPDATE disbursements.disbursements SET created_at = now() - interval '1 hour' WHERE disbursement_id = $1", [disbursementId]);

    expect(await service.sweep.sweepNow()).toBe(1);

    expect(await rowOf(externalId)).toEqual([{ status: 'completed', failure_code: null, transaction_id: posted.body.transactionId }]);
    const events = await sql.query("SELECT routing_key, payload->'data'->>'transactionId' AS txn FROM disbursements.outbox WHERE payload->'data'->>'externalId' = $1", [externalId]);
    expect(events.rows).toEqual([{ routing_key: 'disbursement.completed', txn: posted.body.transactionId }]);
  });

  test('when a disbursement was left processing and never posted, then the sweep cancels it: timed_out, and a late posting is refused', async () => {
    const { service } = await startService();
    const user = await createWalletUser(stack);
    const disbursementId = randomUUID();
    const externalId = `lost-${randomUUID()}`;
    await insertProcessing(service.pool, {
      disbursementId, referenceId: newReferenceId(), partnerId, externalId, quoteId: randomUUID(), phone: user.phone,
      recipientName: user.name, currency: 'USD', amountMinor: 300n, feeMinor: 25n, note: null,
    });
    await sql.query("UPDATE disbursements.disbursements SET created_at = now() - interval '1 hour' WHERE disbursement_id = $1", [disbursementId]);

    expect(await service.sweep.sweepNow()).toBe(1);

    expect(await rowOf(externalId)).toEqual([{ status: 'timed_out', failure_code: 'PKC_7004', transaction_id: null }]);
    const late = await post(`${stack.internalUrls.wallet}/internal/transfers`, {
      transferId: disbursementId, type: 'disbursement', partnerId, phone: user.phone, currency: 'USD', amountMinor: '300', feeMinor: '25', reference: 'late',
    });
    expect(late).toMatchObject({ status: 409, body: { code: 'PKC_7004' } });
    const events = await sql.query("SELECT routing_key, payload->'data'->>'failureCode' AS code FROM disbursements.outbox WHERE payload->'data'->>'externalId' = $1", [externalId]);
    expect(events.rows).toEqual([{ routing_key: 'disbursement.failed', code: 'PKC_7004' }]);
  });

  test('when the request does not come through the gateway, then 403 PKC_6005', async () => {
    const { url } = await startService();
    const response = await fetch(`${url}/partner/v1/disbursement/transfer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'PKC_6005' });
  });
});
