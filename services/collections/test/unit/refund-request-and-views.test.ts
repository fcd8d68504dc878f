import { refundEventDataSchema, refundReferenceIdPattern } from '@pwa/contracts';
import { isPkcError } from '@pwa/errors';
import { writtenNumber } from '@pwa/money';
import { newRefundReferenceId, refundableMinorOf, type Refund } from '../../src/domain/refund';
import { parseRefundRequest } from '../../src/domain/refund-request';
import { refundView } from '../../src/domain/refund-views';
import { refundEvent } from '../../src/events/refund-events';

function codeOf(body: unknown): string | undefined {
  try {
    parseRefundRequest(body);
    return undefined;
  } catch (error) {
    if (isPkcError(error)) return error.code;
    throw error;
  }
}

const refund: Refund = {
  id: '0b7e6a52-8c1d-4e8f-9a3b-2c4d5e6f7a8b',
  referenceId: 'PKR-1718003600000-7C2E91A04B3D58F6A1E2D3C4',
  collectionId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
  collectionReferenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  collectionRefundedMinor: 1000n,
  partnerId: '1c2b9e6f-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
  externalId: 'refund-1',
  phone: '+231770000001',
  currency: 'USD',
  amountMinor: 1000n,
  reason: null,
  status: 'completed',
  createdAt: new Date('2024-06-10T07:13:20.000Z'),
  resolvedAt: new Date('2024-06-10T07:13:20.412Z'),
  transactionId: 'TXN-5E2B7C09A14D3F68',
  failureCode: null,
  failureMessage: null,
  postingAttempts: 1,
};

describe('the refund body', () => {
  test.each([
    ['an array', 'PKC_2008', []],
    ['no externalId', 'PKC_2008', { amount: 1 }],
    ['an empty externalId', 'PKC_2008', { externalId: '' }],
    ['a numeric externalId', 'PKC_2008', { externalId: writtenNumber('12') }],
    ['a mistyped field', 'PKC_2008', { externalId: 'a', ammount: 1 }],
    ['a numeric reason', 'PKC_2008', { externalId: 'a', reason: 5 }],
    ['an amount as a string', 'PKC_2002', { externalId: 'a', amount: '1' }],
    ['a negative amount', 'PKC_2002', { externalId: 'a', amount: writtenNumber('-1') }],
    ['an amount of 18 written decimals', 'PKC_2002', { externalId: 'a', amount: writtenNumber('1.999999999999999999') }],
    ['an amount beyond any collection', 'PKC_2004', { externalId: 'a', amount: writtenNumber('1e300') }],
    ['an externalId of 101 characters', 'PKC_2006', { externalId: 'x'.repeat(101) }],
    ['a reason of 201 characters', 'PKC_2007', { externalId: 'a', reason: 'r'.repeat(201) }],
    ['a line break in the externalId', 'PKC_2008', { externalId: 'a\nb' }],
  ])('when it has %s, then %s', (_case, code, body) => {
    expect(codeOf(body)).toBe(code);
  });

  test('when only externalId is given, then the amount is left to the collection and the reason is none; null means absent', () => {
    expect(parseRefundRequest({ externalId: 'r-1' })).toEqual({ externalId: 'r-1', amountMinor: undefined, reason: null });
    expect(parseRefundRequest({ externalId: 'r-1', amount: null, reason: '' })).toEqual({ externalId: 'r-1', amountMinor: undefined, reason: null });
    expect(parseRefundRequest({ externalId: 'r-1', amount: writtenNumber('10.50'), reason: 'Returned' })).toEqual({ externalId: 'r-1', amountMinor: 1050n, reason: 'Returned' });
  });
});

describe('refund ids, amounts, views and events', () => {
  test('a new referenceId matches the contract’s pattern', () => {
    expect(newRefundReferenceId()).toMatch(refundReferenceIdPattern);
  });

  test('what is left to refund is the amount less the refunds in progress or completed', () => {
    expect(refundableMinorOf({ amountMinor: 3000n, refundedMinor: 1025n })).toBe(1975n);
  });

  test('a completed refund shows its transaction and completion, never a failure; fee is 0', () => {
    expect(refundView(refund)).toEqual({
      referenceId: refund.referenceId,
      collectionReferenceId: refund.collectionReferenceId,
      externalId: 'refund-1',
      status: 'completed',
      amount: 10,
      currency: 'USD',
      fee: 0,
      reason: null,
      transactionId: 'TXN-5E2B7C09A14D3F68',
      completedAt: '2024-06-10T07:13:20.412Z',
      createdAt: '2024-06-10T07:13:20.000Z',
      collectionRefundedAmount: 10,
    });
  });

  test('a failed refund shows its reason, and its event carries the code and message; a completed one its transaction', () => {
    const failed: Refund = { ...refund, status: 'failed', transactionId: null, failureCode: 'PKC_4002', failureMessage: 'Partner balance insufficient for amount plus fee', collectionRefundedMinor: 0n };
    expect(refundView(failed)).toMatchObject({ status: 'failed', failureReason: { code: 'PKC_4002' }, collectionRefundedAmount: 0 });
    expect(refundView(failed)).not.toHaveProperty('transactionId');
    const failedEvent = refundEvent('refund.failed', failed);
    expect(refundEventDataSchema.parse(failedEvent.data)).toMatchObject({ event: 'refund.failed', status: 'failed', failureCode: 'PKC_4002', collectionReferenceId: refund.collectionReferenceId, fee: 0 });
    expect(refundEvent('refund.completed', refund).data).toMatchObject({ event: 'refund.completed', status: 'completed', transactionId: refund.transactionId, amount: 10 });
  });
});
