import { parseCollectionEventData } from '@pwa/contracts';
import type { Collection } from '../../src/domain/collection';
import { statusView } from '../../src/domain/collection-views';
import { failureCodeOf, failureMessageFor, failureReasonOf } from '../../src/domain/failure-reason';
import { collectionEvent } from '../../src/events/collection-events';

const pending: Collection = {
  id: '0b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  referenceId: 'PKC-1714521600000-00112233445566778899AABBCCDDEEFF',
  partnerId: '1b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  externalId: 'order-1',
  quoteId: '2b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  phone: '+231770000001',
  recipientName: 'Musu',
  currency: 'USD',
  amountMinor: 10_000n,
  feeMinor: 100n,
  note: null,
  status: 'pending_approval',
  expiresAt: new Date('2024-05-01T00:10:00.000Z'),
  createdAt: new Date('2024-05-01T00:00:00.000Z'),
  approvedAt: null,
  resolvedAt: null,
  transactionId: null,
  failureCode: null,
  failureMessage: null,
  postingAttempts: 0,
  refundedMinor: 0n,
};

const failed: Collection = {
  ...pending,
  status: 'failed',
  approvedAt: new Date('2024-05-01T00:01:00.000Z'),
  resolvedAt: new Date('2024-05-01T00:01:01.000Z'),
  failureCode: 'PKC_3002',
  failureMessage: failureMessageFor('PKC_3002'),
};

describe('failure reasons', () => {
  test('when the wallet refused the posting, then the reason is its code with the catalogue message', () => {
    expect(failureReasonOf(failed)).toEqual({ code: 'PKC_3002', message: 'User account not active (suspended or closed)' });
  });

  test('when the posting was abandoned or a processing error happened, then the message says nothing was posted', () => {
    expect(failureMessageFor('PKC_7003')).toContain('nothing was posted');
    expect(failureMessageFor('PKC_7002')).toContain('nothing was posted');
  });

  test('when a refusal code is outside the catalogue, then the partner is told PKC_7002, never the upstream text', () => {
    expect(failureCodeOf('WALLET_OOPS')).toBe('PKC_7002');
    expect(failureCodeOf('PKC_4001')).toBe('PKC_4001');
  });

  test('when a row failed before messages were stored, then its reason carries the message its code gets now', () => {
    expect(failureReasonOf({ ...failed, failureCode: 'PKC_7003', failureMessage: null })).toEqual({ code: 'PKC_7003', message: failureMessageFor('PKC_7003') });
  });

  test('when a collection did not fail, then it has no reason', () => {
    expect(failureReasonOf(pending)).toBeUndefined();
    expect(failureReasonOf({ ...pending, status: 'declined' })).toBeUndefined();
  });
});

describe('status view', () => {
  test('when a collection failed, then the status view carries failureReason and no transactionId', () => {
    const view = statusView(failed);
    expect(view).toMatchObject({ status: 'failed', failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' } });
    expect(view).not.toHaveProperty('transactionId');
  });

  test('when a collection is pending or declined, then the status view has no failureReason', () => {
    expect(statusView(pending)).not.toHaveProperty('failureReason');
    expect(statusView({ ...pending, status: 'declined' })).not.toHaveProperty('failureReason');
  });
});

describe('events', () => {
  test('when a collection failed, then collection.failed carries failureCode and failureReason that parse', () => {
    const envelope = collectionEvent('collection.failed', failed, new Date('2024-05-01T00:01:01.000Z'));
    expect(parseCollectionEventData(envelope.data)).toMatchObject({
      event: 'collection.failed',
      status: 'failed',
      failureCode: 'PKC_3002',
      failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' },
    });
  });

  test('when a collection is requested or declined, then its event carries no failure fields', () => {
    for (const [type, collection] of [['collection.requested', pending], ['collection.declined', { ...pending, status: 'declined' as const }]] as const) {
      const data = collectionEvent(type, collection).data;
      expect(data).not.toHaveProperty('failureCode');
      expect(data).not.toHaveProperty('failureReason');
    }
  });

  test('when the partner cancelled a collection, then the status view says cancelled without transactionId, and collection.cancelled parses with the webhook fields', () => {
    const cancelled: Collection = { ...pending, status: 'cancelled', resolvedAt: new Date('2024-05-01T00:02:00.000Z') };
    const view = statusView(cancelled);
    expect(view).toMatchObject({ referenceId: pending.referenceId, status: 'cancelled', amount: 100, fee: 1 });
    expect(view).not.toHaveProperty('transactionId');
    expect(view).not.toHaveProperty('refundedAmount');

    const envelope = collectionEvent('collection.cancelled', cancelled, new Date('2024-05-01T00:02:00.000Z'));
    expect(envelope.type).toBe('collection.cancelled');
    expect(parseCollectionEventData(envelope.data)).toMatchObject({ event: 'collection.cancelled', status: 'cancelled', referenceId: pending.referenceId, amount: 100, fee: 1, timestamp: '2024-05-01T00:02:00.000Z' });
    expect(envelope.data).not.toHaveProperty('transactionId');
  });
});
