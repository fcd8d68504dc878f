import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener } from 'node:http';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPartnerApiError, PartnerApiClient, PartnerApiError, type FetchFunction, type PartnerApiClientOptions, type WebhookEvent } from '@partner-wallet/sdk';
import { collect } from '../../examples/collection-with-polling';
import { payOut } from '../../examples/disbursement';
import { webhookRequestListener } from '../../examples/webhook-receiver';
import { centsOfApiAmount, moneySnapshot, type MoneySnapshot } from '../../../test/support/disbursement-helpers';
import { onboardPartner, pollUntil, type OnboardedPartner } from '../../../test/support/partners';
import { startStack, type Stack } from '../../../test/support/stack';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../../../test/support/wallet-users';

/**
 * The SDK against the real stack over HTTPS (the gateway and every service, built): the examples
 * of sdk/examples run as a partner would run them, refusals become PartnerApiError with their
 * fields, tokens issued for 5 seconds expire during the run, and a partner limited to 3 requests a
 * window meets a real 429 with Retry-After. The gateway's window is shortened from a minute to
 * rateLimitWindowSeconds (its sandbox test hook, RATE_LIMIT_WINDOW_SECONDS), so the SDK waits that
 * long rather than a minute; it stays above the 5 s the PKC_7001 test's client will wait. Every request the SDK sends goes through a recording
 * fetch (undici's, trusting the stack's certificate), so the tests count what was sent; except in one
 * test, whose clients use the SDK's own transport and trust the certificate by the `ca` option or not at all.
 */
const tokenTtlSeconds = 5;
const rateLimitWindowSeconds = 15;

interface Exchange {
  method: string;
  path: string;
  status: number;
}

interface LimitedTransferOutcome {
  transfer: Awaited<ReturnType<PartnerApiClient['transferDisbursement']>>;
  exchanges: Exchange[];
  before: MoneySnapshot;
  after: MoneySnapshot;
}

