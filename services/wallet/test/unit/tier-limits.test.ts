import fc from 'fast-check';
import { findLimitRule, firstBrokenLimit, limitLookupOf, noUsage, warningsOfRule, type LimitUsage, type TierLimitRule } from '../../src/domain/tier-limits';

const rule: TierLimitRule = {
  tier: 'Basic',
  transactionType: 'collection',
  currency: 'USD',
  perTransactionMaxMinor: 10_000n,
  dailyMaxMinor: 20_000n,
  weeklyMaxMinor: 50_000n,
  monthlyMaxMinor: 100_000n,
  yearlyMaxMinor: 500_000n,
  perHourCountMax: 5,
  perDayCountMax: 10,
};

const usage = (overrides: Partial<LimitUsage>): LimitUsage => ({ ...noUsage, ...overrides });

describe('finding the limit rule', () => {
  it('when the tier has no rules at all, then the limits are not configured (PKC_4011)', () => {
    expect(findLimitRule([], 'collection', 'USD')).toEqual({ found: false, refusal: 'PKC_4011' });
  });

  it('when the tier has rules but none for this type and currency, then PKC_4012', () => {
    expect(findLimitRule([rule], 'disbursement', 'USD')).toEqual({ found: false, refusal: 'PKC_4012' });
    expect(findLimitRule([rule], 'collection', 'LRD')).toEqual({ found: false, refusal: 'PKC_4012' });
  });

  it('when the tier has the rule, then it is found', () => {
    expect(findLimitRule([rule], 'collection', 'USD')).toEqual({ found: true, rule });
  });

  it('when the store looked up one rule, then the answer is the same as findLimitRule over the whole tier', () => {
    expect(limitLookupOf(rule, true)).toEqual(findLimitRule([rule], 'collection', 'USD'));
    expect(limitLookupOf(undefined, true)).toEqual(findLimitRule([rule], 'disbursement', 'USD'));
    expect(limitLookupOf(undefined, false)).toEqual(findLimitRule([], 'collection', 'USD'));
  });
});

describe('limit boundaries', () => {
  it.each([
    ['the per-transaction maximum', usage({}), 10_000n, 10_001n, 'PKC_4003'],
    ['the daily limit', usage({ dayAmountMinor: 15_000n, weekAmountMinor: 15_000n, monthAmountMinor: 15_000n, yearAmountMinor: 15_000n }), 5_000n, 5_001n, 'PKC_4004'],
    ['the weekly limit', usage({ weekAmountMinor: 45_000n, monthAmountMinor: 45_000n, yearAmountMinor: 45_000n }), 5_000n, 5_001n, 'PKC_4007'],
    ['the monthly limit', usage({ monthAmountMinor: 95_000n, yearAmountMinor: 95_000n }), 5_000n, 5_001n, 'PKC_4005'],
    ['the yearly limit', usage({ yearAmountMinor: 495_000n }), 5_000n, 5_001n, 'PKC_4008'],
  ] as const)('when a transaction lands exactly on %s, then it is allowed, and one minor unit more is refused', (_name, used, exact, over, code) => {
    expect(firstBrokenLimit(rule, used, exact)).toBeUndefined();
    expect(firstBrokenLimit(rule, used, over)).toBe(code);
  });

  it('when the user has made as many transactions today as allowed, then the next is PKC_4009', () => {
    expect(firstBrokenLimit(rule, usage({ dayCount: 9 }), 1n)).toBeUndefined();
    expect(firstBrokenLimit(rule, usage({ dayCount: 10 }), 1n)).toBe('PKC_4009');
  });

  it('when the user has made as many transactions this hour as allowed, then the next is PKC_4010', () => {
    expect(firstBrokenLimit(rule, usage({ hourCount: 4, dayCount: 4 }), 1n)).toBeUndefined();
    expect(firstBrokenLimit(rule, usage({ hourCount: 5, dayCount: 5 }), 1n)).toBe('PKC_4010');
  });

  it('when every limit is broken at once, then the per-transaction maximum is reported', () => {
    const exhausted = usage({ hourCount: 99, dayCount: 99, dayAmountMinor: 10n ** 9n, weekAmountMinor: 10n ** 9n, monthAmountMinor: 10n ** 9n, yearAmountMinor: 10n ** 9n });
    expect(firstBrokenLimit(rule, exhausted, 10n ** 6n)).toBe('PKC_4003');
  });

  it('when usage and amount are arbitrary, then the code is the first broken rule in the documented order', () => {
    const amount = fc.bigInt({ min: 1n, max: 600_000n });
    const minor = fc.bigInt({ min: 0n, max: 600_000n });
    const count = fc.integer({ min: 0, max: 15 });
    fc.assert(
      fc.property(amount, minor, minor, minor, minor, count, count, (amountMinor, day, week, month, year, dayCount, hourCount) => {
        const used: LimitUsage = { dayAmountMinor: day, weekAmountMinor: week, monthAmountMinor: month, yearAmountMinor: year, dayCount, hourCount };
        const rules: [boolean, string][] = [
          [amountMinor > rule.perTransactionMaxMinor, 'PKC_4003'],
          [day + amountMinor > rule.dailyMaxMinor, 'PKC_4004'],
          [week + amountMinor > rule.weeklyMaxMinor, 'PKC_4007'],
          [month + amountMinor > rule.monthlyMaxMinor, 'PKC_4005'],
          [year + amountMinor > rule.yearlyMaxMinor, 'PKC_4008'],
          [dayCount + 1 > rule.perDayCountMax, 'PKC_4009'],
          [hourCount + 1 > rule.perHourCountMax, 'PKC_4010'],
        ];
        expect(firstBrokenLimit(rule, used, amountMinor)).toBe(rules.find(([broken]) => broken)?.[1]);
      }),
    );
  });
});

describe('limit warnings', () => {
  it('when the windows nest, then there is nothing to warn about', () => {
    expect(warningsOfRule(rule)).toEqual([]);
  });

  it('when a daily limit is above the weekly one, then the operator is warned that it never applies', () => {
    expect(warningsOfRule({ ...rule, dailyMaxMinor: 60_000n })).toEqual(['the daily limit exceeds the weekly limit, so it never applies']);
  });
});
