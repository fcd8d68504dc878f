import { randomUUID } from 'node:crypto';
import { createCollection } from '../support/collection-flow';
import { databaseFingerprint } from '../support/database-fingerprint';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { accessTokenFor, pollUntil } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The statement (wallet, from the ledger; decision 0050) and the event log (webhooks; decision
 * 0051) through the gateway over HTTPS, as a partner reconciling would read them.
 */
interface TestPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

const hourMs = 60 * 60 * 1000;

describe('statement and events', () => {
  let stack: Stack;
  let user: WalletUser;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '200,200,200' },
      },
    });
    user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', '10000');
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await stack?.stop();
  });

  async function receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver(...args);
    receivers.push(started);
    return started;
  }

  async function onboard(webhookUrl?: string): Promise<TestPartner> {
    const args = ['onboard', '--name', `Statement partner ${Math.random().toString(36).slice(2, 8)}`, '--permissions', 'collection,disbursement', '--rate-limit', '100000'];
    if (webhookUrl !== undefined) args.push('--webhook-url', webhookUrl);
    const { partnerId, clientId, clientSecret } = (await stack.operator(args)) as Record<string, string>;
    const partner = { partnerId: partnerId ?? '', clientId: clientId ?? '', clientSecret: clientSecret ?? '' };
    return { ...partner, token: await accessTokenFor(stack.client, partner) };
  }

  async function disburse(partner: TestPartner, amount: number, externalId = `payout-${randomUUID()}`): Promise<{ referenceId: string; fee: number; externalId: string }> {
    const quote = await disbursementQuote(stack.client, partner.token, user, amount);
    const sent = await transfer(stack.client, partner.token, { quoteId: quote.quoteId, externalId });
    expect([sent.status, sent.body?.data?.status]).toEqual([200, 'completed']);
    return { referenceId: sent.body.data.referenceId as string, fee: quote.fee, externalId };
  }

  async function approvedCollection(partner: TestPartner, amount: number, externalId = `order-${randomUUID()}`): Promise<{ referenceId: string; externalId: string }> {
    const referenceId = await createCollection(stack.client, partner.token, { phone: user.phone, amount, currency: 'USD', externalId });
    const approved = await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/approve`, {}, { bearer: partner.token });
    expect([approved.status, approved.body?.data?.status]).toEqual([200, 'completed']);
    return { referenceId, externalId };
  }

  const period = () => ({ currency: 'USD', from: new Date(Date.now() - hourMs).toISOString(), to: new Date(Date.now() + hourMs).toISOString() });
  const statement = (partner: TestPartner, query: Record<string, string>) => stack.client.get(`/partner/v1/statement?${new URLSearchParams(query).toString()}`, { bearer: partner.token });

  describe('GET /partner/v1/statement', () => {
    test('when a partner was funded, disbursed and collected, then the statement lists each movement with its referenceId, externalId and the balance after it, and closes at GET /balance', async () => {
      const partner = await onboard();
      await fundPartner(stack, partner.partnerId, 'USD', '500.00');
      const payout = await disburse(partner, 40.25);
      const order = await approvedCollection(partner, 12.5);

      const answer = await statement(partner, period());
      expect(answer.status).toBe(200);
      const page = answer.body.data;
      const feeAfter = Math.round((500 - 40.25 - payout.fee) * 100) / 100;
      expect(page.items.map((item: any) => [item.type, item.amount, item.balanceAfter, item.referenceId, item.externalId])).toEqual([
        ['funding', 500, 500, expect.stringMatching(/^TXN-/), null],
        ['disbursement', -40.25, 459.75, payout.referenceId, payout.externalId],
        ...(payout.fee > 0 ? [['disbursement_fee', -payout.fee, feeAfter, payout.referenceId, payout.externalId]] : []),
        ['collection', 12.5, Math.round((feeAfter + 12.5) * 100) / 100, order.referenceId, order.externalId],
      ]);
      const balance = await stack.client.get('/partner/v1/balance', { bearer: partner.token });
      expect([page.openingBalance, page.closingBalance]).toEqual([0, balance.body.data.USD]);
    });

    test('when the statement is paged two movements at a time while new disbursements arrive, then the pages hold the period’s movements once each, in order, with the same balances', async () => {
      const partner = await onboard();
      await fundPartner(stack, partner.partnerId, 'USD', '1000.00');
      for (let index = 0; index < 4; index += 1) await disburse(partner, 5 + index);
      // The period ends now: the disbursements made while paging fall after it.
      const query = { ...period(), to: new Date().toISOString() };
      const whole = (await statement(partner, query)).body.data;
      expect(whole.items.length).toBeGreaterThanOrEqual(7);

      const pages: any[] = [];
      let cursor: string | undefined;
      for (let index = 0; index < 20; index += 1) {
        const answer = await statement(partner, { ...query, limit: '2', ...(cursor ? { cursor } : {}) });
        expect(answer.status).toBe(200);
        pages.push(answer.body.data);
        // A new movement after the period ends must not enter it.
        await disburse(partner, 1);
        cursor = answer.body.data.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect(pages.length).toBeGreaterThan(3);
      expect(pages.flatMap((page) => page.items)).toEqual(whole.items);
      for (const page of pages) expect([page.openingBalance, page.closingBalance]).toEqual([whole.openingBalance, whole.closingBalance]);
    });

    test('when the CSV form is asked for (format=csv, or Accept: text/csv through the gateway), then it holds the JSON page’s rows as RFC 4180 lines, with the balances in headers', async () => {
      const partner = await onboard();
      await fundPartner(stack, partner.partnerId, 'USD', '100.00');
      await disburse(partner, 10, 'payout,"quoted"');
      const query = period();
      const json = (await statement(partner, query)).body.data;
      const csv = await stack.client.get(`/partner/v1/statement?${new URLSearchParams({ ...query, format: 'csv' }).toString()}`, { bearer: partner.token });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect([csv.headers['x-opening-balance'], csv.headers['x-closing-balance']]).toEqual([String(json.openingBalance), String(json.closingBalance)]);
      const quote = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
      const expected = [
        'postedAt,type,referenceId,transactionId,externalId,amount,balanceAfter',
        ...json.items.map((item: any) => [item.postedAt, item.type, item.referenceId, item.transactionId, quote(item.externalId ?? ''), String(item.amount), String(item.balanceAfter)].join(',')),
        '',
      ].join('\r\n');
      expect(csv.text).toBe(expected);
      // The same page asked for by content negotiation: the gateway passes Accept on for this route.
      const negotiated = await stack.client.get(`/partner/v1/statement?${new URLSearchParams(query).toString()}`, { bearer: partner.token, headers: { accept: 'text/csv' } });
      expect([negotiated.status, negotiated.headers['content-type'], negotiated.text]).toEqual([200, csv.headers['content-type'], expected]);
      expect(negotiated.headers['x-closing-balance']).toBe(String(json.closingBalance));
    });

    test.each([
      ['no currency', { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }, 'currency'],
      ['from after to', { currency: 'USD', from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
      ['a period of 32 days', { currency: 'USD', from: '2026-01-01T00:00:00Z', to: '2026-02-02T00:00:00Z' }, 'to'],
      ['from not ISO 8601', { currency: 'USD', from: 'yesterday', to: '2026-01-02T00:00:00Z' }, 'from'],
      ['a forged cursor', { currency: 'USD', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', cursor: 'Zm9yZ2Vk' }, 'cursor'],
    ])('when the statement is asked with %s, then 400 PKC_2008 names the parameter and nothing changes', async (_case, query, name) => {
      const partner = await onboard();
      const before = await databaseFingerprint(stack.databaseUrl, ['wallet']);
      const answer = await statement(partner, query);
      expect([answer.status, answer.body.code, answer.body.message]).toEqual([400, 'PKC_2008', expect.stringContaining(name)]);
      expect(await databaseFingerprint(stack.databaseUrl, ['wallet'])).toEqual(before);
    });

    test('when another partner uses a partner’s cursor, then 400 PKC_2008 and its statement shows none of the first partner’s movements', async () => {
      const owner = await onboard();
      const stranger = await onboard();
      await fundPartner(stack, owner.partnerId, 'USD', '50.00');
      await disburse(owner, 1);
      const query = period();
      const first = (await statement(owner, { ...query, limit: '1' })).body.data;
      const borrowed = await statement(stranger, { ...query, limit: '1', cursor: first.nextCursor });
      expect([borrowed.status, borrowed.body.code]).toEqual([400, 'PKC_2008']);
      expect((await statement(stranger, query)).body.data).toMatchObject({ items: [], openingBalance: 0, closingBalance: 0 });
    });
  });

  describe('GET /partner/v1/events', () => {
    const events = (partner: TestPartner, query = '') => stack.client.get(`/partner/v1/events${query}`, { bearer: partner.token });

    test('when webhooks were delivered, then each one is in the list and readable by id with the same id, payload and timestamp', async () => {
      const endpoint = await receiver();
      const partner = await onboard(endpoint.url);
      await fundPartner(stack, partner.partnerId, 'USD', '100.00');
      await approvedCollection(partner, 3);
      await disburse(partner, 2);
      const delivered = await endpoint.waitFor(2, 10_000);

      const list = await pollUntil(() => events(partner), (answer) => answer.body?.data?.items?.length === 2, 5_000);
      expect(list.status).toBe(200);
      for (const webhook of delivered) {
        const id = webhook.headers['webhook-id'];
        const item = list.body.data.items.find((candidate: any) => candidate.eventId === id);
        expect(item?.payload).toEqual(JSON.parse(webhook.body));
        const one = await events(partner, `/${String(id)}`);
        expect(one.status).toBe(200);
        expect(one.body.data).toEqual({ ...item, deliveryStatus: expect.any(String) });
      }
      expect(list.body.data.items.map((item: any) => item.type).sort()).toEqual(['collection.completed', 'disbursement.completed']);
    });

    test('when the webhook receiver fails every attempt, then the event is listed all the same, marked failed', async () => {
      const endpoint = await receiver(() => 500);
      const partner = await onboard(endpoint.url);
      await approvedCollection(partner, 2);
      const list = await pollUntil(() => events(partner), (answer) => answer.body?.data?.items?.[0]?.deliveryStatus === 'failed', 10_000);
      expect(list.body.data.items).toEqual([expect.objectContaining({ type: 'collection.completed', deliveryStatus: 'failed' })]);
      expect(endpoint.received.length).toBeGreaterThanOrEqual(1);
      expect(list.body.data.items[0].eventId).toBe(endpoint.received[0]?.headers['webhook-id']);
    });

    test('when filtered by type and since and paged, then only matching events come, oldest first, each once; another partner sees none; an unknown id is 404', async () => {
      const partner = await onboard();
      await fundPartner(stack, partner.partnerId, 'USD', '100.00');
      await approvedCollection(partner, 1);
      await disburse(partner, 1);
      await approvedCollection(partner, 1);
      await approvedCollection(partner, 1);
      const all = await pollUntil(() => events(partner), (answer) => answer.body?.data?.items?.length === 4, 5_000);
      const items = all.body.data.items as any[];
      expect(items.map((item) => item.createdAt)).toEqual([...items.map((item) => item.createdAt)].sort());
      expect(items.every((item) => item.deliveryStatus === 'skipped')).toBe(true);

      const collected: string[] = [];
      let cursor: string | null = null;
      for (let index = 0; index < 10; index += 1) {
        const page: any = await events(partner, `?type=collection.completed&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        collected.push(...page.body.data.items.map((item: any) => item.eventId));
        cursor = page.body.data.nextCursor;
        if (!cursor) break;
      }
      expect(collected).toEqual(items.filter((item) => item.type === 'collection.completed').map((item) => item.eventId));
      const since = await events(partner, `?since=${encodeURIComponent(items[2].createdAt)}`);
      // since is inclusive and createdAt has millisecond precision: events recorded in the same millisecond as the third come too
      const fromThird = items.filter((item) => item.createdAt >= items[2].createdAt).map((item) => item.eventId);
      expect(since.body.data.items.map((item: any) => item.eventId)).toEqual(fromThird);

      const stranger = await onboard();
      expect((await events(stranger)).body.data.items).toEqual([]);
      expect([(await events(stranger, `/${items[0].eventId}`)).status, (await events(stranger, `/${randomUUID()}`)).body.code]).toEqual([404, 'PKC_6002']);
    });

    test.each([['?type=payout', 'type'], ['?since=last-week', 'since'], ['?limit=500', 'limit'], ['?cursor=Zm9yZ2Vk', 'cursor']])('when the list is asked with %s, then 400 PKC_2008 names %s', async (query, name) => {
      const partner = await onboard();
      const answer = await events(partner, query);
      expect([answer.status, answer.body.code, answer.body.message]).toEqual([400, 'PKC_2008', expect.stringContaining(name)]);
    });
  });
});
