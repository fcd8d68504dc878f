import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { publicApi } from '@pwa/contracts';
import { createCollection } from '../support/collection-flow';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import type { JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner, pollUntil, type OnboardedPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../support/wallet-users';

/**
 * Every list of the partner API answers one shape, `data: { items, nextCursor, hasMore }` (decision
 * 0077), through the gateway over HTTPS: the lists are found in the contract (every GET operation
 * that takes a cursor), so a new list is checked without touching this file; paged one item at a
 * time, each list gives every item once, hasMore true exactly while nextCursor is set. The two
 * deprecated aliases answer while they last: the deliveries' `deliveries` (the same array as
 * items) and the bulk status's nested page (the same items as the bulk's /items list). The guide's
 * table of the lists' orders names every list the contract declares. The partner's bulks list pages
 * its own bulks, newest first, and never another partner's.
 */
describe('one shape for every list', () => {
  let stack: Stack;
  let partner: OnboardedPartner;
  let token: string;
  let user: WalletUser;
  let bulkId = '';
  let bulkIds: string[] = [];
  let collectionReferenceId = '';

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    partner = await onboardPartner(stack, { rateLimitPerMinute: 10_000 });
    user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await Promise.all([creditWallet(stack, user, 'USD', '500'), fundPartner(stack, partner.partnerId, 'USD', '500.00')]);
    token = await accessTokenFor(stack.client, partner);
    // Two of each kind: every list has a second page at limit=1.
    for (const amount of [3, 4]) {
      collectionReferenceId = await createCollection(stack.client, token, { phone: user.phone, amount, currency: 'USD', externalId: `order-${randomUUID()}` });
      expect((await stack.client.post(`/partner/v1/sandbox/collection/${collectionReferenceId}/approve`, {}, { bearer: token })).status).toBe(200);
      const quote = await disbursementQuote(stack.client, token, user, amount);
      expect((await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `payout-${randomUUID()}` })).status).toBe(200);
    }
    for (const amount of [1, 2]) {
      expect((await stack.client.post(`/partner/v1/collection/${collectionReferenceId}/refund`, { externalId: `refund-${randomUUID()}`, amount }, { bearer: token })).status).toBeLessThan(300);
    }
    // Two bulks (the bulks list has a second page at limit=1), the second of two items (its items list too).
    bulkIds = [await sendBulk(token, [7]), await sendBulk(token, [5, 6])];
    bulkId = bulkIds[1] ?? '';
    // The deliveries and events lists fill from the bus: wait until each holds every event of the
    // above (2 collections, 2 transfers, 2 refunds, 3 bulk payouts, 2 bulks), so that none arrives
    // while a list is paged (newest first, a late one would shift the pages).
    const everyEvent = 11;
    for (const list of ['/partner/v1/events?limit=100', '/partner/v1/webhooks/deliveries?limit=100']) {
      const filled = await pollUntil(() => stack.client.get(list, { bearer: token }), (answer) => (answer.body?.data?.items?.length ?? 0) >= everyEvent, 20_000);
      expect([list, filled.body.data.items.length]).toEqual([list, everyEvent]);
    }
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** A bulk of the partner paying `user` these amounts, once it is final: its bulkId. */
  async function sendBulk(bearer: string, amounts: readonly number[]): Promise<string> {
    const items = amounts.map((amount) => ({ phone: user.phone, amount, externalId: `bulk-${randomUUID()}` }));
    const bulkQuote = await stack.client.post('/partner/v1/disbursement/bulk/quote', { currency: 'USD', items }, { bearer });
    expect(bulkQuote.status).toBe(200);
    const bulk = await stack.client.post('/partner/v1/disbursement/bulk/transfer', { bulkQuoteId: bulkQuote.body.data.bulkQuoteId, externalId: `bulk-${randomUUID()}` }, { bearer });
    expect(bulk.status).toBe(202);
    const sent = bulk.body.data.bulkId as string;
    await pollUntil(() => stack.client.get(`/partner/v1/disbursement/bulk/${sent}`, { bearer }), (answer) => answer.body?.data?.status !== 'processing', 20_000);
    return sent;
  }

  /** Each list of the contract, with the query that makes it answer (the statement needs its period and currency). */
  const listPaths = (): Map<string, string> => {
    const now = Date.now();
    const queryFor: Record<string, string> = {
      getStatement: `currency=USD&from=${encodeURIComponent(new Date(now - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(now + 3_600_000).toISOString())}`,
    };
    const paths = new Map<string, string>();
    for (const operation of publicApi.publicOperations) {
      const query = operation.request?.query;
      if (operation.method !== 'GET' || query === undefined || !('cursor' in query.shape)) continue;
      const path = operation.pathTemplate.replace(':bulkId', bulkId);
      paths.set(operation.operationId, `${path}?${queryFor[operation.operationId] ?? ''}`);
    }
    return paths;
  };

  test('when the contract lists its lists, then they are the nine the guide names', () => {
    expect([...listPaths().keys()].sort()).toEqual(
      ['getBulkDisbursement', 'getStatement', 'listBulkDisbursementItems', 'listBulkDisbursements', 'listCollections', 'listDisbursements', 'listEvents', 'listRefunds', 'listWebhookDeliveries'].sort(),
    );
  });

  test('when the guide’s table of the lists’ orders is read, then it names every list of the contract (the bulk status’s nested page is a deprecated alias, not a list)', () => {
    const guide = readFileSync(resolve(__dirname, '../../docs/partner-guide.md'), 'utf8');
    const section = guide.slice(guide.indexOf('### Every list has one shape'), guide.indexOf('### Collections and disbursements'));
    const orderTable = section.split('\n').filter((line) => line.startsWith('| `GET '));
    const lists = publicApi.publicOperations.filter((operation) => operation.method === 'GET' && operation.request?.query !== undefined && 'cursor' in operation.request.query.shape && operation.operationId !== 'getBulkDisbursement');
    const unnamed = lists.filter((operation) => {
      const documented = operation.pathTemplate.replace(/:(\w+)/g, '{$1}');
      // The table may shorten a path beside another of the same prefix: `/disbursements` after `GET /partner/v1/collections`.
      const lastSegment = `/${documented.split('/').pop() ?? ''}`;
      return !orderTable.some((line) => line.includes(`\`GET ${documented}\``) || line.includes(`\`${lastSegment}\``));
    });
    expect(unnamed.map((operation) => operation.pathTemplate)).toEqual([]);
  });

  test('when every list is paged one item at a time, then each page is { items, nextCursor, hasMore } and the pages give every item once', async () => {
    for (const [operationId, path] of listPaths()) {
      if (operationId === 'getBulkDisbursement') continue; // a summary whose nested page is the deprecated alias, below
      const whole: JsonResponse = await stack.client.get(`${path}&limit=100`, { bearer: token });
      expect([operationId, whole.status]).toEqual([operationId, 200]);
      const all = whole.body.data.items as unknown[];
      expect([operationId, all.length >= 2, whole.body.data.hasMore, whole.body.data.nextCursor]).toEqual([operationId, true, false, null]);
      const paged: unknown[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 60; page += 1) {
        const answer: JsonResponse = await stack.client.get(`${path}&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { bearer: token });
        const data = answer.body.data as { items: unknown[]; nextCursor: string | null; hasMore: boolean };
        expect([operationId, Array.isArray(data.items), typeof data.hasMore, data.hasMore === (data.nextCursor !== null)]).toEqual([operationId, true, 'boolean', true]);
        paged.push(...data.items);
        cursor = data.nextCursor;
        if (!data.hasMore) break;
      }
      expect([operationId, paged]).toEqual([operationId, all]);
    }
  });

  test('when the deprecated aliases are read, then they hold what the one shape holds', async () => {
    const deliveries = await stack.client.get('/partner/v1/webhooks/deliveries?limit=100', { bearer: token });
    expect(deliveries.body.data.deliveries).toEqual(deliveries.body.data.items);
    const status = await stack.client.get(`/partner/v1/disbursement/bulk/${bulkId}?limit=100`, { bearer: token });
    const items = await stack.client.get(`/partner/v1/disbursement/bulk/${bulkId}/items?limit=100`, { bearer: token });
    expect(status.body.data.items).toEqual(items.body.data);
    expect((items.body.data.items as { index: number }[]).map((item) => item.index)).toEqual([0, 1]);
    // Another partner's bulk is theirs alone, on the new list as on the status.
    const stranger = await onboardPartner(stack);
    const strangerToken = await accessTokenFor(stack.client, stranger);
    expect((await stack.client.get(`/partner/v1/disbursement/bulk/${bulkId}/items`, { bearer: strangerToken })).body.code).toBe('PKC_6005');
  });

  test('when the partner’s bulks are paged, then they come newest first as their summaries, filter by status and period, and another partner’s bulk never appears', async () => {
    const stranger = await onboardPartner(stack, { rateLimitPerMinute: 10_000 });
    await fundPartner(stack, stranger.partnerId, 'USD', '100.00');
    const strangerToken = await accessTokenFor(stack.client, stranger);
    const strangerBulkId = await sendBulk(strangerToken, [2]);

    const pageAll = async (bearer: string, query: string): Promise<Record<string, any>[]> => {
      const items: Record<string, any>[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page += 1) {
        const answer: JsonResponse = await stack.client.get(`/partner/v1/disbursement/bulks?limit=1${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { bearer });
        expect(answer.status).toBe(200);
        items.push(...(answer.body.data.items as Record<string, any>[]));
        cursor = answer.body.data.nextCursor as string | null;
        if (!answer.body.data.hasMore) break;
      }
      return items;
    };

    const mine = await pageAll(token, '');
    expect(mine.map((bulk) => bulk.bulkId)).toEqual([...bulkIds].reverse());
    // Each item is the bulk's summary, as its status answers it without the deprecated nested page.
    for (const bulk of mine) {
      const status = await stack.client.get(`/partner/v1/disbursement/bulk/${String(bulk.bulkId)}`, { bearer: token });
      const { items: nestedPage, ...summary } = status.body.data as Record<string, unknown>;
      expect([nestedPage !== undefined, bulk]).toEqual([true, summary]);
    }
    expect(mine[0]).toMatchObject({ status: 'completed', currency: 'USD', counts: { total: 2, pending: 0, completed: 2, failed: 0 }, totalAmount: 11, completedAmount: 11 });
    expect((await pageAll(strangerToken, '')).map((bulk) => bulk.bulkId)).toEqual([strangerBulkId]);

    const firstCreatedAt = String(mine[1]?.createdAt);
    expect((await pageAll(token, '&status=completed')).map((bulk) => bulk.bulkId)).toEqual([...bulkIds].reverse());
    expect(await pageAll(token, '&status=processing')).toEqual([]);
    expect((await pageAll(token, `&createdTo=${encodeURIComponent(firstCreatedAt)}`)).map((bulk) => bulk.bulkId)).toEqual([]);
    expect((await pageAll(token, `&createdFrom=${encodeURIComponent(firstCreatedAt)}&createdTo=${encodeURIComponent(new Date(Date.parse(firstCreatedAt) + 1).toISOString())}`)).map((bulk) => bulk.bulkId)).toEqual([bulkIds[0]]);

    // A cursor is the partner's own: this partner's cursor is refused on the stranger's list.
    const firstPage = await stack.client.get('/partner/v1/disbursement/bulks?limit=1', { bearer: token });
    const cursor = firstPage.body.data.nextCursor as string;
    const refused = await stack.client.get(`/partner/v1/disbursement/bulks?limit=1&cursor=${encodeURIComponent(cursor)}`, { bearer: strangerToken });
    expect([refused.status, refused.body.code, refused.body.invalidFields?.[0]?.field]).toEqual([400, 'PKC_2008', 'cursor']);
  });
});
