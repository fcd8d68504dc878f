import { randomUUID } from 'node:crypto';
import { actAsUser, balancesOf, createCollection, getJson, type Balances } from '../support/collection-flow';
import { databaseFingerprint } from '../support/database-fingerprint';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { accessTokenFor, pollUntil } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, setLimit, updateWalletUser, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, verifiesStandardSignature, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 19 through the gateway over HTTPS, as a partner calls it: cancelling a pending collection
 * and refunding a completed one (whole, in parts, refused), each with the user's and the partner's
 * balances before and after to the cent and the ledger's invariants after every test; the races
 * the database decides (cancel against approve; parallel partial refunds beyond the amount).
 */
interface TestPartner {
  partnerId: string;
  token: string;
  webhookSecret: string;
}

const refundReferencePattern = /^PKR-\d{13,16}-[0-9A-F]{24}$/;

describe('refunds and cancellation', () => {
  let stack: Stack;
  let endpoint: WebhookReceiver;
  /** Shared by the tests that change neither (they run one at a time, so balance changes are each test's own). */
  let partner: TestPartner;
  let stranger: TestPartner;
  let user: WalletUser;

  beforeAll(async () => {
    endpoint = await startWebhookReceiver();
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        wallet: { OUTBOX_POLL_INTERVAL_MS: '100' },
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '200,200,200' },
      },
    });
    partner = await onboard(endpoint.url);
    stranger = await onboard();
    user = await payingUser('20000.00');
  });

  afterEach(async () => {
    // The ledger's invariants after every test, from the wallet's own check (GET /internal/ledger/invariants,
    // what check-ledger runs), asked over HTTP rather than by starting the CLI each time.
    if (stack) expect(await (await fetch(`${stack.internalUrls.wallet}/internal/ledger/invariants`)).json()).toMatchObject({ ok: true, problems: [] });
  });

  afterAll(async () => {
    await endpoint?.close();
    await stack?.stop();
  });

  async function onboard(webhookUrl?: string): Promise<TestPartner> {
    const args = ['onboard', '--name', `Refund partner ${Math.random().toString(36).slice(2, 8)}`, '--permissions', 'collection,disbursement', '--rate-limit', '100000'];
    if (webhookUrl !== undefined) args.push('--webhook-url', webhookUrl);
    const { partnerId, clientId, clientSecret, webhookSecret } = (await stack.operator(args)) as Record<string, string>;
    return { partnerId: partnerId ?? '', webhookSecret: webhookSecret ?? '', token: await accessTokenFor(stack.client, { clientId: clientId ?? '', clientSecret: clientSecret ?? '' }) };
  }

  async function payingUser(amount = '1000.00'): Promise<WalletUser> {
    const user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', amount);
    return user;
  }

  /** A collection the user approved in the sandbox: completed, the partner credited with its amount. */
  async function completedCollection(partner: TestPartner, user: WalletUser, amount: number): Promise<string> {
    const referenceId = await createCollection(stack.client, partner.token, { phone: user.phone, amount, currency: 'USD', externalId: `order-${randomUUID()}` });
    const approved = await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/approve`, {}, { bearer: partner.token });
    expect([approved.status, approved.body?.data?.status]).toEqual([200, 'completed']);
    return referenceId;
  }

  const balances = (owner: TestPartner, payer: WalletUser): Promise<Balances> => balancesOf(stack, payer.phone, owner.partnerId, 'USD');
  const refund = (partner: TestPartner, referenceId: string, body: unknown) =>
    stack.client.post(`/partner/v1/collection/${encodeURIComponent(referenceId)}/refund`, body, { bearer: partner.token });
  const cancel = (partner: TestPartner, referenceId: string) => stack.client.post(`/partner/v1/collection/${encodeURIComponent(referenceId)}/cancel`, {}, { bearer: partner.token });
  const moved = (before: Balances, after: Balances) => ({
    user: after.userMinor - before.userMinor,
    partner: after.partnerMinor - before.partnerMinor,
    fees: after.feeRevenueMinor - before.feeRevenueMinor,
  });
  const nothingMoved = { user: 0n, partner: 0n, fees: 0n };

  /** The webhook delivered about a referenceId (the shared receiver checks every delivery against the document). */
  async function webhookFor(referenceId: string): Promise<Record<string, unknown> | undefined> {
    const payload = await pollUntil(
      () => Promise.resolve(endpoint.received.map((hook) => JSON.parse(hook.body) as Record<string, unknown>).find((candidate) => candidate.referenceId === referenceId)),
      (found) => found !== undefined,
      10_000,
    );
    expect(endpoint.contractMismatches).toEqual([]);
    return payload;
  }

  describe('POST /partner/v1/collection/{referenceId}/cancel', () => {
    test('when the partner cancels a pending collection, then it is cancelled, the user no longer sees it, approving it is refused, nothing moves, and collection.cancelled is delivered', async () => {
      const referenceId = await createCollection(stack.client, partner.token, { phone: user.phone, amount: 25, currency: 'USD' });
      const before = await balances(partner, user);

      const cancelled = await cancel(partner, referenceId);
      expect([cancelled.status, cancelled.body.data?.status, cancelled.body.data?.referenceId]).toEqual([200, 'cancelled', referenceId]);
      const status = await stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: partner.token });
      expect(status.body.data.status).toBe('cancelled');
      const app = await getJson(`${stack.internalUrls.collections}/internal/app/users/${encodeURIComponent(user.phone)}/collections`);
      expect(app.body.data.collections.map((item: { referenceId: string }) => item.referenceId)).not.toContain(referenceId);
      const approve = await actAsUser(stack.internalUrls.collections, referenceId, 'approve');
      expect([approve.status, approve.body.code]).toEqual([409, 'PKC_6004']);

      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
      expect(await webhookFor(referenceId)).toMatchObject({ event: 'collection.cancelled', status: 'cancelled', referenceId, amount: 25, currency: 'USD' });
    });

    test.each([
      ['completed', 409, 'PKC_6004'],
      ['declined', 409, 'PKC_6004'],
      ['cancelled', 409, 'PKC_6004'],
      ['expired', 410, 'PKC_6003'],
    ] as const)('when the collection is already %s, then cancel answers %i %s and nothing moves', async (state, httpStatus, code) => {
      const referenceId = await createCollection(stack.client, partner.token, { phone: user.phone, amount: 10, currency: 'USD' });
      const action = { completed: 'approve', declined: 'decline', cancelled: 'cancel', expired: 'expire' }[state];
      const first =
        action === 'cancel' ? await cancel(partner, referenceId) : await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/${action}`, {}, { bearer: partner.token });
      expect(first.status).toBe(200);
      const before = await balances(partner, user);

      const answer = await cancel(partner, referenceId);
      expect([answer.status, answer.body.code]).toEqual([httpStatus, code]);
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
    });

    test('when another partner or an unknown referenceId is cancelled, then 403 PKC_6005 and 404 PKC_6002, and the collection stays pending', async () => {
      const referenceId = await createCollection(stack.client, partner.token, { phone: user.phone, amount: 10, currency: 'USD' });
      const before = await balances(partner, user);
      const foreign = await cancel(stranger, referenceId);
      expect([foreign.status, foreign.body.code]).toEqual([403, 'PKC_6005']);
      const unknown = await cancel(partner, 'PKC-1718000000000-00000000000000000000000000000000');
      expect([unknown.status, unknown.body.code]).toEqual([404, 'PKC_6002']);
      expect((await stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: partner.token })).body.data.status).toBe('pending_approval');
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
    });

    test('when cancel races the user’s approval 30 times, then exactly one wins each time, the loser gets 409 PKC_6004, and money moved only for the approvals that won', async () => {
      // 30 collections of one user within the hour: a tier whose count limits allow them.
      await setLimit(stack, { tier: 'Platinum', type: 'collection', currency: 'USD' }, { perHourCount: 1000, perDayCount: 1000 });
      const racer = await createWalletUser(stack, { tier: 'Platinum', currencies: ['USD'] });
      await creditWallet(stack, racer, 'USD', '5000.00');
      const referenceIds: string[] = [];
      for (let index = 0; index < 30; index += 1) referenceIds.push(await createCollection(stack.client, partner.token, { phone: racer.phone, amount: 2, currency: 'USD' }));
      const before = await balances(partner, racer);

      const outcomes = await Promise.all(
        referenceIds.map(async (referenceId) => {
          const [cancelled, approved] = await Promise.all([cancel(partner, referenceId), actAsUser(stack.internalUrls.collections, referenceId, 'approve')]);
          return { cancelled, approved, final: (await stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: partner.token })).body.data.status as string };
        }),
      );

      let approvals = 0n;
      for (const { cancelled, approved, final } of outcomes) {
        const cancelWon = cancelled.status === 200;
        const approveWon = approved.status === 200;
        expect(cancelWon !== approveWon).toBe(true);
        if (cancelWon) {
          expect([approved.status, approved.body.code, final]).toEqual([409, 'PKC_6004', 'cancelled']);
        } else {
          expect([cancelled.status, cancelled.body.code, approved.body.data.status, final]).toEqual([409, 'PKC_6004', 'completed', 'completed']);
          approvals += 1n;
        }
      }
      const change = moved(before, await balances(partner, racer));
      expect(change.partner).toBe(approvals * 200n);
      expect(change.user).toBe(-(change.partner + change.fees));
    });
  });

  describe('POST /partner/v1/collection/{referenceId}/refund', () => {
    test('when a completed collection is refunded without an amount, then the whole amount goes back: partner debited, user credited, fee kept, and the refund is readable, listed on the collection, the statement and the events, with refund.completed delivered', async () => {
      const referenceId = await completedCollection(partner, user, 40.5);
      const before = await balances(partner, user);
      const externalId = `refund-${randomUUID()}`;

      const answer = await refund(partner, referenceId, { externalId, reason: 'Goods returned' });
      expect(answer.status).toBe(200);
      const data = answer.body.data;
      expect(data).toMatchObject({ collectionReferenceId: referenceId, externalId, status: 'completed', amount: 40.5, currency: 'USD', fee: 0, reason: 'Goods returned', collectionRefundedAmount: 40.5 });
      expect(data.referenceId).toMatch(refundReferencePattern);
      expect(data.transactionId).toMatch(/^TXN-/);
      const after = await balances(partner, user);
      expect(moved(before, after)).toEqual({ user: 4050n, partner: -4050n, fees: 0n });

      const read = await stack.client.get(`/partner/v1/refund/${data.referenceId}`, { bearer: partner.token });
      expect([read.status, read.body.data]).toEqual([200, data]);
      const collection = await stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: partner.token });
      expect([collection.body.data.status, collection.body.data.refundedAmount]).toEqual(['completed', 40.5]);

      expect(await webhookFor(data.referenceId as string)).toMatchObject({ event: 'refund.completed', status: 'completed', referenceId: data.referenceId, collectionReferenceId: referenceId, externalId, amount: 40.5, fee: 0, transactionId: data.transactionId });

      // The partner is shared: the statement from just before this refund holds it as its last line.
      const statement = await stack.client.get(
        `/partner/v1/statement?${new URLSearchParams({ currency: 'USD', from: new Date(Date.parse(data.createdAt as string) - 1000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), limit: '100' }).toString()}`,
        { bearer: partner.token },
      );
      expect(statement.body.data.items.at(-1)).toMatchObject({ type: 'refund', amount: -40.5, referenceId: data.referenceId, externalId, balanceAfter: Number(after.partnerMinor) / 100 });
      const inEvents = await pollUntil(
        () => stack.client.get('/partner/v1/events?type=refund.completed&limit=100', { bearer: partner.token }),
        (list) => (list.body?.data?.items ?? []).some((item: { payload?: { referenceId?: string } }) => item.payload?.referenceId === data.referenceId),
        10_000,
      );
      expect(inEvents.status).toBe(200);
    });

    test('when a collection is refunded in parts, then each part moves its amount, the refunded total grows, and a part beyond what is left is 409 PKC_6006 moving nothing', async () => {
      const referenceId = await completedCollection(partner, user, 30);
      const before = await balances(partner, user);

      const first = await refund(partner, referenceId, { externalId: `part-${randomUUID()}`, amount: 10.25 });
      expect([first.status, first.body.data.amount, first.body.data.collectionRefundedAmount]).toEqual([200, 10.25, 10.25]);
      const second = await refund(partner, referenceId, { externalId: `part-${randomUUID()}`, amount: 4.75 });
      expect([second.status, second.body.data.collectionRefundedAmount]).toEqual([200, 15]);
      const afterParts = await balances(partner, user);
      expect(moved(before, afterParts)).toEqual({ user: 1500n, partner: -1500n, fees: 0n });

      const beyond = await refund(partner, referenceId, { externalId: `part-${randomUUID()}`, amount: 15.01 });
      expect([beyond.status, beyond.body.code, beyond.body.refundableAmount]).toEqual([409, 'PKC_6006', 15]);
      expect(moved(afterParts, await balances(partner, user))).toEqual(nothingMoved);

      const rest = await refund(partner, referenceId, { externalId: `part-${randomUUID()}` });
      expect([rest.status, rest.body.data.amount, rest.body.data.collectionRefundedAmount]).toEqual([200, 15, 30]);
      const none = await refund(partner, referenceId, { externalId: `part-${randomUUID()}` });
      expect([none.status, none.body.code]).toEqual([409, 'PKC_6006']);
      expect(moved(before, await balances(partner, user))).toEqual({ user: 3000n, partner: -3000n, fees: 0n });
    });

    test('when a refund’s externalId is used again, also after a full refund, then 409 PKC_6001 names the first refund and nothing moves', async () => {
      const referenceId = await completedCollection(partner, user, 20);
      const externalId = `refund-${randomUUID()}`;
      const first = await refund(partner, referenceId, { externalId, amount: 5 });
      expect(first.status).toBe(200);
      const before = await balances(partner, user);

      const again = await refund(partner, referenceId, { externalId, amount: 5 });
      expect([again.status, again.body.code, again.body.referenceId]).toEqual([409, 'PKC_6001', first.body.data.referenceId]);
      expect(again.body.message).toContain(first.body.data.referenceId);
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);

      // A full refund sent again after a lost answer: the collection has nothing left, but the answer names the refund made.
      const whole = await completedCollection(partner, user, 6);
      const wholeExternalId = `refund-${randomUUID()}`;
      const made = await refund(partner, whole, { externalId: wholeExternalId });
      expect(made.status).toBe(200);
      const retried = await refund(partner, whole, { externalId: wholeExternalId });
      expect([retried.status, retried.body.code, retried.body.referenceId]).toEqual([409, 'PKC_6001', made.body.data.referenceId]);
    });

    test('when the collection is pending, another partner’s or unknown, then 409 PKC_6004, 403 PKC_6005 and 404 PKC_6002, and nothing moves', async () => {
      const pending = await createCollection(stack.client, partner.token, { phone: user.phone, amount: 10, currency: 'USD' });
      const completed = await completedCollection(partner, user, 10);
      const before = await balances(partner, user);

      const notYet = await refund(partner, pending, { externalId: `r-${randomUUID()}` });
      expect([notYet.status, notYet.body.code, notYet.body.message]).toEqual([409, 'PKC_6004', expect.stringContaining('pending_approval')]);
      const foreign = await refund(stranger, completed, { externalId: `r-${randomUUID()}` });
      expect([foreign.status, foreign.body.code]).toEqual([403, 'PKC_6005']);
      const unknown = await refund(partner, 'PKC-1718000000000-00000000000000000000000000000000', { externalId: `r-${randomUUID()}` });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'PKC_6002']);
      const unknownRefund = await stack.client.get('/partner/v1/refund/PKR-1718000000000-000000000000000000000000', { bearer: partner.token });
      expect([unknownRefund.status, unknownRefund.body.code]).toEqual([404, 'PKC_6002']);
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
    });

    test.each([
      ['no externalId', 400, 'PKC_2008', { amount: 1 }],
      ['a mistyped amount field', 400, 'PKC_2008', { externalId: 'x-1', ammount: 1 }],
      ['an amount as a string', 400, 'PKC_2002', { externalId: 'x-2', amount: '1.00' }],
      ['a zero amount', 400, 'PKC_2002', { externalId: 'x-3', amount: 0 }],
      ['three decimals', 400, 'PKC_2002', { externalId: 'x-4', amount: 1.005 }],
      ['an externalId of 101 characters', 400, 'PKC_2006', { externalId: 'x'.repeat(101), amount: 1 }],
      ['a reason of 201 characters', 400, 'PKC_2007', { externalId: 'x-5', amount: 1, reason: 'r'.repeat(201) }],
      ['a body that is an array', 400, 'PKC_2008', [1, 2]],
    ])('when the refund body has %s, then %i %s and nothing is written or moved', async (_case, httpStatus, code, body) => {
      const referenceId = await completedCollection(partner, user, 10);
      const before = await balances(partner, user);
      const rows = await databaseFingerprint(stack.databaseUrl, ['collections', 'wallet']);

      const answer = await refund(partner, referenceId, body);
      expect([answer.status, answer.body.code]).toEqual([httpStatus, code]);
      expect(await databaseFingerprint(stack.databaseUrl, ['collections', 'wallet'])).toEqual(rows);
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
    });

    test('when the partner’s balance no longer covers the refund, then 400 PKC_4002, and nothing is written or moved', async () => {
      // A partner of its own, whose balance is only what this test collects.
      const partner = await onboard();
      const referenceId = await completedCollection(partner, user, 10);
      // Spend most of what was collected: a payout to another user.
      const payee = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
      const quote = await disbursementQuote(stack.client, partner.token, payee, 6);
      const paid = await transfer(stack.client, partner.token, { quoteId: quote.quoteId, externalId: `payout-${randomUUID()}` });
      expect(paid.status).toBe(200);
      const before = await balances(partner, user);
      const rows = await databaseFingerprint(stack.databaseUrl, ['collections', 'wallet']);

      const answer = await refund(partner, referenceId, { externalId: `r-${randomUUID()}` });
      expect([answer.status, answer.body.code]).toEqual([400, 'PKC_4002']);
      expect(await databaseFingerprint(stack.databaseUrl, ['collections', 'wallet'])).toEqual(rows);
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
      // Funded again, the same refund goes through.
      await fundPartner(stack, partner.partnerId, 'USD', '10.00');
      expect((await refund(partner, referenceId, { externalId: `r-${randomUUID()}` })).status).toBe(200);
    });

    test.each([
      ['suspended', 403, 'PKC_3002', ['--status', 'suspended']],
      ['frozen in USD', 403, 'PKC_3004', ['--freeze', 'USD']],
    ])('when the user is %s, then the refund answers %i %s and nothing moves', async (_case, httpStatus, code, change) => {
      const user = await payingUser();
      const referenceId = await completedCollection(partner, user, 10);
      await updateWalletUser(stack, user, change);
      const before = await balances(partner, user);

      const answer = await refund(partner, referenceId, { externalId: `r-${randomUUID()}` });
      expect([answer.status, answer.body.code]).toEqual([httpStatus, code]);
      expect(moved(before, await balances(partner, user))).toEqual(nothingMoved);
      const collection = await stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: partner.token });
      expect(collection.body.data.refundedAmount).toBe(0);
    });

    test('when a partner lists its refunds, then GET /partner/v1/refunds pages them newest first, filtered by collection, status and externalId, and another partner sees none', async () => {
      const first = await completedCollection(partner, user, 12);
      const second = await completedCollection(partner, user, 8);
      const made: string[] = [];
      for (const [referenceId, amount] of [[first, 2], [second, 3], [first, 4]] as const) {
        const answer = await refund(partner, referenceId, { externalId: `list-${randomUUID()}`, amount });
        expect(answer.status).toBe(200);
        made.push(answer.body.data.referenceId as string);
      }
      const since = (await stack.client.get(`/partner/v1/refund/${made[0]}`, { bearer: partner.token })).body.data.createdAt as string;
      const list = (owner: TestPartner, query: Record<string, string>) => stack.client.get(`/partner/v1/refunds?${new URLSearchParams(query).toString()}`, { bearer: owner.token });

      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page += 1) {
        // The partner is shared with other tests: this test's refunds are those created since its first.
        const answer = await list(partner, { limit: '2', createdFrom: since, ...(cursor === undefined ? {} : { cursor }) });
        expect(answer.status).toBe(200);
        seen.push(...answer.body.data.items.map((item: { referenceId: string }) => item.referenceId));
        cursor = answer.body.data.nextCursor ?? undefined;
        if (cursor === undefined) break;
      }
      expect(seen).toEqual([...made].reverse());
      const ofFirst = await list(partner, { collectionReferenceId: first });
      expect(ofFirst.body.data.items.map((item: { amount: number }) => item.amount)).toEqual([4, 2]);
      const byExternalId = await list(partner, { externalId: (await stack.client.get(`/partner/v1/refund/${made[1]}`, { bearer: partner.token })).body.data.externalId, status: 'completed' });
      expect(byExternalId.body.data.items.map((item: { referenceId: string }) => item.referenceId)).toEqual([made[1]]);
      expect((await list(stranger, {})).body.data.items).toEqual([]);
      const foreignRefund = await stack.client.get(`/partner/v1/refund/${made[0]}`, { bearer: stranger.token });
      expect([foreignRefund.status, foreignRefund.body.code]).toEqual([403, 'PKC_6005']);
      const bad = await list(partner, { status: 'refunded' });
      expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'PKC_2008', expect.stringContaining('status')]);
    });

    test('when 30 partial refunds whose sum exceeds the collected amount race, then the refunded total never exceeds it and the balances agree with the refunds that succeeded', async () => {
      const referenceId = await completedCollection(partner, user, 30);
      const before = await balances(partner, user);

      const answers = await Promise.all(Array.from({ length: 30 }, () => refund(partner, referenceId, { externalId: `race-${randomUUID()}`, amount: 1.5 })));
      const succeeded = answers.filter((answer) => answer.status === 200);
      for (const answer of answers) {
        if (answer.status !== 200) expect([answer.status, answer.body.code]).toEqual([409, 'PKC_6006']);
      }
      expect(succeeded.length).toBe(20);
      const refundedMinor = BigInt(succeeded.length) * 150n;
      expect(moved(before, await balances(partner, user))).toEqual({ user: refundedMinor, partner: -refundedMinor, fees: 0n });
      const collection = await stack.client.get(`/partner/v1/collection/${referenceId}`, { bearer: partner.token });
      expect(collection.body.data.refundedAmount).toBe(30);
    });
  });

  /** The webhooks of one kind received about a referenceId, as they arrived (signatures unchecked here). */
  function webhooksOf(referenceId: string, event: string): ReceivedWebhook[] {
    return endpoint.received.filter((hook) => {
      const body = JSON.parse(hook.body) as Record<string, unknown>;
      return body.referenceId === referenceId && body.event === event;
    });
  }

  /** The partner's events of one kind about a referenceId, from GET /partner/v1/events (the partner is shared; one page holds them). */
  async function listedEventsOf(owner: TestPartner, referenceId: string, type: string): Promise<Record<string, any>[]> {
    const answer = await stack.client.get(`/partner/v1/events?${new URLSearchParams({ type, limit: '100' }).toString()}`, { bearer: owner.token });
    expect(answer.status).toBe(200);
    return (answer.body.data.items as Record<string, any>[]).filter((item) => item.payload?.referenceId === referenceId);
  }

  describe('the operator’s reversal of a disbursement sent in error', () => {
    test('when the operator reverses a completed disbursement, then the user gives back the amount, the partner gets it back without the fee, the statement shows a reversal, and a second reversal is refused', async () => {
      await fundPartner(stack, partner.partnerId, 'USD', '100.00');
      const payee = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
      const quote = await disbursementQuote(stack.client, partner.token, payee, 12.5);
      const externalId = `payout-${randomUUID()}`;
      const paid = await transfer(stack.client, partner.token, { quoteId: quote.quoteId, externalId });
      expect(paid.status).toBe(200);
      const disbursement = paid.body.data.referenceId as string;
      const before = await balances(partner, payee);
      // The partner is shared: the statement from here on holds the reversal alone.
      const since = new Date().toISOString();

      const reversal = await stack.walletOperator(['reverse-disbursement', '--reference-id', disbursement, '--reason', 'paid to the wrong number']);
      expect(JSON.stringify(reversal)).toContain('TXN-');
      const after = await balances(partner, payee);
      expect(moved(before, after)).toEqual({ user: -1250n, partner: 1250n, fees: 0n });

      const statement = await stack.client.get(
        `/partner/v1/statement?${new URLSearchParams({ currency: 'USD', from: since, to: new Date(Date.now() + 60_000).toISOString(), limit: '100' }).toString()}`,
        { bearer: partner.token },
      );
      expect(statement.body.data.items).toHaveLength(1);
      expect(statement.body.data.items.at(-1)).toMatchObject({ type: 'reversal', amount: 12.5, referenceId: disbursement, externalId, balanceAfter: Number(after.partnerMinor) / 100 });
      await expect(stack.walletOperator(['reverse-disbursement', '--reference-id', disbursement, '--reason', 'again'])).rejects.toThrow(/already reversed/);
      expect(moved(after, await balances(partner, payee))).toEqual(nothingMoved);
    });

    test('when the operator reverses a completed disbursement, then the partner sees it: the status endpoint’s reversal (status still completed), one disbursement.reversed in the events list and one signed webhook; a second reversal changes nothing and sends nothing', async () => {
      await fundPartner(stack, partner.partnerId, 'USD', '100.00');
      const payee = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
      const quote = await disbursementQuote(stack.client, partner.token, payee, 7.25);
      const externalId = `payout-${randomUUID()}`;
      const paid = await transfer(stack.client, partner.token, { quoteId: quote.quoteId, externalId });
      expect(paid.status).toBe(200);
      const disbursement = paid.body.data.referenceId as string;
      const before = await balances(partner, payee);

      const answer = await stack.walletOperator(['reverse-disbursement', '--reference-id', disbursement, '--reason', 'paid to the wrong number']);
      const reversalTransactionId = (answer.reversal as { transactionId: string }).transactionId;
      expect(reversalTransactionId).toMatch(/^TXN-[0-9A-F]+$/);
      const after = await balances(partner, payee);
      expect(moved(before, after)).toEqual({ user: -725n, partner: 725n, fees: 0n });

      const status = await pollUntil(
        () => stack.client.get(`/partner/v1/disbursement/${disbursement}`, { bearer: partner.token }),
        (read) => read.body?.data?.reversal !== undefined,
        15_000,
        100,
      );
      const reversal = { transactionId: reversalTransactionId, amount: 7.25, currency: 'USD', reversedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) };
      expect(status.body.data).toMatchObject({ referenceId: disbursement, externalId, status: 'completed', transactionId: paid.body.data.transactionId, amount: 7.25, netAmount: 7.25, reversal });
      expect(Object.keys(status.body.data.reversal as object).sort()).toEqual(['amount', 'currency', 'reversedAt', 'transactionId']);
      // Another partner does not see it.
      expect((await stack.client.get(`/partner/v1/disbursement/${disbursement}`, { bearer: stranger.token })).body.code).toBe('PKC_6005');

      const delivered = await pollUntil(
        () => Promise.resolve(webhooksOf(disbursement, 'disbursement.reversed')),
        (hooks) => hooks.length > 0,
        15_000,
        100,
      );
      const [hook] = delivered;
      if (!hook) throw new Error('no disbursement.reversed webhook');
      expect(verifiesServiceSignature(hook, partner.webhookSecret)).toBe(true);
      expect(verifiesStandardSignature(hook, partner.webhookSecret)).toBe(true);
      expect(endpoint.contractMismatches).toEqual([]);
      const body = JSON.parse(hook.body) as Record<string, unknown>;
      expect(body).toEqual({
        event: 'disbursement.reversed',
        referenceId: disbursement,
        externalId,
        amount: 7.25,
        currency: 'USD',
        fee: quote.fee,
        status: 'completed',
        transactionId: paid.body.data.transactionId,
        timestamp: status.body.data.reversal.reversedAt,
        reversal: status.body.data.reversal,
      });
      const listed = await listedEventsOf(partner, disbursement, 'disbursement.reversed');
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ eventId: hook.headers['webhook-id'], type: 'disbursement.reversed', payload: body });

      // A second reversal is refused: no money, no second event, no second webhook (after the relays' and the worker's polls).
      await expect(stack.walletOperator(['reverse-disbursement', '--reference-id', disbursement, '--reason', 'again'])).rejects.toThrow(/already reversed/);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(moved(after, await balances(partner, payee))).toEqual(nothingMoved);
      expect(webhooksOf(disbursement, 'disbursement.reversed')).toHaveLength(1);
      expect(await listedEventsOf(partner, disbursement, 'disbursement.reversed')).toHaveLength(1);
      expect((await stack.client.get(`/partner/v1/disbursement/${disbursement}`, { bearer: partner.token })).body.data.reversal).toEqual(status.body.data.reversal);
    });
  });

  describe('a refund the wallet does not answer in time', () => {
    test('when the posting outlasts the collections service’s deadline, then 202 processing, and the recovery worker settles it completed once: the money moved exactly once and refund.completed is delivered', async () => {
      // A wallet whose postings stall 3 s before claiming the transfer id, behind a collections
      // process that waits 1 s for it and whose recovery re-drives after 4 s, with its own gateway.
      const slowWallet = await stack.startExtraService('wallet', { WALLET_POST_DELAY_MS: '3000', WALLET_POST_DELAY_POINT: 'before_claim' });
      const collections = await stack.startExtraService('collections', {
        WALLET_URL: slowWallet.url,
        UPSTREAM_TIMEOUT_MS: '1000',
        RECOVERY_DELAY_MS: '4000',
        RECOVERY_INTERVAL_MS: '200',
        RECOVERY_POSTING_ATTEMPTS_MAX: '1',
        OUTBOX_POLL_INTERVAL_MS: '100',
      });
      const gateway = await stack.startExtraGateway({ COLLECTIONS_URL: collections.url });
      try {
        const referenceId = await completedCollection(partner, user, 9);
        const before = await balances(partner, user);

        const answer = await gateway.client.post(`/partner/v1/collection/${referenceId}/refund`, { externalId: `slow-${randomUUID()}` }, { bearer: partner.token });
        expect([answer.status, answer.body.data?.status, answer.body.data?.collectionRefundedAmount]).toEqual([202, 'processing', 9]);
        const refundId = answer.body.data.referenceId as string;

        const settled = await pollUntil(
          () => stack.client.get(`/partner/v1/refund/${refundId}`, { bearer: partner.token }),
          (read) => read.body?.data?.status !== 'processing',
          20_000,
          200,
        );
        expect(settled.body.data).toMatchObject({ status: 'completed', transactionId: expect.stringMatching(/^TXN-/), collectionRefundedAmount: 9 });
        expect(moved(before, await balances(partner, user))).toEqual({ user: 900n, partner: -900n, fees: 0n });
        expect(await webhookFor(refundId)).toMatchObject({ event: 'refund.completed', transactionId: settled.body.data.transactionId });
      } finally {
        await gateway.stop();
        await collections.stop();
        await slowWallet.stop();
      }
    });
  });
});
