import { deadlineAfter } from '../../src/domain/deadline';
import { applySettlement, failedSettlement, statusView, timedOutSettlement, transferView, type Disbursement } from '../../src/domain/disbursement';
import { externalIdTakenBy, refusalOf } from '../../src/domain/disbursement-refusal';
import { parseDisbursementEventData } from '@pwa/contracts';
import { disbursementEvent } from '../../src/events/disbursement-events';

const completed: Disbursement = {
  disbursementId: '0b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  referenceId: 'PKD-1714521600000-00112233445566778899AABB',
  partnerId: '1b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  externalId: 'order-1',
  quoteId: '2b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c',
  bulkId: null,
  bulkIndex: null,
  phone: '+231770000001',
  recipientName: 'Musu',
  currency: 'USD',
  amountMinor: 1_050n,
  feeMinor: 36n,
  note: null,
  status: 'completed',
  transactionId: 'TXN-ABC123',
  failureCode: null,
  failureMessage: null,
  createdAt: new Date('2024-05-01T00:00:00.000Z'),
  completedAt: new Date('2024-05-01T00:00:01.000Z'),
};

describe('views', () => {
  test('when a disbursement completed, then the transfer answer has the spec fields with exact amounts', () => {
    expect(transferView(completed)).toEqual({ referenceId: completed.referenceId, status: 'completed', transactionId: 'TXN-ABC123', amount: 10.5, currency: 'USD', fee: 0.36, totalDebit: 10.86 });
  });

  test('when a disbursement timed out, then the status answer is failed with PKC_7004, its reason, no transaction and a netAmount of 0', () => {
    const view = statusView(applySettlement({ ...completed, status: 'processing', transactionId: null, completedAt: null }, timedOutSettlement()));
    expect(view).toMatchObject({
      status: 'failed',
      transactionId: null,
      completedAt: null,
      failureCode: 'PKC_7004',
      failureReason: { code: 'PKC_7004', message: 'Transfer exceeded the 25-second processing budget; nothing was posted; safe to retry' },
      amount: 10.5,
      netAmount: 0,
    });
  });

  test('when a disbursement failed, then netAmount is 0 while amount and totalDebit stay as quoted', () => {
    const view = statusView(applySettlement({ ...completed, status: 'processing', transactionId: null, completedAt: null }, failedSettlement('PKC_3002')));
    expect(view).toMatchObject({ status: 'failed', amount: 10.5, totalDebit: 10.86, netAmount: 0, failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' } });
  });

  test('when a disbursement is pending or completed, then netAmount is 0 until the money reached the user, then the amount, and there is no failureReason', () => {
    const pending = statusView({ ...completed, status: 'processing', transactionId: null, completedAt: null });
    expect(pending).toMatchObject({ status: 'pending', netAmount: 0 });
    expect(pending).not.toHaveProperty('failureReason');
    expect(statusView(completed)).toMatchObject({ status: 'completed', netAmount: 10.5 });
    expect(statusView(completed)).not.toHaveProperty('failureReason');
  });

  test('when the partner sent a note, then the status answer carries it exactly as sent; without one there is no note field', () => {
    const note = 'Salary <b>advance</b> 𝄞';
    expect(statusView({ ...completed, note }).note).toBe(note);
    expect(statusView(completed)).not.toHaveProperty('note');
  });

  test('when a row failed before messages were stored, then its reason is the code with the message a failure of that code gets now', () => {
    const view = statusView({ ...completed, status: 'failed', transactionId: null, completedAt: null, failureCode: 'PKC_7003', failureMessage: null });
    expect(view.failureReason).toEqual({ code: 'PKC_7003', message: 'The wallet system could not be reached; nothing was posted' });
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

  test('when a disbursement failed, then its event is disbursement.failed with the code, the failureReason and no transaction', () => {
    const failed = applySettlement({ ...completed, status: 'processing', transactionId: null, completedAt: null }, failedSettlement('PKC_4002'));
    const envelope = disbursementEvent(failed, new Date());
    expect(parseDisbursementEventData(envelope.data)).toMatchObject({
      event: 'disbursement.failed',
      status: 'failed',
      failureCode: 'PKC_4002',
      failureReason: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' },
    });
    expect(envelope.data).not.toHaveProperty('transactionId');
    expect(envelope.data).not.toHaveProperty('netAmount');
  });

  test('when event data contradicts itself, then the schema refuses it', () => {
    const data = disbursementEvent(completed, new Date()).data;
    expect(() => parseDisbursementEventData({ ...data, status: 'failed' })).toThrow();
    expect(() => parseDisbursementEventData({ ...data, transactionId: undefined })).toThrow();
  });
});

describe('refusals that left a record', () => {
  const processing: Disbursement = { ...completed, status: 'processing', transactionId: null, completedAt: null };

  test.each([
    ['a wallet refusal', failedSettlement('PKC_3002'), 'PKC_3002', 403],
    ['an unreachable wallet', failedSettlement('PKC_7003'), 'PKC_7003', 503],
    ['a timeout', timedOutSettlement(), 'PKC_7004', 504],
  ])('when the transfer ended failed after %s, then the refusal answers its code and names the record as fields and in the message', (_case, settlement, code, httpStatus) => {
    const refusal = refusalOf(applySettlement(processing, settlement));
    expect(refusal).toMatchObject({ code, httpStatus, fields: { referenceId: completed.referenceId, status: 'failed' } });
    expect(refusal?.message).toContain(completed.referenceId);
  });

  test('when the outcome is not known yet, then the refusal is PKC_7002 naming the pending record', () => {
    expect(refusalOf(processing)).toMatchObject({ code: 'PKC_7002', httpStatus: 500, fields: { referenceId: completed.referenceId, status: 'pending' } });
  });

  test('when the transfer completed, then there is no refusal', () => {
    expect(refusalOf(completed)).toBeUndefined();
  });

  test('when an externalId is held, then the 409 carries the holder as fields and in the message', () => {
    const taken = externalIdTakenBy(completed);
    expect(taken).toMatchObject({ code: 'PKC_6001', httpStatus: 409, fields: { referenceId: completed.referenceId, status: 'completed' } });
    expect(taken.message).toBe(`externalId already used by disbursement ${completed.referenceId} (status completed)`);
    expect(externalIdTakenBy(processing).fields).toEqual({ referenceId: completed.referenceId, status: 'pending' });
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
