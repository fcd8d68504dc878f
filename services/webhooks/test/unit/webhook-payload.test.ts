import { parseBulkEventData, parseCollectionEventData, parseDisbursementEventData, publicApi } from '@pwa/contracts';
import { deliveryReferenceIdOf, webhookBodyOf, webhookPayloadOf } from '../../src/domain/webhook-payload';

const disbursementFailed = {
  eventId: '0b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  partnerId: '1b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  event: 'disbursement.failed',
  referenceId: 'PKD-1714521600000-00112233445566778899AABB',
  externalId: 'payout-9',
  amount: 10.5,
  currency: 'USD',
  fee: 0.36,
  totalDebit: 10.86,
  status: 'failed',
  failureCode: 'PKC_3002',
  timestamp: '2024-05-01T00:00:01.000Z',
} as const;

const collectionCompleted = {
  eventId: '2b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  event: 'collection.completed',
  partnerId: '1b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  referenceId: 'PKC-1714521600000-00112233445566778899AABBCCDDEEFF',
  externalId: 'order-17',
  amount: 125.5,
  currency: 'LRD',
  fee: 1.25,
  status: 'completed',
  transactionId: 'TXN-0A1B2C',
  timestamp: '2024-05-01T00:00:01.000Z',
} as const;

describe('webhook payload', () => {
  test('when a disbursement was reversed, then the body is the completed disbursement’s spec fields in order, then reversal (its fields in order), and matches the public schema', () => {
    const reversal = { transactionId: 'TXN-DEF456', amount: 10.5, currency: 'USD', reversedAt: '2024-05-02T08:00:00.000Z' };
    const data = parseDisbursementEventData({
      ...disbursementFailed,
      event: 'disbursement.reversed',
      status: 'completed',
      failureCode: undefined,
      transactionId: 'TXN-ABC123',
      timestamp: reversal.reversedAt,
      reversal,
    });

    const body = JSON.parse(webhookBodyOf(data)) as Record<string, unknown>;

    expect(Object.keys(body)).toEqual(['event', 'referenceId', 'externalId', 'amount', 'currency', 'fee', 'status', 'transactionId', 'timestamp', 'reversal']);
    expect(Object.keys(body.reversal as object)).toEqual(['transactionId', 'amount', 'currency', 'reversedAt']);
    expect(body).toMatchObject({ event: 'disbursement.reversed', status: 'completed', transactionId: 'TXN-ABC123', reversal });
    expect(body).not.toHaveProperty('partnerId');
    expect(body).not.toHaveProperty('totalDebit');
    expect(publicApi.webhookPayloadSchemas['disbursement.reversed'].safeParse(body).success).toBe(true);
    expect(publicApi.webhookPayloadSchemas['disbursement.completed'].safeParse(body).success).toBe(false);
  });

  test('when a failed event carries failureReason, then the body has the spec fields in order and failureReason last', () => {
    const reason = { code: 'PKC_3002', message: 'User account not active (suspended or closed)' };
    const data = parseDisbursementEventData({ ...disbursementFailed, failureReason: reason });

    const body = webhookBodyOf(data);

    expect(Object.keys(JSON.parse(body) as object)).toEqual(['event', 'referenceId', 'externalId', 'amount', 'currency', 'fee', 'status', 'timestamp', 'failureReason']);
    expect(JSON.parse(body)).toMatchObject({ status: 'failed', failureReason: reason });
    expect(body).not.toContain('partnerId');
    expect(body).not.toContain('failureCode');
  });

  test('when an old failed event has failureCode alone, then the webhook still gives a failureReason with the catalogue message', () => {
    const data = parseDisbursementEventData(disbursementFailed);
    expect(webhookPayloadOf(data).failureReason).toEqual({ code: 'PKC_3002', message: 'User account not active (suspended or closed)' });
    const collection = parseCollectionEventData({ ...collectionCompleted, event: 'collection.failed', status: 'failed', transactionId: undefined, failureCode: 'PKC_4001' });
    expect(webhookPayloadOf(collection).failureReason).toEqual({ code: 'PKC_4001', message: 'User balance insufficient for amount plus fee' });
  });

  test('when an event did not fail, then the body has exactly the spec fields and no failureReason', () => {
    const payload = webhookPayloadOf(parseCollectionEventData(collectionCompleted));
    expect(Object.keys(payload)).toEqual(['event', 'referenceId', 'externalId', 'amount', 'currency', 'fee', 'status', 'transactionId', 'timestamp']);
  });

  test('when a bulk completes, then the body is its figures named by bulkId, without eventId or partnerId, and its delivery is listed under the bulkId', () => {
    const data = parseBulkEventData({
      eventId: '3b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
      partnerId: '1b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
      event: 'bulk.completed',
      bulkId: 'PKB-1714521600000-00112233445566778899AABB',
      externalId: 'payroll-5',
      status: 'completed',
      currency: 'LRD',
      itemCount: 2,
      completedCount: 2,
      failedCount: 0,
      totalAmount: 200,
      totalFee: 4,
      completedAmount: 200,
      completedFee: 4,
      timestamp: '2024-05-01T00:00:01.000Z',
    });

    const body = JSON.parse(webhookBodyOf(data)) as Record<string, unknown>;

    expect(body).toEqual({ event: 'bulk.completed', bulkId: data.bulkId, externalId: 'payroll-5', status: 'completed', currency: 'LRD', itemCount: 2, completedCount: 2, failedCount: 0, totalAmount: 200, totalFee: 4, completedAmount: 200, completedFee: 4, timestamp: '2024-05-01T00:00:01.000Z' });
    expect(publicApi.webhookPayloadSchemas['bulk.completed'].parse(body)).toEqual(body);
    expect(deliveryReferenceIdOf(data)).toBe(data.bulkId);
  });
});
