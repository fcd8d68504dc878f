import { publicApi, refundStatuses, webhookDeliveryStatuses } from '@pwa/contracts';
import { transactionStatuses } from '../../web/src/statuses';

describe('the Transactions page’s status filters', () => {
  test('when a list is filtered by status, then the page offers exactly the statuses the API accepts for it', () => {
    expect(transactionStatuses).toEqual({
      collections: [...publicApi.collectionStatuses],
      disbursements: [...publicApi.disbursementStatuses],
      refunds: [...refundStatuses],
      deliveries: [...webhookDeliveryStatuses],
    });
  });
});
