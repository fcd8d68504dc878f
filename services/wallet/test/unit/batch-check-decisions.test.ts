import fc from 'fast-check';
import { decideBatchCheck, partnerBalanceCoveringEveryItem, type BatchCheckFacts, type BatchCheckItemIntent } from '../../src/domain/batch-check-decisions';
import { decideBatch } from '../../src/domain/batch-decisions';
import { noUsage } from '../../src/domain/tier-limits';
import { phoneA, phoneB, recipient, rule } from './batch-fixtures';

const phoneFrozen = '+231770000003';
const phonePending = '+231770000004';

const facts: BatchCheckFacts = {
  type: 'disbursement',
  currency: 'USD',
  recipients: new Map([
    [phoneA, recipient('a')],
    [phoneB, recipient('b', { usage: { ...noUsage, dayAmountMinor: 20_000n, dayCount: 2, hourCount: 1 } })],
    [phoneFrozen, recipient('c', { wallet: { status: 'frozen', accountId: 'account-c', balanceMinor: 0n } })],
    [phonePending, recipient('d', { kycStatus: 'pending' })],
  ]),
};

const item = (phone: string | undefined, amountMinor: bigint, feeMinor = 0n): BatchCheckItemIntent => ({ phone, amountMinor, feeMinor });

const codesOf = (decisions: ReturnType<typeof decideBatchCheck>): string[] => decisions.map((decision) => (decision.decision === 'refused' ? decision.code : decision.userId));

describe('batch check decisions', () => {
  it('when items pass and fail the account and limit rules, then each gets its own decision in the request order, the earlier passing items of a user counting in its usage', () => {
    const decisions = decideBatchCheck(
      [item(phoneA, 45_000n, 50n), item('+231770009999', 1_000n), item(undefined, 1_000n), item(phoneFrozen, 1_000n), item(phonePending, 1_000n), item(phoneA, 40_000n), item(phoneA, 35_000n), item(phoneA, 60_000n)],
      facts,
    );
    expect(codesOf(decisions)).toEqual(['a', 'PKC_3001', 'PKC_2001', 'PKC_3004', 'PKC_3005', 'PKC_4004', 'a', 'PKC_4003']);
  });

  it('when the items together far exceed any partner balance, then none is refused for the balance', () => {
    const items = Array.from({ length: 5 }, () => item(phoneA, 50_000n, 10_000n));
    // The hourly count (3) refuses the fourth and fifth, the balance never.
    expect(codesOf(decideBatchCheck(items, { ...facts, recipients: new Map([[phoneA, recipient('a', { limits: { found: true, rule: { ...rule, dailyMaxMinor: 10_000_000n } } })]]) }))).toEqual([
      'a',
      'a',
      'a',
      'PKC_4010',
      'PKC_4010',
    ]);
  });

  it('when the covering partner balance is computed, then it is the sum of every item amount and fee', () => {
    expect(partnerBalanceCoveringEveryItem([item(phoneA, 1_050n, 35n), item(undefined, 2_000n), item(phoneB, 1n, 0n)])).toBe(3_086n);
    expect(partnerBalanceCoveringEveryItem([])).toBe(0n);
  });

  it('when any batch is checked, then its decisions are the posting batch decisions with a partner balance that never runs out', () => {
    const phones = [phoneA, phoneB, phoneFrozen, phonePending, '+231770009999', undefined];
    const itemArbitrary = fc.record({
      phoneIndex: fc.integer({ min: 0, max: phones.length - 1 }),
      amountMinor: fc.bigInt({ min: 1n, max: 60_000n }),
      feeMinor: fc.bigInt({ min: 0n, max: 5_000n }),
    });
    fc.assert(
      fc.property(fc.array(itemArbitrary, { minLength: 1, maxLength: 40 }), (drawn) => {
        const items = drawn.map((drawnItem) => item(phones[drawnItem.phoneIndex], drawnItem.amountMinor, drawnItem.feeMinor));
        const checked = decideBatchCheck(items, facts);
        const posted = decideBatch(
          items.map((checkItem, index) => ({ transferId: `t-${index}`, ...checkItem })),
          { ...facts, settledTransferIds: new Set(), partnerBalanceMinor: 10n ** 18n },
        );
        expect(checked).not.toContainEqual({ decision: 'refused', code: 'PKC_4002' });
        expect(codesOf(checked)).toEqual(posted.map((decision) => (decision.decision === 'refused' ? decision.code : decision.decision === 'post' ? decision.userId : 'settled')));
      }),
      { numRuns: 300 },
    );
  });
});
