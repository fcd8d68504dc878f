import { publicApi } from '@pwa/contracts';
import { deliveryPayloadText } from '../lib/webhook-delivery-line';

describe('the local webhook receiver’s line for a delivery', () => {
  test('when bulk.completed is delivered, then the line names the bulk by bulkId and gives its status', () => {
    const payload = publicApi.webhookPayloadExamples['bulk.completed'];
    expect(deliveryPayloadText(payload)).toBe(`event=bulk.completed bulkId=${String(payload.bulkId)} status=completed_with_failures`);
  });

  test('when a transaction event is delivered, then the line names its referenceId, not a bulk', () => {
    const payload: Record<string, unknown> = { ...publicApi.webhookPayloadExamples['disbursement.completed'], bulkId: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D' };
    expect(deliveryPayloadText(payload)).toBe(`event=disbursement.completed referenceId=${String(payload.referenceId)} status=completed`);
  });

  test('when a refund event is delivered, then the line also names the refunded collection', () => {
    const payload = publicApi.webhookPayloadExamples['refund.completed'];
    expect(deliveryPayloadText(payload)).toMatch(new RegExp(`^event=refund\\.completed referenceId=${String(payload.referenceId)} status=completed collectionReferenceId=PKC-`));
  });
});
