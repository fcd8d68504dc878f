import { PartnerApiClient, paginate } from '../../src';
import { FakeApi, fakeClock, ok } from './fake-api';

const clientOf = (api: FakeApi): PartnerApiClient => new PartnerApiClient({ baseUrl: 'https://api.example.test/api/v1', clientId: 'client', clientSecret: 'secret', fetch: api.fetch, clock: fakeClock() });

describe('auto-pagination', () => {
  test('when a list has three pages, then the iterator yields every item in order, passing each nextCursor and keeping the filters', async () => {
    const api = new FakeApi()
      .script('/partner/v1/collections?status=completed', ok({ items: [{ referenceId: 'a' }, { referenceId: 'b' }], nextCursor: 'c1', hasMore: true }))
      .script('/partner/v1/collections?status=completed&cursor=c1', ok({ items: [{ referenceId: 'c' }], nextCursor: 'c2', hasMore: true }))
      .script('/partner/v1/collections?status=completed&cursor=c2', ok({ items: [{ referenceId: 'd' }], nextCursor: null, hasMore: false }));
    const seen: string[] = [];

    for await (const collection of clientOf(api).iterateCollections({ status: 'completed' })) seen.push(collection.referenceId);

    expect(seen).toEqual(['a', 'b', 'c', 'd']);
  });

  test('when the caller stops early, then no further page is fetched', async () => {
    const api = new FakeApi()
      .script('/partner/v1/disbursements', ok({ items: [{ referenceId: 'a' }, { referenceId: 'b' }], nextCursor: 'c1', hasMore: true }))
      .script('/partner/v1/disbursements?cursor=c1', ok({ items: [{ referenceId: 'c' }], nextCursor: null, hasMore: false }));

    for await (const disbursement of clientOf(api).iterateDisbursements()) if (disbursement.referenceId === 'a') break;

    expect(api.sent.map((request) => request.path)).toEqual(['/partner/auth/token', '/partner/v1/disbursements']);
  });

  test('when the webhook deliveries list pages as every list does (its deprecated deliveries alias beside), then its iterator reads items', async () => {
    const api = new FakeApi()
      .script('/partner/v1/webhooks/deliveries?status=failed', ok({ items: [{ deliveryId: '1' }], nextCursor: 'n1', hasMore: true, deliveries: [{ deliveryId: '1' }] }))
      .script('/partner/v1/webhooks/deliveries?status=failed&cursor=n1', ok({ items: [{ deliveryId: '2' }], nextCursor: null, hasMore: false, deliveries: [{ deliveryId: '2' }] }));
    const seen: string[] = [];

    for await (const delivery of clientOf(api).iterateWebhookDeliveries({ status: 'failed' })) seen.push(delivery.deliveryId);

    expect(seen).toEqual(['1', '2']);
  });

  test('when a server gives back a cursor it gave before, then the iterator throws instead of looping', async () => {
    const pages = [{ items: [1], nextCursor: 'x' }, { items: [2], nextCursor: 'x' }];
    let index = 0;
    const seen: number[] = [];
    const run = async (): Promise<void> => {
      for await (const item of paginate(() => Promise.resolve(pages[index++] ?? { items: [], nextCursor: null }), (page) => page)) seen.push(item);
    };

    await expect(run()).rejects.toThrow(/already given/);
    expect(seen).toEqual([1, 2]);
  });

  test('when pagesMax is reached, then the iterator stops there', async () => {
    let count = 0;
    const seen: number[] = [];
    for await (const item of paginate(() => Promise.resolve({ items: [count], nextCursor: `c${++count}` }), (page) => page, { pagesMax: 3 })) seen.push(item);
    expect(seen).toEqual([0, 1, 2]);
  });
});
