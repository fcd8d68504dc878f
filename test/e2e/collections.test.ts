import { databaseFingerprint } from '../support/database-fingerprint';
import {
  actAsUser,
  balancesOf,
  createCollection,
  getJson,
  listenToEvents,
  nextExternalId,
  quoteCollection,
  requestCollection,
  type Balances,
  type EventListener,
} from '../support/collection-flow';
import type { GatewayProcess } from '../support/stack';
import { accessTokenFor, onboardPartner, pollUntil, type OnboardedPartner } from '../support/partners';
import { startStack, type ExtraServiceProcess, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, postWalletTransfer, type WalletUser } from '../support/wallet-users';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../support/server-urls') as { serverUrls: () => { amqp: string } };

/**
 * Collections end to end: the partner's confirm and status calls through the gateway over HTTPS,
 * the user's side through the collections service's internal app API, the sandbox simulation, the
 * sweeper, races, and the events on the bus. Money is checked to the cent through the wallet CLI,
 * and the ledger's invariants at the end.
 */
const windowSeconds = 2;

describe('collections', () => {
  let stack: Stack;
  let shortWindow: ExtraServiceProcess;
  let shortWindowGateway: GatewayProcess;
  let events: EventListener;
  let partner: OnboardedPartner;
  let token: string;
  let otherToken: string;
  let otherPartner: OnboardedPartner;

  beforeAll(async () => {
    // Production's lack of the sandbox endpoints is tested in environments-and-expiry.test.ts, on its production stack.
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        collections: {
          EXPIRY_SWEEP_INTERVAL_MS: '200',
          OUTBOX_POLL_INTERVAL_MS: '100',
          SANDBOX_AUTO_RESOLVE_DELAY_MS: '1000',
          SANDBOX_AUTO_RESOLVE_INTERVAL_MS: '200',
        },
      },
    });
    events = await listenToEvents(stack, serverUrls().amqp, ['collection.*']);
    // A second collections process with a 2 s approval window, reached through its own gateway.
    shortWindow = await stack.startExtraService('collections', { COLLECTION_APPROVAL_WINDOW_SECONDS: String(windowSeconds), EXPIRY_SWEEP_INTERVAL_MS: '200' });
    [shortWindowGateway, partner, otherPartner] = await Promise.all([
      stack.startExtraGateway({ COLLECTIONS_URL: shortWindow.url }),
      onboardPartner(stack, { rateLimitPerMinute: 100_000 }),
      onboardPartner(stack, { rateLimitPerMinute: 100_000 }),
      stack.walletOperator(['seed-sandbox']),
    ]);
    [token, otherToken] = await Promise.all([accessTokenFor(stack.client, partner), accessTokenFor(stack.client, otherPartner)]);
  });

  afterAll(async () => {
    try {
      if (stack) expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
    } finally {
      await events?.close();
      await stack?.stop();
    }
  });

  /** A Gold user (high limits) with the given USD balance. */
  async function userWith(usd: string): Promise<WalletUser> {
    const user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', usd);
    return user;
  }

  const balances = (user: WalletUser): Promise<Balances> => balancesOf(stack, user.phone, partner.partnerId, 'USD');
  const status = (referenceId: string, bearer = token) => stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer });
  const sandboxAction = (referenceId: string, action: 'approve' | 'decline' | 'expire', bearer = token) =>
    stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/${action}`, {}, { bearer });

  /** The money a completed 100 USD collection moves (default fee: 1 %). */
  function expectMoved(before: Balances, after: Balances, amountMinor: bigint, feeMinor: bigint): void {
    expect(after).toEqual({
      userMinor: before.userMinor - amountMinor - feeMinor,
      partnerMinor: before.partnerMinor + amountMinor,
      feeRevenueMinor: before.feeRevenueMinor + feeMinor,
    });
  }

  describe('request and approval', () => {
    test('when a partner confirms a quote, then it gets 202 pending_approval with the spec fields, the user sees it, and collection.requested is published', async () => {
      const user = await userWith('500.00');
      const externalId = nextExternalId();

      const response = await requestCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD', externalId, note: 'Invoice 42' });

      expect(response.status).toBe(202);
      expect(response.body).toEqual({
        success: true,
        data: {
          referenceId: expect.stringMatching(/^PKC-\d+-[0-9A-F]{32}$/),
          status: 'pending_approval',
          amount: 100,
          currency: 'USD',
          fee: 1,
          totalDebit: 101,
          expiresAt: expect.any(String),
          message: expect.any(String),
        },
      });
      const { referenceId, expiresAt } = response.body.data as { referenceId: string; expiresAt: string };
      const windowMs = Date.parse(expiresAt) - Date.now();
      expect(windowMs).toBeGreaterThan(590_000);
      expect(windowMs).toBeLessThanOrEqual(600_000);

      const read = await status(referenceId);
      expect(read.body).toEqual({
        success: true,
        data: { referenceId, externalId, status: 'pending_approval', amount: 100, currency: 'USD', fee: 1, totalDebit: 101, expiresAt, createdAt: expect.any(String) },
      });
      const pending = await getJson(`${stack.internalUrls.collections}/internal/app/users/${user.localPhone}/collections`);
      expect(pending.body.data.collections).toEqual([expect.objectContaining({ referenceId, status: 'pending_approval', note: 'Invoice 42', totalDebit: 101 })]);
      const requested = await events.waitFor((event) => event.type === 'collection.requested' && (event.data as { referenceId?: string }).referenceId === referenceId);
      expect(requested.data).toMatchObject({ event: 'collection.requested', partnerId: partner.partnerId, externalId, phone: user.phone, note: 'Invoice 42', status: 'pending_approval' });
    });

    test('when the user approves in the app, then it completes: user −totalDebit, partner +amount, fee revenue +fee, and collection.completed carries the spec fields', async () => {
      const user = await userWith('500.00');
      const externalId = nextExternalId();
      // A pending collection moves no money: the balances before it is approved are read beside its creation.
      const [referenceId, before] = await Promise.all([createCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD', externalId }), balances(user)]);

      const approved = await actAsUser(stack.internalUrls.collections, referenceId, 'approve', { phone: user.phone });

      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({ referenceId, status: 'completed', transactionId: expect.stringMatching(/^TXN-[0-9A-F]+$/) });
      expectMoved(before, await balances(user), 10_000n, 100n);
      const read = await status(referenceId);
      expect(read.body.data).toMatchObject({
        status: 'completed',
        transactionId: { transactionId: approved.body.data.transactionId, status: 'completed', completedAt: expect.any(String) },
      });
      const completed = await events.waitFor((event) => event.type === 'collection.completed' && (event.data as { referenceId?: string }).referenceId === referenceId);
      expect(completed).toMatchObject({ type: 'collection.completed', producer: 'collections', eventId: expect.any(String), occurredAt: expect.any(String) });
      expect(completed.data).toEqual({
        eventId: completed.eventId,
        event: 'collection.completed',
        partnerId: partner.partnerId,
        referenceId,
        externalId,
        amount: 100,
        currency: 'USD',
        fee: 1,
        status: 'completed',
        transactionId: approved.body.data.transactionId,
        timestamp: expect.stringMatching(/Z$/),
      });
    });

    test('when the partner approves through the sandbox endpoint, then it completes and the money moves to the cent', async () => {
      const user = await userWith('300.00');
      const [referenceId, before] = await Promise.all([createCollection(stack.client, token, { phone: user.localPhone, amount: 100.5, currency: 'USD' }), balances(user)]);

      const approved = await sandboxAction(referenceId, 'approve');

      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({ referenceId, status: 'completed', amount: 100.5, fee: 1, totalDebit: 101.5 }); // the default schedule's fee for this amount
      expectMoved(before, await balances(user), 10_050n, 100n);
    });

    test('when the user declines, then it is declined, no money moves, collection.declined is published, and approving afterwards is 409 PKC_6004', async () => {
      const user = await userWith('300.00');
      const [referenceId, before] = await Promise.all([createCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' }), balances(user)]);

      const declined = await actAsUser(stack.internalUrls.collections, referenceId, 'decline');
      const approveAfter = await actAsUser(stack.internalUrls.collections, referenceId, 'approve');

      expect(declined).toMatchObject({ status: 200, body: { data: { status: 'declined' } } });
      expect(approveAfter).toEqual({ status: 409, body: { success: false, code: 'PKC_6004', message: expect.stringContaining('declined') } });
      expect((await status(referenceId)).body.data).toMatchObject({ status: 'declined' });
      expect(await balances(user)).toEqual(before);
      await events.waitFor((event) => event.type === 'collection.declined' && (event.data as { referenceId?: string }).referenceId === referenceId);
    });

    test('when the partner declines through the sandbox endpoint and approves a completed one, then both answers follow the state machine', async () => {
      const user = await userWith('300.00');
      const first = await createCollection(stack.client, token, { phone: user.localPhone, amount: 50, currency: 'USD' });
      expect((await sandboxAction(first, 'decline')).body.data).toMatchObject({ status: 'declined' });
      const second = await createCollection(stack.client, token, { phone: user.localPhone, amount: 50, currency: 'USD' });
      expect((await sandboxAction(second, 'approve')).body.data).toMatchObject({ status: 'completed' });

      const again = await sandboxAction(second, 'decline');
      expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'PKC_6004' });
    });
  });

  describe('expiry', () => {
    test('when the partner expires one through the sandbox, then it is expired, the status says so, and approving is 410 PKC_6003', async () => {
      const user = await userWith('300.00');
      const [referenceId, before] = await Promise.all([createCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' }), balances(user)]);

      const expired = await sandboxAction(referenceId, 'expire');
      const approve = await actAsUser(stack.internalUrls.collections, referenceId, 'approve');

      expect(expired).toMatchObject({ status: 200, body: { data: { status: 'expired' } } });
      expect((await status(referenceId)).body.data).toMatchObject({ status: 'expired' });
      expect(approve).toEqual({ status: 410, body: { success: false, code: 'PKC_6003', message: expect.any(String) } });
      expect(await balances(user)).toEqual(before);
      await events.waitFor((event) => event.type === 'collection.expired' && (event.data as { referenceId?: string }).referenceId === referenceId);
    });

    test('when the approval window passes, then the sweeper expires it, the status shows expired, and approving is 410 PKC_6003', async () => {
      const user = await userWith('300.00');
      const referenceId = await createCollection(shortWindowGateway.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' });

      const read = await pollUntil(() => status(referenceId), (response) => response.body?.data?.status === 'expired', (windowSeconds + 3) * 1000);
      const approve = await actAsUser(stack.internalUrls.collections, referenceId, 'approve');

      expect(read.body.data).toMatchObject({ status: 'expired' });
      expect(approve.status).toBe(410);
      expect(approve.body.code).toBe('PKC_6003');
      const expiredEvent = await events.waitFor((event) => event.type === 'collection.expired' && (event.data as { referenceId?: string }).referenceId === referenceId);
      expect(expiredEvent.data).toMatchObject({ status: 'expired', amount: 100, fee: 1, currency: 'USD' });
      expect(expiredEvent.data).not.toHaveProperty('transactionId');
    });
  });

  describe('races', () => {
    test('when approve and decline of one collection arrive together, then exactly one wins and the money agrees with the outcome', async () => {
      const user = await userWith('2000.00');
      const [referenceIds, before] = await Promise.all([
        Promise.all(Array.from({ length: 4 }, () => createCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' }))),
        balances(user),
      ]);

      const outcomes = await Promise.all(
        referenceIds.map(async (referenceId) => {
          const [approve, decline] = await Promise.all([
            actAsUser(stack.internalUrls.collections, referenceId, 'approve'),
            actAsUser(stack.internalUrls.collections, referenceId, 'decline'),
          ]);
          const final = (await status(referenceId)).body.data.status as string;
          return { approve: approve.status, decline: decline.status, final };
        }),
      );

      for (const outcome of outcomes) {
        expect([outcome.approve, outcome.decline].sort()).toEqual([200, 409]);
        expect(outcome.final).toBe(outcome.approve === 200 ? 'completed' : 'declined');
      }
      const completedCount = BigInt(outcomes.filter((outcome) => outcome.final === 'completed').length);
      expectMoved(before, await balances(user), 10_000n * completedCount, 100n * completedCount);
    });

    test('when approvals race the end of the window, then each collection has one consistent outcome and the money agrees', async () => {
      const user = await userWith('2000.00');
      const before = await balances(user);
      const referenceIds = await Promise.all(Array.from({ length: 4 }, () => createCollection(shortWindowGateway.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' })));
      const createdAtMs = Date.now();

      const outcomes = await Promise.all(
        referenceIds.map(async (referenceId, index) => {
          // Approvals land from 250 ms before the end of the window to 50 ms after it.
          await new Promise((resolve) => setTimeout(resolve, createdAtMs + windowSeconds * 1000 - 250 + index * 100 - Date.now()));
          const approve = await actAsUser(shortWindow.url, referenceId, 'approve');
          const final = (await status(referenceId)).body.data.status as string;
          return { approve: approve.status, code: approve.body.code as string | undefined, final };
        }),
      );

      for (const outcome of outcomes) {
        if (outcome.final === 'completed') expect(outcome.approve).toBe(200);
        else expect({ final: outcome.final, approve: outcome.approve, code: outcome.code }).toEqual({ final: 'expired', approve: 410, code: 'PKC_6003' });
      }
      const completedCount = BigInt(outcomes.filter((outcome) => outcome.final === 'completed').length);
      expectMoved(before, await balances(user), 10_000n * completedCount, 100n * completedCount);
    });
  });

  describe('errors of the request and status endpoints', () => {
    const confirm = (body: unknown, bearer = token) => stack.client.post('/partner/v1/collection/request', body, { bearer });
    let user: WalletUser;

    beforeAll(async () => {
      user = await userWith('5000.00');
    });

    /** The error envelope, with exactly the given extra fields (PKC_6001 names the holder: referenceId, status). */
    async function expectCode(response: { status: number; body: any }, httpStatus: number, code: string, fields: Record<string, unknown> = {}): Promise<void> {
      expect({ status: response.status, body: response.body }).toEqual({ status: httpStatus, body: { ...fields, success: false, code, message: expect.any(String) } });
      return Promise.resolve();
    }

    test('when the body is invalid, then 2008, 2009, 2006 and 2007 come in the documented order, and no collection is created', async () => {
      const quoteId = await quoteCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' });
      const before = await databaseFingerprint(stack.databaseUrl, ['collections']);

      // Each refusal names its field (decision 0075).
      const names = (field: string, problem: string) => ({ invalidFields: [{ field, problem, expected: expect.any(String) }] });
      await expectCode(await confirm({ externalId: 'x' }), 400, 'PKC_2008', names('quoteId', 'missing'));
      await expectCode(await confirm({ quoteId }), 400, 'PKC_2008', names('externalId', 'missing'));
      await expectCode(await confirm({ quoteId: 'not-a-uuid', externalId: 'x' }), 400, 'PKC_2009', names('quoteId', 'wrong_format'));
      await expectCode(await confirm({ quoteId, externalId: 'x'.repeat(101) }), 400, 'PKC_2006', names('externalId', 'too_long'));
      await expectCode(await confirm({ quoteId, externalId: 'x', note: 'n'.repeat(201) }), 400, 'PKC_2007', names('note', 'too_long'));

      expect(await databaseFingerprint(stack.databaseUrl, ['collections'])).toEqual(before);
      // None of them consumed the quote.
      expect((await confirm({ quoteId, externalId: nextExternalId() })).status).toBe(202);
    });

    test('when the quote is unknown, used, of the other type or another partner\'s, then 5001, 5002, 5003 and 5004', async () => {
      await fundPartner(stack, partner.partnerId, 'USD', '1000.00');
      const quoteId = await quoteCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' });
      expect((await confirm({ quoteId, externalId: nextExternalId() })).status).toBe(202);
      const disbursementQuote = await stack.client.post('/partner/v1/disbursement/quote', { phone: user.localPhone, amount: 10, currency: 'USD' }, { bearer: token });
      const othersQuote = await quoteCollection(stack.client, otherToken, { phone: user.localPhone, amount: 100, currency: 'USD' });

      await expectCode(await confirm({ quoteId: '00000000-0000-4000-8000-000000000000', externalId: nextExternalId() }), 400, 'PKC_5001');
      await expectCode(await confirm({ quoteId, externalId: nextExternalId() }), 400, 'PKC_5002');
      await expectCode(await confirm({ quoteId: disbursementQuote.body.data.quoteId, externalId: nextExternalId() }), 400, 'PKC_5003');
      await expectCode(await confirm({ quoteId: othersQuote, externalId: nextExternalId() }), 403, 'PKC_5004');
    });

    test('when the externalId is in use, then 409 PKC_6001 names the holder; once it is declined the externalId is free again', async () => {
      const externalId = nextExternalId();
      const first = await createCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD', externalId });

      const duplicate = await requestCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD', externalId });
      const otherPartnersSame = await requestCollection(stack.client, otherToken, { phone: user.localPhone, amount: 100, currency: 'USD', externalId });

      await expectCode(duplicate, 409, 'PKC_6001', { referenceId: first, status: 'pending_approval' });
      expect(duplicate.body.message).toContain(first);
      expect(duplicate.body.message).toContain('pending_approval');
      expect(otherPartnersSame.status).toBe(202);
      await actAsUser(stack.internalUrls.collections, first, 'decline');
      expect((await requestCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD', externalId })).status).toBe(202);
    });

    test('when the same externalId is confirmed twice at once, then the database lets exactly one through', async () => {
      const externalId = nextExternalId();
      const quoteIds = await Promise.all([1, 2, 3].map(() => quoteCollection(stack.client, token, { phone: user.localPhone, amount: 100, currency: 'USD' })));

      const responses = await Promise.all(quoteIds.map((quoteId) => confirm({ quoteId, externalId })));

      expect(responses.map((response) => response.status).sort()).toEqual([202, 409, 409]);
    });

    test('when the user\'s balance dropped after the quote, then the re-check refuses with 400 PKC_4001 and nothing is created', async () => {
      const poor = await userWith('150.00');
      const quoteId = await quoteCollection(stack.client, token, { phone: poor.localPhone, amount: 100, currency: 'USD' });
      await postWalletTransfer(stack, { type: 'collection', partnerId: otherPartner.partnerId, user: poor, currency: 'USD', amountMinor: 10_000n });
      const before = await databaseFingerprint(stack.databaseUrl, ['collections']);

      await expectCode(await confirm({ quoteId, externalId: nextExternalId() }), 400, 'PKC_4001');

      expect(await databaseFingerprint(stack.databaseUrl, ['collections'])).toEqual(before);
    });

    test('when the status of an unknown or another partner\'s collection is asked for, then 404 PKC_6002 and 403 PKC_6005', async () => {
      const referenceId = await createCollection(stack.client, token, { phone: user.localPhone, amount: 60, currency: 'USD' });

      await expectCode(await status('PKC-1-0123456789ABCDEF0123456789ABCDEF'), 404, 'PKC_6002');
      await expectCode(await status(referenceId, otherToken), 403, 'PKC_6005');
      await expectCode(await sandboxAction(referenceId, 'approve', otherToken), 403, 'PKC_6005');
    });

    test('when the partner lacks the collection permission, then request and status are 403 PKC_1008', async () => {
      const disburser = await onboardPartner(stack, { permissions: ['disbursement'] });
      const bearer = await accessTokenFor(stack.client, disburser);

      await expectCode(await confirm({ quoteId: '00000000-0000-4000-8000-000000000000', externalId: 'x' }, bearer), 403, 'PKC_1008');
      await expectCode(await status('PKC-1-AB', bearer), 403, 'PKC_1008');
    });
  });

  describe('sandbox simulation', () => {
    test('when collections are asked of the auto-resolving test phones, then they end approved (completed), declined, expired and failed on their own', async () => {
      const phones = { completed: '0770000011', declined: '0770000012', expired: '0770000013', failed: '0770000014' } as const;
      const approverBefore = await balancesOf(stack, '+231770000011', partner.partnerId, 'USD');
      const referenceIds = await Promise.all(
        Object.entries(phones).map(async ([expected, phone]) => ({ expected, referenceId: await createCollection(stack.client, token, { phone, amount: 100, currency: 'USD' }) })),
      );

      const finals = await Promise.all(
        referenceIds.map(async ({ expected, referenceId }) => {
          const read = await pollUntil(() => status(referenceId), (response) => response.body?.data?.status === expected, 6_000, 200);
          return { expected, actual: read.body.data.status as string };
        }),
      );

      for (const { expected, actual } of finals) expect(actual).toBe(expected);
      const approverAfter = await balancesOf(stack, '+231770000011', partner.partnerId, 'USD');
      expect(approverAfter.userMinor).toBe(approverBefore.userMinor - 10_100n);
      const failed = referenceIds.find(({ expected }) => expected === 'failed')?.referenceId;
      const failedEvent = await events.waitFor((event) => event.type === 'collection.failed' && (event.data as { referenceId?: string }).referenceId === failed);
      const simulatedFailure = { code: 'PKC_7002', message: expect.stringContaining('simulated') };
      expect(failedEvent.data).toMatchObject({ status: 'failed', failureCode: 'PKC_7002', failureReason: simulatedFailure });
      expect((await status(failed ?? '')).body.data).toMatchObject({ status: 'failed', failureReason: simulatedFailure });
    });
  });
});