describe('the SDK against the stack', () => {
  let stack: Stack;
  let agent: Agent;
  let partner: OnboardedPartner;
  let user: WalletUser;
  let runStartedAt: string;
  let limitedTransfer: Promise<LimitedTransferOutcome>;

  beforeAll(async () => {
    stack = await startStack({
      logLevel: 'warn',
      tokenTtlSeconds,
      gatewayEnv: { RATE_LIMIT_WINDOW_SECONDS: String(rateLimitWindowSeconds) },
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000' },
      },
    });
    agent = new Agent({ connect: { ca: stack.certificatePem } });
    // The 429 scenario waits out a Retry-After of about the gateway's window: it starts here and
    // waits while the other tests run; its own test checks the outcome.
    limitedTransfer = transferPastTheRateLimit();
    limitedTransfer.catch(() => undefined);
    runStartedAt = new Date(Date.now() - 1_000).toISOString();
    // The partner (then its funding) and the user (then its credit) are made side by side: each operator call is a process.
    [partner, user] = await Promise.all([
      onboardPartner(stack, { rateLimitPerMinute: 100_000 }).then(async (onboarded) => {
        await fundPartner(stack, onboarded.partnerId, 'USD', '50000.00');
        return onboarded;
      }),
      createWalletUser(stack, { tier: 'Gold' }).then(async (created) => {
        await creditWallet(stack, created, 'USD', '5000.00');
        return created;
      }),
    ]);
  });

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      await agent?.close();
      await stack?.stop();
    }
  });

  /** A client of the stack whose requests are recorded in `exchanges`. */
  function clientFor(credentials: { clientId: string; clientSecret: string }, options: Partial<PartnerApiClientOptions> = {}): { client: PartnerApiClient; exchanges: Exchange[] } {
    const exchanges: Exchange[] = [];
    const recordingFetch: FetchFunction = async (url, init) => {
      const answer = await undiciFetch(url, { ...init, dispatcher: agent });
      exchanges.push({ method: init.method, path: new URL(url).pathname.replace(/^\/api\/v1/, ''), status: answer.status });
      return answer;
    };
    return { client: new PartnerApiClient({ baseUrl: stack.baseUrl, clientId: credentials.clientId, clientSecret: credentials.clientSecret, fetch: recordingFetch, ...options }), exchanges };
  }

  /** A partner limited to 3 requests a window uses them (a quote, two balances), then transfers: the gateway answers 429 and the SDK waits. */
  async function transferPastTheRateLimit(): Promise<LimitedTransferOutcome> {
    const limited = await onboardPartner(stack, { rateLimitPerMinute: 3 });
    const payee = await createWalletUser(stack, { tier: 'Gold' });
    await fundPartner(stack, limited.partnerId, 'USD', '1000.00');
    const { client, exchanges } = clientFor(limited, { retry: { retryAfterMaxMs: 90_000 } });
    const before = await moneySnapshot(stack, limited.partnerId, payee);
    const quote = await client.quoteDisbursement({ phone: payee.localPhone, amount: 7, currency: 'USD' });
    await client.getBalance();
    await client.getBalance();
    const transfer = await client.transferDisbursement({ quoteId: quote.quoteId, externalId: `payout-${randomUUID()}` });
    return { transfer, exchanges, before, after: await moneySnapshot(stack, limited.partnerId, payee) };
  }

  const statusesOf = (exchanges: Exchange[], path: string): number[] => exchanges.filter((exchange) => exchange.path === path).map((exchange) => exchange.status);

  test('when the disbursement example pays a user, then the transfer completes once, the money moves to the cent and the status and the list agree', async () => {
    const { client, exchanges } = clientFor(partner);
    const before = await moneySnapshot(stack, partner.partnerId, user);
    const externalId = `payout-${randomUUID()}`;

    const result = await payOut(client, { phone: user.localPhone, amount: 42.5, currency: 'USD', externalId, note: 'SDK e2e' });

    if (result.outcome !== 'completed') throw new Error(`expected a completed payout, got ${JSON.stringify(result)}`);
    const after = await moneySnapshot(stack, partner.partnerId, user);
    expect(after.userCents - before.userCents).toBe(4250n);
    expect(before.partnerCents - after.partnerCents).toBe(centsOfApiAmount(result.totalDebit));
    expect(statusesOf(exchanges, '/partner/v1/disbursement/transfer')).toEqual([200]);

    const shown = await client.getDisbursement(result.referenceId);
    expect(shown).toMatchObject({ referenceId: result.referenceId, externalId, status: 'completed', amount: 42.5, currency: 'USD', netAmount: 42.5 });
    const listed = await client.listDisbursements({ externalId });
    expect(listed.items.map((item) => item.referenceId)).toEqual([result.referenceId]);
  });

  test('when a client is given the stack’s self-signed certificate as ca and no fetch of its own, then the disbursement example pays over the verified connection; without ca the first call fails once with SDK_NETWORK and the message names ca and NODE_EXTRA_CA_CERTS', async () => {
    const credentials = { baseUrl: stack.baseUrl, clientId: partner.clientId, clientSecret: partner.clientSecret };
    const trusting = new PartnerApiClient({ ...credentials, ca: stack.certificatePem });
    const untrusting = new PartnerApiClient({ ...credentials, retry: { baseDelayMs: 1 } });

    const result = await payOut(trusting, { phone: user.localPhone, amount: 2.5, currency: 'USD', externalId: `payout-${randomUUID()}` });
    const refused = await untrusting.getBalance().catch((caught: unknown) => caught);

    expect(result).toMatchObject({ outcome: 'completed' });
    expect(refused).toMatchObject({ code: 'SDK_NETWORK', status: 0, attempts: 1, outcomeUnknown: false, operationId: 'getAccessToken' });
    expect((refused as PartnerApiError).message).toMatch(/\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/);
    expect((refused as PartnerApiError).message).toContain("pass ca: readFileSync('.local/tls/cert.pem') to new PartnerApiClient");
    expect((refused as PartnerApiError).message).toContain('NODE_EXTRA_CA_CERTS=.local/tls/cert.pem');
  });

  test('when a bulk of three payouts is quoted, transferred and watched through the SDK, then the progress iterator ends completed, the items iterator yields the three paid to the cent, and the same transfer sent again answers the same bulk', async () => {
    const { client } = clientFor(partner);
    // A payee of its own, so the other tests' payouts to the shared user do not count against its hourly limit.
    const payee = await createWalletUser(stack, { tier: 'Gold' });
    const before = await moneySnapshot(stack, partner.partnerId, payee);
    const items = [10, 20.5, 1.99].map((amount, index) => ({ phone: payee.localPhone, amount, externalId: `bulk-item-${index}-${randomUUID()}` }));
    const quote = await client.quoteBulkDisbursement({ currency: 'USD', items });
    expect([quote.validCount, quote.invalidCount]).toEqual([3, 0]);
    const body = { bulkQuoteId: quote.bulkQuoteId, externalId: `bulk-${randomUUID()}` };

    const accepted = await client.transferBulkDisbursement(body);
    const seen: string[] = [];
    for await (const progress of client.watchBulkDisbursement(accepted.bulkId, { intervalMs: 100 })) seen.push(progress.status);
    const paid = [];
    for await (const item of client.iterateBulkItems(accepted.bulkId, { limit: 2 })) paid.push(item);

    expect(seen[seen.length - 1]).toBe('completed');
    expect(paid.map((item) => [item.index, item.status, item.externalId])).toEqual(items.map((item, index) => [index, 'completed', item.externalId]));
    const after = await moneySnapshot(stack, partner.partnerId, payee);
    expect(after.userCents - before.userCents).toBe(1000n + 2050n + 199n);
    expect(before.partnerCents - after.partnerCents).toBe(centsOfApiAmount(quote.totalDebit));
    expect((await client.transferBulkDisbursement(body)).bulkId).toBe(accepted.bulkId);
  });

  test('when three disbursements exist and the iterator reads one per page, then it yields all of them, newest first, across pages', async () => {
    const { client, exchanges } = clientFor(partner);
    const referenceIds: string[] = [];
    for (const amount of [1, 2, 3]) {
      const result = await payOut(client, { phone: user.localPhone, amount, currency: 'USD', externalId: `payout-${randomUUID()}` });
      if (result.outcome !== 'completed') throw new Error(`payout ${amount} did not complete: ${JSON.stringify(result)}`);
      referenceIds.push(result.referenceId);
    }
    const since = (await client.getDisbursement(referenceIds[0] ?? '')).createdAt;

    const iterated: string[] = [];
    for await (const disbursement of client.iterateDisbursements({ createdFrom: since, limit: 1 })) iterated.push(disbursement.referenceId);

    expect(iterated).toEqual([...referenceIds].reverse());
    expect(statusesOf(exchanges, '/partner/v1/disbursements')).toEqual([200, 200, 200]);
  });

  test('when a transfer repeats an externalId, then PartnerApiError carries 409 PKC_6001 with the holder’s referenceId and status and the request id, and the transfer is sent once', async () => {
    const { client, exchanges } = clientFor(partner);
    const externalId = `payout-${randomUUID()}`;
    const first = await payOut(client, { phone: user.localPhone, amount: 5, currency: 'USD', externalId });
    if (first.outcome !== 'completed') throw new Error('the first payout did not complete');
    const quote = await client.quoteDisbursement({ phone: user.localPhone, amount: 5, currency: 'USD' });
    exchanges.length = 0;

    const error = await client.transferDisbursement({ quoteId: quote.quoteId, externalId }).then(
      () => undefined,
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(PartnerApiError);
    if (!isPartnerApiError(error)) throw new Error('expected a PartnerApiError');
    expect(error).toMatchObject({ code: 'PKC_6001', status: 409, operationId: 'transferDisbursement', referenceId: first.referenceId, fields: { referenceId: first.referenceId, status: 'completed' }, attempts: 1, outcomeUnknown: false });
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.requestId).toMatch(/\S+/);
    expect(statusesOf(exchanges, '/partner/v1/disbursement/transfer')).toEqual([409]);
  });

  test('when the collection example asks and the sandbox approves, then polling sees it completed and the iterator lists it', async () => {
    const { client } = clientFor(partner);
    const externalId = `order-${randomUUID()}`;

    const collection = await collect(client, { phone: user.phone, amount: 12.25, currency: 'USD', externalId }, { approveInSandbox: true, pollIntervalMs: 200, waitMaxMs: 20_000 });

    expect(collection).toMatchObject({ externalId, status: 'completed', amount: 12.25, currency: 'USD' });
    const listed: string[] = [];
    for await (const item of client.iterateCollections({ externalId })) listed.push(item.referenceId);
    expect(listed).toEqual([collection.referenceId]);
  });

  test('when a completed collection is refunded in part and a pending one cancelled through the SDK, then the refund completes and reads back, the refunds iterator lists it, a repeated externalId is PartnerApiError 409 PKC_6001, and the cancelled collection reads cancelled', async () => {
    const { client, exchanges } = clientFor(partner);
    const collection = await collect(client, { phone: user.phone, amount: 8, currency: 'USD', externalId: `order-${randomUUID()}` }, { approveInSandbox: true, pollIntervalMs: 200, waitMaxMs: 20_000 });
    const externalId = `refund-${randomUUID()}`;

    const refund = await client.refundCollection(collection.referenceId, { externalId, amount: 3, reason: 'One item returned' });

    expect(refund).toMatchObject({ status: 'completed', amount: 3, fee: 0, collectionReferenceId: collection.referenceId, collectionRefundedAmount: 3, reason: 'One item returned' });
    expect(await client.getRefund(refund.referenceId)).toEqual(refund);
    const listed: string[] = [];
    for await (const item of client.iterateRefunds({ collectionReferenceId: collection.referenceId })) listed.push(item.referenceId);
    expect(listed).toEqual([refund.referenceId]);
    const again = await client.refundCollection(collection.referenceId, { externalId, amount: 3 }).catch((caught: unknown) => caught);
    expect(again).toMatchObject({ name: 'PartnerApiError', code: 'PKC_6001', status: 409, operationId: 'refundCollection' });
    // A refusal is not retried: the refund path was called twice in all.
    expect(statusesOf(exchanges, `/partner/v1/collection/${collection.referenceId}/refund`)).toEqual([200, 409]);

    const quote = await client.quoteCollection({ phone: user.phone, amount: 2, currency: 'USD' });
    const pending = await client.requestCollection({ quoteId: quote.quoteId, externalId: `order-${randomUUID()}` });
    expect(await client.cancelCollection(pending.referenceId)).toMatchObject({ referenceId: pending.referenceId, status: 'cancelled' });
    expect(await client.getCollection(collection.referenceId)).toMatchObject({ status: 'completed', refundedAmount: 3 });
  });

  test('when the statement of the run is iterated two movements a page, then it has the funding, the payouts and their fees, and closes at the balance', async () => {
    const { client, exchanges } = clientFor(partner);
    const query = { currency: 'USD' as const, from: runStartedAt, to: new Date(Date.now() + 60_000).toISOString() };

    const movements = [];
    for await (const movement of client.iterateStatement({ ...query, limit: 2 })) movements.push(movement);
    const firstPage = await client.getStatement({ ...query, limit: 100 });
    const balance = await client.getBalance();
    const csv = await client.getStatementCsv({ ...query, limit: 100 });

    expect(movements.map((movement) => movement.type)).toEqual(expect.arrayContaining(['funding', 'disbursement', 'disbursement_fee', 'collection']));
    expect(statusesOf(exchanges, '/partner/v1/statement').length).toBeGreaterThanOrEqual(Math.ceil(movements.length / 2));
    expect(firstPage.items).toEqual(movements);
    expect(firstPage.closingBalance).toBe(balance.USD);
    expect(movements[movements.length - 1]?.balanceAfter).toBe(balance.USD);
    expect(csv.split('\n').length).toBeGreaterThan(movements.length);
    expect(csv).toContain(movements[1]?.referenceId ?? 'no movement');
  });

  test('when a collection is refused for the user’s balance, then PartnerApiError carries its PKC code, status and operation', async () => {
    const { client } = clientFor(partner);
    const poor = await createWalletUser(stack, { currencies: ['USD'] });

    const error = await client.quoteCollection({ phone: poor.phone, amount: 50, currency: 'USD' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ name: 'PartnerApiError', code: 'PKC_4001', status: 400, operationId: 'quoteCollection' });
  });

  test('when the webhook receiver example gets the stack’s signed webhook of an approved collection, then verifyWebhook accepts it, the deliveries iterator lists it delivered and the event log has it under the webhook-id', async () => {
    const events: WebhookEvent[] = [];
    const webhookIds: string[] = [];
    // The partner's URL must exist before onboarding, which reveals the secret the handler needs.
    let listener: RequestListener | undefined;
    const server = createServer((req, res) => (listener ? listener(req, res) : res.writeHead(503).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const onboarded = await stack.operator(['onboard', '--name', `SDK webhook partner ${randomUUID().slice(0, 8)}`, '--permissions', 'collection', '--rate-limit', '100000', '--webhook-url', url]);
      listener = webhookRequestListener({
        secret: String(onboarded.webhookSecret),
        onEvent: (event, webhookId) => {
          events.push(event);
          webhookIds.push(webhookId);
        },
      });
      const { client } = clientFor({ clientId: String(onboarded.clientId), clientSecret: String(onboarded.clientSecret) });

      const collection = await collect(client, { phone: user.phone, amount: 3, currency: 'USD', externalId: `order-${randomUUID()}` }, { approveInSandbox: true, pollIntervalMs: 200, waitMaxMs: 20_000 });
      const received = await pollUntil(() => Promise.resolve(events.slice()), (seen) => seen.length > 0, 20_000);

      expect(received).toEqual([expect.objectContaining({ event: 'collection.completed', referenceId: collection.referenceId, status: 'completed', amount: 3 })]);
      const deliveries = await pollUntil(
        async () => {
          const all = [];
          for await (const delivery of client.iterateWebhookDeliveries({ referenceId: collection.referenceId })) all.push(delivery);
          return all;
        },
        (all) => all.some((delivery) => delivery.status === 'delivered'),
        10_000,
      );
      expect(deliveries).toEqual([expect.objectContaining({ referenceId: collection.referenceId, event: 'collection.completed', status: 'delivered' })]);

      const logged = [];
      for await (const event of client.iterateEvents({ limit: 1 })) logged.push(event);
      expect(logged).toEqual([expect.objectContaining({ type: 'collection.completed', deliveryStatus: 'delivered', payload: expect.objectContaining({ referenceId: collection.referenceId }) })]);
      expect(logged[0]?.eventId).toBe(webhookIds[0]);
      expect(await client.getEvent(logged[0]?.eventId ?? '')).toEqual(logged[0]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('when the server’s budget runs out (504 PKC_7004), then transferDisbursement does not resend the spent quote, disburse re-quotes with the same externalId, and the money moves once', async () => {
    // A wallet whose postings stall 3 s before claiming the transfer id, behind a disbursements
    // process with a 1 s budget and a gateway of its own: every transfer through it ends in PKC_7004.
    const lateWallet = await stack.startExtraService('wallet', { WALLET_POST_DELAY_MS: '3000', WALLET_POST_DELAY_POINT: 'before_claim' });
    const lateDisbursements = await stack.startExtraService('disbursements', { WALLET_URL: lateWallet.url, DISBURSEMENT_BUDGET_MS: '1000' });
    const lateGateway = await stack.startExtraGateway({ DISBURSEMENTS_URL: lateDisbursements.url });
    try {
      const late = clientFor(partner, { baseUrl: lateGateway.baseUrl });
      const before = await moneySnapshot(stack, partner.partnerId, user);
      const externalId = `payout-${randomUUID()}`;
      const quote = await late.client.quoteDisbursement({ phone: user.localPhone, amount: 9, currency: 'USD' });

      const timedOut = await late.client.transferDisbursement({ quoteId: quote.quoteId, externalId }).catch((caught: unknown) => caught);
      const sameQuoteAgain = await late.client.transferDisbursement({ quoteId: quote.quoteId, externalId }).catch((caught: unknown) => caught);
      const disburseThroughLate = await late.client.disburse({ phone: user.localPhone, amount: 9, currency: 'USD', externalId }, { budgetAttemptsMax: 2 }).catch((caught: unknown) => caught);

      expect(timedOut).toMatchObject({ code: 'PKC_7004', status: 504, outcomeUnknown: false, attempts: 1 });
      expect(sameQuoteAgain).toMatchObject({ code: 'PKC_5002', status: 400 });
      expect(disburseThroughLate).toMatchObject({ code: 'PKC_7004' });
      expect(statusesOf(late.exchanges, '/partner/v1/disbursement/transfer')).toEqual([504, 400, 504, 504]);
      expect(statusesOf(late.exchanges, '/partner/v1/disbursement/quote')).toEqual([200, 200, 200]);

      const { client } = clientFor(partner);
      const transfer = await client.disburse({ phone: user.localPhone, amount: 9, currency: 'USD', externalId });
      // The stalled postings resume 3 s after they began and must find their transfer ids cancelled.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      const after = await moneySnapshot(stack, partner.partnerId, user);
      expect(transfer).toMatchObject({ status: 'completed', amount: 9 });
      expect(after.userCents - before.userCents).toBe(900n);
      expect(before.partnerCents - after.partnerCents).toBe(centsOfApiAmount(transfer.totalDebit));
    } finally {
      await lateGateway.stop();
      await lateDisbursements.stop();
      await lateWallet.stop();
    }
  });

  test('when tokens live 5 seconds and calls go on for longer, then the client renews before expiry and no call is refused', async () => {
    const { client, exchanges } = clientFor(partner);
    const balances = [];
    const runUntil = Date.now() + (tokenTtlSeconds * 2 + 1) * 1000;
    while (Date.now() < runUntil) {
      balances.push(await client.getBalance());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    expect(balances.length).toBeGreaterThan(10);
    expect(statusesOf(exchanges, '/partner/auth/token').length).toBeGreaterThanOrEqual(3);
    expect(exchanges.filter((exchange) => exchange.status !== 200)).toEqual([]);
  });

  test('when the client’s clock runs slow and its token expires under it, then the gateway’s 401 PKC_1003 makes it renew once and the call succeeds', async () => {
    const startedAt = Date.now();
    const slowClock = { now: () => startedAt + (Date.now() - startedAt) / 100 };
    const { client, exchanges } = clientFor(partner, { clock: slowClock });
    await client.getBalance();
    await new Promise((resolve) => setTimeout(resolve, (tokenTtlSeconds + 1) * 1000));

    const balance = await client.getBalance();

    expect(balance).toEqual(expect.objectContaining({ USD: expect.any(Number) }));
    expect(statusesOf(exchanges, '/partner/v1/balance')).toEqual([200, 401, 200]);
    expect(statusesOf(exchanges, '/partner/auth/token')).toEqual([200, 200]);
  });

  test('when a partner limited to 3 requests a window transfers after using them, then the SDK waits out the 429’s Retry-After and the transfer happens once', async () => {
    const { transfer, exchanges, before, after } = await limitedTransfer;

    expect(transfer).toMatchObject({ status: 'completed', amount: 7 });
    expect(statusesOf(exchanges, '/partner/v1/disbursement/transfer')).toEqual([429, 200]);
    expect(before.partnerCents - after.partnerCents).toBe(centsOfApiAmount(transfer.totalDebit));
    expect(after.userCents - before.userCents).toBe(700n);
  }, 150_000);

  test('when a refused request’s Retry-After is longer than the client will wait, then the call fails at once with PKC_7001 and retryAfter', async () => {
    const limited = await onboardPartner(stack, { rateLimitPerMinute: 1 });
    const { client, exchanges } = clientFor(limited, { retry: { retryAfterMaxMs: 5_000 } });
    await client.getBalance();

    const error = await client.getBalance().catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'PKC_7001', status: 429, attempts: 1 });
    expect((error as PartnerApiError).retryAfter).toBeGreaterThan(5);
    expect(statusesOf(exchanges, '/partner/v1/balance')).toEqual([200, 429]);
  });
});
