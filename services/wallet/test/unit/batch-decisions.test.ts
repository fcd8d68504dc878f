import fc from 'fast-check';
import { decideBatch, type BatchFacts, type BatchItemIntent } from '../../src/domain/batch-decisions';
import { firstFailingCheck } from '../../src/domain/transfer-checks';
import { noUsage, type LimitUsage } from '../../src/domain/tier-limits';
import { phoneA, phoneB, recipient } from './batch-fixtures';

function facts(overrides: Partial<BatchFacts> = {}): BatchFacts {
  return {
    type: 'disbursement',
    currency: 'USD',
    settledTransferIds: new Set(),
    recipients: new Map([
      [phoneA, recipient('a')],
      [phoneB, recipient('b')],
    ]),
    partnerBalanceMinor: 1_000_000n,
    ...overrides,
  };
}

let idCounter = 0;
function item(phone: string | undefined, amountMinor: bigint, feeMinor = 0n): BatchItemIntent {
  idCounter += 1;
  return { transferId: `transfer-${idCounter}`, phone, amountMinor, feeMinor };
}

const codesOf = (decisions: ReturnType<typeof decideBatch>): string[] =>
  decisions.map((decision) => (decision.decision === 'refused' ? decision.code : decision.decision));

describe('batch decisions', () => {
  it('when items pass and fail their own checks, then each gets its own decision in the request order', () => {
    const frozen = recipient('c', { wallet: { status: 'frozen', accountId: 'account-c', balanceMinor: 0n } });
    const decisions = decideBatch(
      [item(phoneA, 1_000n, 35n), item('+231770009999', 1_000n), item(phoneB, 60_000n), item('+231880000003', 1_000n), item(undefined, 1_000n)],
      facts({ recipients: new Map([[phoneA, recipient('a')], [phoneB, recipient('b')], ['+231880000003', frozen]]) }),
    );
    expect(codesOf(decisions)).toEqual(['post', 'PKC_3001', 'PKC_4003', 'PKC_3004', 'PKC_2001']);
    expect(decisions[0]).toEqual({ decision: 'post', transferId: expect.any(String), userId: 'a', walletAccountId: 'account-a', amountMinor: 1_000n, feeMinor: 35n });
  });

  it('when an earlier item of the batch uses up a daily limit, then the later item of that user is refused and another user is not', () => {
    const decisions = decideBatch([item(phoneA, 50_000n), item(phoneA, 40_000n), item(phoneB, 40_000n), item(phoneA, 30_000n)], facts());
    expect(codesOf(decisions)).toEqual(['post', 'PKC_4004', 'post', 'post']);
  });

  it('when the usage before the batch and the batch together pass the hourly count, then the item that would pass it is refused', () => {
    const usage: LimitUsage = { ...noUsage, hourCount: 1, dayCount: 1 };
    const decisions = decideBatch([item(phoneA, 10n), item(phoneA, 10n), item(phoneA, 10n)], facts({ recipients: new Map([[phoneA, recipient('a', { usage })]]) }));
    expect(codesOf(decisions)).toEqual(['post', 'post', 'PKC_4010']);
  });

  it('when the partner balance runs out midway, then the items after it are refused PKC_4002 and a smaller later item still fits', () => {
    const decisions = decideBatch([item(phoneA, 400n, 10n), item(phoneB, 400n, 10n), item(phoneA, 400n, 10n), item(phoneB, 170n, 10n)], facts({ partnerBalanceMinor: 1_000n }));
    expect(codesOf(decisions)).toEqual(['post', 'post', 'PKC_4002', 'post']);
  });

  it('when an item was settled by an earlier call, then it is answered as such and uses none of the balance', () => {
    const settled = item(phoneA, 900n);
    const decisions = decideBatch([settled, item(phoneB, 900n)], facts({ partnerBalanceMinor: 1_000n, settledTransferIds: new Set([settled.transferId]) }));
    expect(codesOf(decisions)).toEqual(['settled_earlier', 'post']);
  });

  it('when any batch is decided, then its decisions equal the single checks run one by one on the facts the earlier posted items left', () => {
    const phones = [phoneA, phoneB, '+231770000003', '+231770009999'];
    const itemArbitrary = fc.record({
      phoneIndex: fc.integer({ min: 0, max: phones.length - 1 }),
      amountMinor: fc.bigInt({ min: 1n, max: 60_000n }),
      feeMinor: fc.bigInt({ min: 0n, max: 500n }),
    });
    fc.assert(
      fc.property(fc.array(itemArbitrary, { minLength: 1, maxLength: 30 }), fc.bigInt({ min: 0n, max: 300_000n }), (drawn, partnerBalanceMinor) => {
        const recipients = new Map([
          [phoneA, recipient('a')],
          [phoneB, recipient('b', { usage: { ...noUsage, dayAmountMinor: 20_000n, dayCount: 2, hourCount: 1 } })],
          ['+231770000003', recipient('c', { kycStatus: 'pending' })],
        ]);
        const items = drawn.map((drawnItem) => item(phones[drawnItem.phoneIndex], drawnItem.amountMinor, drawnItem.feeMinor));
        const decisions = decideBatch(items, facts({ recipients, partnerBalanceMinor }));

        // The reference: each item checked alone against the facts the items posted before it left.
        let balance = partnerBalanceMinor;
        const usages = new Map<string, LimitUsage>();
        const expected = items.map((batchItem) => {
          const found = batchItem.phone === undefined ? undefined : recipients.get(batchItem.phone);
          const usage = found ? (usages.get(found.userId) ?? found.usage) : noUsage;
          const code = firstFailingCheck(
            { type: 'disbursement', currency: 'USD', amountMinor: batchItem.amountMinor, feeMinor: batchItem.feeMinor },
            { user: found, wallet: found?.wallet, partnerBalanceMinor: balance, limits: found?.limits, usage },
          );
          if (code !== undefined || !found) return code ?? 'none';
          balance -= batchItem.amountMinor + batchItem.feeMinor;
          usages.set(found.userId, {
            hourCount: usage.hourCount + 1,
            dayCount: usage.dayCount + 1,
            dayAmountMinor: usage.dayAmountMinor + batchItem.amountMinor,
            weekAmountMinor: usage.weekAmountMinor + batchItem.amountMinor,
            monthAmountMinor: usage.monthAmountMinor + batchItem.amountMinor,
            yearAmountMinor: usage.yearAmountMinor + batchItem.amountMinor,
          });
          return 'post';
        });
        expect(codesOf(decisions)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
