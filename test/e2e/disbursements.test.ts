import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { databaseFingerprint } from '../support/database-fingerprint';
import {
  busExchangeOf,
  centsOfApiAmount,
  disbursementQuote,
  listenOnBus,
  moneySnapshot,
  storedDisbursement,
  transfer,
  type BusListener,
} from '../support/disbursement-helpers';
import type { HttpsJsonClient, JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner, type OnboardedPartner } from '../support/partners';
import { startStack, type GatewayProcess, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, postWalletTransfer, type WalletUser } from '../support/wallet-users';

/**
 * POST /partner/v1/disbursement/transfer and GET /partner/v1/disbursement/{referenceId} through the
 * gateway over HTTPS, against the real quotes, wallet and disbursements processes. Money is checked
 * to the cent through the wallet's operator CLI; refusals prove with database fingerprints that they
 * moved nothing; the ledger must hold its invariants at the end.
 */
const referenceIdPattern = /^PKD-\d+-[0-9A-F]+$/;
const transactionIdPattern = /^TXN-[0-9A-F]+$/;

describe('disbursements through the gateway', () => {
  let stack: Stack;
  let database: Pool;
  let partner: OnboardedPartner;
  let token: string;
  let bus: BusListener;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    database = new Pool({ connectionString: stack.databaseUrl, max: 2 });
    // pool.end() does not wait for its connections to close, and the database is dropped (WITH FORCE) right after:
    // a connection still closing is then terminated, which is expected, not an error of the test.
    database.on('error', () => undefined);
    bus = await listenOnBus(busExchangeOf(stack), 'disbursement.#');
    partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    await fundPartner(stack, partner.partnerId, 'USD', '50000.00');
    token = await accessTokenFor(stack.client, partner);
  });

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      await bus?.close();
      await database?.end();
      await stack?.stop();
    }
  });

  const quoteFor = (user: WalletUser, amount: number, bearer = token, client: HttpsJsonClient = stack.client) => disbursementQuote(client, bearer, user, amount);
  const send = (body: unknown, bearer = token, client: HttpsJsonClient = stack.client): Promise<JsonResponse> => transfer(client, bearer, body);
  const walletFingerprint = () => databaseFingerprint(stack.databaseUrl, ['wallet']);
  const everythingFingerprint = () => databaseFingerprint(stack.databaseUrl, ['wallet', 'quotes', 'disbursements']);

  /** The error envelope, with exactly the given extra fields (a refusal that left a record names it: referenceId, status). */
  function expectError(response: JsonResponse, status: number, code: string, fields: Record<string, unknown> = {}): void {
    expect({ status: response.status, body: response.body }).toEqual({ status, body: { ...fields, success: false, code, message: expect.any(String) } });
  }
  const namesFailedDisbursement = { referenceId: expect.stringMatching(referenceIdPattern), status: 'failed' };

  describe('success', () => {
    test('when a quoted transfer is sent, then the partner pays amount + fee, the user gets the amount, revenue the fee, and the status call agrees', async () => {
      const user = await createWalletUser(stack, { name: 'Korto Sirleaf' });
      // A quote moves no money: the balances before the transfer are read beside it.
      const [quote, before] = await Promise.all([quoteFor(user, 75.5), moneySnapshot(stack, partner.partnerId, user)]);
      const externalId = `order-${randomUUID()}`;

      const response = await send({ quoteId: quote.quoteId, externalId, note: 'Salary advance' });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          referenceId: expect.stringMatching(referenceIdPattern),
          status: 'completed',
          transactionId: expect.stringMatching(transactionIdPattern),
          amount: 75.5,
          currency: 'USD',
          fee: quote.fee,
          totalDebit: quote.totalDebit,
        },
      });
      const after = await moneySnapshot(stack, partner.partnerId, user);
      expect(after.partnerCents - before.partnerCents).toBe(-centsOfApiAmount(quote.totalDebit));
      expect(after.userCents - before.userCents).toBe(7550n);
      expect(after.feeRevenueCents - before.feeRevenueCents).toBe(centsOfApiAmount(quote.fee));
      expect(centsOfApiAmount(quote.totalDebit)).toBe(7550n + centsOfApiAmount(quote.fee));

      const { referenceId, transactionId } = response.body.data as { referenceId: string; transactionId: string };
      const status = await stack.client.get(`/partner/v1/disbursement/${referenceId}`, { bearer: token });
      expect({ status: status.status, body: status.body }).toEqual({
        status: 200,
        body: {
          success: true,
          data: {
            referenceId,
            externalId,
            status: 'completed',
            transactionId,
            amount: 75.5,
            currency: 'USD',
            fee: quote.fee,
            totalDebit: quote.totalDebit,
            netAmount: 75.5,
            createdAt: expect.stringMatching(/Z$/),
            completedAt: expect.stringMatching(/Z$/),
            note: 'Salary advance',
          },
        },
      });
    });

    test('when a transfer completes, then a disbursement.completed envelope with the webhook fields arrives on the bus', async () => {
      const user = await createWalletUser(stack);
      const quote = await quoteFor(user, 12.34);
      const externalId = `evt-${randomUUID()}`;

      const response = await send({ quoteId: quote.quoteId, externalId });

      expect(response.status).toBe(200);
      const { referenceId, transactionId } = response.body.data as { referenceId: string; transactionId: string };
      const message = await bus.waitFor((body: { data?: { referenceId?: string } }) => body.data?.referenceId === referenceId, 10_000);
      expect(message.routingKey).toBe('disbursement.completed');
      expect(message.body).toEqual({
        eventId: expect.any(String),
        type: 'disbursement.completed',
        version: 1,
        occurredAt: expect.stringMatching(/Z$/),
        producer: 'disbursements',
        // The partner request's correlation travels with the event (ARCHITECTURE.md, "Traces and log correlation").
        requestId: expect.any(String),
        traceparent: expect.stringMatching(/^00-[\da-f]{32}-[\da-f]{16}-0[01]$/),
        data: {
          eventId: message.body.eventId,
          partnerId: partner.partnerId,
          event: 'disbursement.completed',
          referenceId,
          externalId,
          amount: 12.34,
          currency: 'USD',
          fee: quote.fee,
          totalDebit: quote.totalDebit,
          status: 'completed',
          transactionId,
          timestamp: expect.stringMatching(/Z$/),
        },
      });
    });
  });

  describe('refusals of the transfer call', () => {
    // Each validation refusal names its field (decision 0075).
    const names = (field: string, problem: string) => ({ invalidFields: [{ field, problem, expected: expect.any(String) }] });
    test.each([
      ['PKC_2008 when externalId is missing', () => ({ quoteId: randomUUID() }), 'PKC_2008', names('externalId', 'missing')],
      ['PKC_2008 when quoteId is missing (even with an over-long externalId)', () => ({ externalId: 'x'.repeat(101) }), 'PKC_2008', names('quoteId', 'missing')],
      ['PKC_2009 when quoteId is not a UUID (checked before the externalId length)', () => ({ quoteId: 'nope', externalId: 'x'.repeat(101) }), 'PKC_2009', names('quoteId', 'wrong_format')],
      ['PKC_2006 when externalId has 101 characters (checked before the note)', () => ({ quoteId: randomUUID(), externalId: 'x'.repeat(101), note: 'n'.repeat(201) }), 'PKC_2006', names('externalId', 'too_long')],
      ['PKC_2007 when note has 201 characters', () => ({ quoteId: randomUUID(), externalId: 'ok', note: 'n'.repeat(201) }), 'PKC_2007', names('note', 'too_long')],
      ['PKC_5001 when the quote does not exist', () => ({ quoteId: randomUUID(), externalId: 'unknown-quote' }), 'PKC_5001', {}],
    ])('when the body gives %s, then nothing changes anywhere', async (_name, body, code, fields) => {
      const before = await everythingFingerprint();
      expectError(await send(body()), 400, code, fields);
      expect(await everythingFingerprint()).toEqual(before);
    });

    test('when the quote was already used, then PKC_5002 and nothing changes', async () => {
      const user = await createWalletUser(stack);
      const quote = await quoteFor(user, 5);
      expect((await send({ quoteId: quote.quoteId, externalId: `first-${randomUUID()}` })).status).toBe(200);
      const before = await everythingFingerprint();

      expectError(await send({ quoteId: quote.quoteId, externalId: `second-${randomUUID()}` }), 400, 'PKC_5002');
      expect(await everythingFingerprint()).toEqual(before);
    });

    test('when the quote is a collection quote, then PKC_5003 and nothing changes', async () => {
      const user = await createWalletUser(stack);
      await creditWallet(stack, user, 'USD', '100.00');
      const quote = await stack.client.post('/partner/v1/collection/quote', { phone: user.localPhone, amount: 10, currency: 'USD' }, { bearer: token });
      const before = await everythingFingerprint();

      expectError(await send({ quoteId: quote.body.data.quoteId as string, externalId: 'collection-quote' }), 400, 'PKC_5003');
      expect(await everythingFingerprint()).toEqual(before);
    });

    test("when the quote is another partner's, then 403 PKC_5004 and nothing changes", async () => {
      const other = await onboardPartner(stack);
      await fundPartner(stack, other.partnerId, 'USD', '100.00');
      const user = await createWalletUser(stack);
      const quote = await quoteFor(user, 10, await accessTokenFor(stack.client, other));
      const before = await everythingFingerprint();

      expectError(await send({ quoteId: quote.quoteId, externalId: 'not-mine' }), 403, 'PKC_5004');
      expect(await everythingFingerprint()).toEqual(before);
    });

    test('when the partner lacks the disbursement permission, then the gateway answers 403 PKC_1008', async () => {
      const collector = await onboardPartner(stack, { permissions: ['collection'] });
      const bearer = await accessTokenFor(stack.client, collector);
      const before = await everythingFingerprint();

      expectError(await send({ quoteId: randomUUID(), externalId: 'no-permission' }, bearer), 403, 'PKC_1008');
      expectError(await stack.client.get('/partner/v1/disbursement/PKD-1-AB', { bearer }), 403, 'PKC_1008');
      expect(await everythingFingerprint()).toEqual(before);
    });

    test('when the externalId belongs to a completed disbursement, then 409 PKC_6001 names it, the new quote is used up, and no money moves', async () => {
      const user = await createWalletUser(stack);
      const externalId = `dup-${randomUUID()}`;
      const first = await send({ quoteId: (await quoteFor(user, 8)).quoteId, externalId });
      expect(first.status).toBe(200);
      const second = await quoteFor(user, 9);
      const before = await walletFingerprint();

      const duplicate = await send({ quoteId: second.quoteId, externalId });

      expectError(duplicate, 409, 'PKC_6001', { referenceId: first.body.data.referenceId, status: 'completed' });
      expect(duplicate.body.message).toContain(first.body.data.referenceId as string);
      expect(duplicate.body.message).toContain('completed');
      expect(await walletFingerprint()).toEqual(before);
      expectError(await send({ quoteId: second.quoteId, externalId: `other-${randomUUID()}` }), 400, 'PKC_5002');
    });

    test('when the partner balance no longer covers a second quoted transfer, then PKC_4002, the attempt is failed, no money moves, and the externalId is free again', async () => {
      const poor = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
      await fundPartner(stack, poor.partnerId, 'USD', '100.00');
      const bearer = await accessTokenFor(stack.client, poor);
      const user = await createWalletUser(stack);
      const first = await quoteFor(user, 60, bearer);
      const second = await quoteFor(user, 60, bearer);
      expect((await send({ quoteId: first.quoteId, externalId: 'pay-1' }, bearer)).status).toBe(200);
      const before = await walletFingerprint();

      const refused = await send({ quoteId: second.quoteId, externalId: 'pay-2' }, bearer);
      expectError(refused, 400, 'PKC_4002', namesFailedDisbursement);

      expect(await walletFingerprint()).toEqual(before);
      const failed = await database.query("SELECT status, failure_code FROM disbursements.disbursements WHERE partner_id = $1 AND external_id = 'pay-2'", [poor.partnerId]);
      expect(failed.rows).toEqual([{ status: 'failed', failure_code: 'PKC_4002' }]);
      const failedStatus = await stack.client.get(`/partner/v1/disbursement/${refused.body.referenceId as string}`, { bearer });
      expect(failedStatus.body.data).toMatchObject({
        externalId: 'pay-2',
        status: 'failed',
        amount: 60,
        netAmount: 0,
        failureCode: 'PKC_4002',
        failureReason: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' },
      });
      await fundPartner(stack, poor.partnerId, 'USD', '100.00');
      expect((await send({ quoteId: (await quoteFor(user, 10, bearer)).quoteId, externalId: 'pay-2' }, bearer)).status).toBe(200);
    });

    test("when the user's daily limit is used up after the quote, then the re-check answers PKC_4004 and no money moves", async () => {
      const user = await createWalletUser(stack); // Basic: 100 USD per transaction, 200 USD per day
      const quote = await quoteFor(user, 100);
      for (const amountMinor of [6_000n, 6_000n]) await postWalletTransfer(stack, { type: 'disbursement', partnerId: partner.partnerId, user, currency: 'USD', amountMinor });
      const before = await walletFingerprint();

      expectError(await send({ quoteId: quote.quoteId, externalId: `limit-${randomUUID()}` }), 400, 'PKC_4004', namesFailedDisbursement);
      expect(await walletFingerprint()).toEqual(before);
    });
  });

  describe('the status call', () => {
    test('when the referenceId is unknown or malformed, then 404 PKC_6002', async () => {
      expectError(await stack.client.get('/partner/v1/disbursement/PKD-1700000000000-0123456789ABCDEF01234567', { bearer: token }), 404, 'PKC_6002');
      expectError(await stack.client.get('/partner/v1/disbursement/not-a-reference', { bearer: token }), 404, 'PKC_6002');
    });

    test("when the referenceId is another partner's, then 403 PKC_6005", async () => {
      const user = await createWalletUser(stack);
      const done = await send({ quoteId: (await quoteFor(user, 3)).quoteId, externalId: `mine-${randomUUID()}` });
      const other = await onboardPartner(stack);

      const response = await stack.client.get(`/partner/v1/disbursement/${done.body.data.referenceId as string}`, { bearer: await accessTokenFor(stack.client, other) });

      expectError(response, 403, 'PKC_6005');
    });
  });

  describe('concurrency', () => {
    test('when 30 transfers race on one quote, then exactly one succeeds and the others get PKC_5002', async () => {
      const user = await createWalletUser(stack);
      const [quote, before] = await Promise.all([quoteFor(user, 4), moneySnapshot(stack, partner.partnerId, user)]);

      const responses = await Promise.all(Array.from({ length: 30 }, (_, index) => send({ quoteId: quote.quoteId, externalId: `race-${index}-${randomUUID()}` })));

      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      expect(responses.filter((response) => response.body?.code === 'PKC_5002')).toHaveLength(29);
      const after = await moneySnapshot(stack, partner.partnerId, user);
      expect(after.partnerCents - before.partnerCents).toBe(-centsOfApiAmount(quote.totalDebit));
      expect(after.userCents - before.userCents).toBe(400n);
    });

    test('when 30 transfers race with one externalId and 30 quotes, then exactly one succeeds, the others get PKC_6001, and the partner pays once', async () => {
      const user = await createWalletUser(stack);
      const [quotes, before] = await Promise.all([Promise.all(Array.from({ length: 30 }, () => quoteFor(user, 2))), moneySnapshot(stack, partner.partnerId, user)]);
      const externalId = `same-${randomUUID()}`;

      const responses = await Promise.all(quotes.map((quote) => send({ quoteId: quote.quoteId, externalId })));

      const winners = responses.filter((response) => response.status === 200);
      expect(winners).toHaveLength(1);
      expect(responses.filter((response) => response.status === 409 && response.body.code === 'PKC_6001')).toHaveLength(29);
      const after = await moneySnapshot(stack, partner.partnerId, user);
      expect(after.partnerCents - before.partnerCents).toBe(-centsOfApiAmount(quotes[0]?.totalDebit ?? 0));
      expect(after.userCents - before.userCents).toBe(200n);
    });
  });

  describe('the processing budget', () => {
    let lateGateway: GatewayProcess;
    let postedLateGateway: GatewayProcess;

    beforeAll(async () => {
      // A wallet whose postings stall 3 s before claiming the transfer id (a cancellation wins), and
      // one whose postings stall 2 s before COMMIT (a cancellation waits and learns it posted), each
      // behind a disbursements process with a 1 s budget and a gateway of its own.
      const [lateWallet, postedLateWallet] = await Promise.all([
        stack.startExtraService('wallet', { WALLET_POST_DELAY_MS: '3000', WALLET_POST_DELAY_POINT: 'before_claim' }),
        stack.startExtraService('wallet', { WALLET_POST_DELAY_MS: '2000', WALLET_POST_DELAY_POINT: 'before_commit' }),
      ]);
      const [lateDisbursements, postedLateDisbursements] = await Promise.all([
        stack.startExtraService('disbursements', { WALLET_URL: lateWallet.url, DISBURSEMENT_BUDGET_MS: '1000' }),
        stack.startExtraService('disbursements', { WALLET_URL: postedLateWallet.url, DISBURSEMENT_BUDGET_MS: '1000' }),
      ]);
      [lateGateway, postedLateGateway] = await Promise.all([
        stack.startExtraGateway({ DISBURSEMENTS_URL: lateDisbursements.url }),
        stack.startExtraGateway({ DISBURSEMENTS_URL: postedLateDisbursements.url }),
      ]);
    });

    test('when the wallet is slower than the budget, then 504 PKC_7004, nothing is posted even later, and the externalId can be used again', async () => {
      const user = await createWalletUser(stack);
      const quote = await quoteFor(user, 20);
      const before = await walletFingerprint();
      const externalId = `slow-${randomUUID()}`;
      const startedAt = Date.now();

      const response = await send({ quoteId: quote.quoteId, externalId }, token, lateGateway.client);

      expectError(response, 504, 'PKC_7004', namesFailedDisbursement);
      expect(Date.now() - startedAt).toBeLessThan(2_900);
      const row = await database.query("SELECT disbursement_id, status, failure_code FROM disbursements.disbursements WHERE external_id = $1", [externalId]);
      expect(row.rows).toEqual([{ disbursement_id: expect.any(String), status: 'timed_out', failure_code: 'PKC_7004' }]);
      // The stalled posting resumes after 3 s and must find its transfer id cancelled.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 3_500 - Date.now())));
      const transfers = await database.query('SELECT state FROM wallet.transfers WHERE transfer_id = $1', [row.rows[0]?.disbursement_id]);
      expect(transfers.rows).toEqual([{ state: 'cancelled' }]);
      const after = await walletFingerprint();
      const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
      expect(changed).toEqual(['wallet.transfers']); // the tombstone only: no entries, no balances

      const retry = await send({ quoteId: (await quoteFor(user, 20)).quoteId, externalId });
      expect(retry.status).toBe(200);
    });

    test('when the posting commits after the budget ran out, then the cancellation learns it posted and the answer is 200 completed, not 7004', async () => {
      const user = await createWalletUser(stack);
      const [quote, before] = await Promise.all([quoteFor(user, 7), moneySnapshot(stack, partner.partnerId, user)]);

      const response = await send({ quoteId: quote.quoteId, externalId: `late-${randomUUID()}` }, token, postedLateGateway.client);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'completed', transactionId: expect.stringMatching(transactionIdPattern) });
      const stored = await storedDisbursement(database, response.body.data.referenceId as string);
      expect(stored).toMatchObject({ status: 'completed', transaction_id: response.body.data.transactionId });
      const after = await moneySnapshot(stack, partner.partnerId, user);
      expect(after.userCents - before.userCents).toBe(700n);
    });
  });
});
