import { deadlineAfter } from '../../src/domain/deadline';
import { statusView, transferView, type Disbursement } from '../../src/domain/disbursement';
import { parseDisbursementEventData } from '@pwa/contracts';
import { disbursementEvent } from '../../src/events/disbursement-events';

const completed: Disbursement = {
  disbursementId: '0b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  referenceId: 'PKD-1714521600000-00112233445566778899AABB',
  partnerId: '1b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  externalId: 'order-1',
  quoteId: '2b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  phone: '+231770000001',
  recipientName: 'Musu',
  currency: 'USD',
  amountMinor: 1_050n,
  feeMinor: 36n,
  note: null,
  status: 'completed',
  transactionId: 'TXN-ABC123',
  failureCode: null,
  createdAt: new Date('2024-05-01T00:00:00.000Z'),
  completedAt: new Date('2024-05-01T00:00:01.000Z'),
};

describe('views', () => {
  test('when a disbursement completed, then the transfer answer has the spec fields with exact amounts', () => {
    expect(transferView(completed)).toEqual({ referenceId: completed.referenceId, status: 'completed', transactionId: 'TXN-ABC123', amount: 10.5, currency: 'USD', fee: 0.36, totalDebit: 10.86 });
  });

  test('when a disbursement timed out, then the status answer is failed with PKC_7004 and no transaction', () => {
    const view = statusView({ ...completed, status: 'timed_out', transactionId: null, completedAt: null, failureCode: 'PKC_7004' });
    expect(view).toMatchObject({ status: 'failed', transactionId: null, completedAt: null, failureCode: 'PKC_7004', netAmount: 10.5 });
  });

  test('when a disbursement is not completed, then no transfer answer can be made of it', () => {
    expect(() => transferView({ ...completed, status: 'processing', transactionId: null })).toThrow('not completed');
  });
});

describe('events', () => {
  test('when a disbursement completed, then its event carries the webhook fields plus eventId and partnerId', () => {
    const envelope = disbursementEvent(completed, completed.completedAt ?? new Date());
    expect(envelope).toMatchObject({ type: 'disbursement.completed', producer: 'disbursements', version: 1 });
    expect(parseDisbursementEventData(envelope.data)).toEqual({
      eventId: envelope.eventId,
      partnerId: completed.partnerId,
      event: 'disbursement.completed',
      referenceId: completed.referenceId,
      externalId: 'order-1',
      amount: 10.5,
      currency: 'USD',
      fee: 0.36,
      totalDebit: 10.86,
      status: 'completed',
      transactionId: 'TXN-ABC123',
      timestamp: '2024-05-01T00:00:01.000Z',
    });
  });

  test('when a disbursement failed, then its event is disbursement.failed with the code and no transaction', () => {
    const envelope = disbursementEvent({ ...completed, status: 'failed', transactionId: null, completedAt: null, failureCode: 'PKC_4002' }, new Date());
    expect(envelope.data).toMatchObject({ event: 'disbursement.failed', status: 'failed', failureCode: 'PKC_4002' });
    expect(envelope.data).not.toHaveProperty('transactionId');
  });

  test('when event data contradicts itself, then the schema refuses it', () => {
    const data = disbursementEvent(completed, new Date()).data;
    expect(() => parseDisbursementEventData({ ...data, status: 'failed' })).toThrow();
    expect(() => parseDisbursementEventData({ ...data, transactionId: undefined })).toThrow();
  });
});

describe('deadline', () => {
  test('when time passes, then the remaining time shrinks to zero and the deadline has passed', () => {
    let now = 1_000;
    const deadline = deadlineAfter(500, now, () => now);
    expect(deadline.remainingMs()).toBe(500);
    now = 1_499;
    expect(deadline.hasPassed()).toBe(false);
    now = 1_600;
    expect(deadline.remainingMs()).toBe(0);
    expect(deadline.hasPassed()).toBe(true);
  });
});
