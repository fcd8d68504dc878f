import fc from 'fast-check';
import { transactionBoundsMinor } from '@pwa/contracts';
import { defaultFeeSchedules } from '../../src/domain/default-fee-schedules';
import { calculateFeeMinor, roundHalfUpDivide, tierFor } from '../../src/domain/fee-calculation';
import { assertValidFeeRule, basisPointsPerWhole, type FeeRule, type FeeTier } from '../../src/domain/fee-schedule';

const usdDisbursement = defaultFeeSchedules.find((schedule) => schedule.type === 'disbursement' && schedule.currency === 'USD')!;

/** Any valid rule: 1 to 5 tiers with increasing bounds, fee parts and bounds of plausible size. */
const validRule: fc.Arbitrary<FeeRule> = fc
  .record({
    bounds: fc.uniqueArray(fc.bigInt({ min: 1n, max: 200_000_000n }), { minLength: 0, maxLength: 4 }),
    parts: fc.array(fc.record({ flatMinor: fc.bigInt({ min: 0n, max: 1_000_000n }), basisPoints: fc.integer({ min: 0, max: basisPointsPerWhole }) }), {
      minLength: 5,
      maxLength: 5,
    }),
    minimumFeeMinor: fc.bigInt({ min: 0n, max: 100_000n }),
    spanMinor: fc.bigInt({ min: 0n, max: 10_000_000n }),
  })
  .map(({ bounds, parts, minimumFeeMinor, spanMinor }) => {
    const sorted = [...bounds].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
    const tiers: FeeTier[] = [...sorted, null].map((upToMinor, index) => ({ upToMinor, ...parts[index]! }));
    return { tiers, minimumFeeMinor, maximumFeeMinor: minimumFeeMinor + spanMinor };
  });

const amountMinor = fc.bigInt({ min: 1n, max: 185_000_000n });

describe('calculateFeeMinor', () => {
  it.each([
    // amount, fee: 0.25 + 1 % up to 100.00, 0.50 + 0.75 % up to 1,000.00, 3.00 + 0.5 % above; 0.25 to 25.00
    [100n, 26n],
    [10_000n, 125n],
    [10_001n, 125n],
    [50_000n, 425n],
    [100_000n, 800n],
    [100_001n, 800n],
    [1_000_000n, 2_500n],
  ])('when %s minor USD is disbursed under the default schedule, then the fee is %s minor', (amount, fee) => {
    expect(calculateFeeMinor(usdDisbursement, amount)).toBe(fee);
  });

  it('when the percentage part ends in exactly half a cent, then it rounds up; just below half, down', () => {
    const rule: FeeRule = { tiers: [{ upToMinor: null, flatMinor: 0n, basisPoints: 50 }], minimumFeeMinor: 0n, maximumFeeMinor: 1_000_000n };
    expect(calculateFeeMinor(rule, 100n)).toBe(1n); // 0.5 % of 1.00 = 0.005 -> 0.01
    expect(calculateFeeMinor(rule, 99n)).toBe(0n); // 0.00495 -> 0.00
    expect(calculateFeeMinor(rule, 300n)).toBe(2n); // 0.015 -> 0.02
  });

  it('when the computed fee is below the minimum or above the maximum, then the bound is charged', () => {
    const rule: FeeRule = { tiers: [{ upToMinor: null, flatMinor: 0n, basisPoints: 100 }], minimumFeeMinor: 50n, maximumFeeMinor: 500n };
    expect(calculateFeeMinor(rule, 100n)).toBe(50n);
    expect(calculateFeeMinor(rule, 1_000_000n)).toBe(500n);
    expect(calculateFeeMinor(rule, 20_000n)).toBe(200n);
  });

  it('when the amount equals a tier bound, then that tier applies (bounds are inclusive)', () => {
    const tiers: FeeTier[] = [
      { upToMinor: 1_000n, flatMinor: 1n, basisPoints: 0 },
      { upToMinor: null, flatMinor: 2n, basisPoints: 0 },
    ];
    expect(tierFor(tiers, 1_000n).flatMinor).toBe(1n);
    expect(tierFor(tiers, 1_001n).flatMinor).toBe(2n);
  });

  it('when any valid rule prices any amount, then the fee is a whole, non-negative number of minor units within the bounds', () => {
    fc.assert(
      fc.property(validRule, amountMinor, (rule, amount) => {
        const fee = calculateFeeMinor(rule, amount);
        expect(typeof fee).toBe('bigint');
        expect(fee >= 0n).toBe(true);
        expect(fee >= rule.minimumFeeMinor && fee <= rule.maximumFeeMinor).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('when any valid rule prices any amount, then amount plus fee is the total debit to the cent through the API', () => {
    fc.assert(
      fc.property(validRule, fc.bigInt({ min: 1n, max: 1_000_000n }), (rule, amount) => {
        const fee = calculateFeeMinor(rule, amount);
        const total = amount + fee;
        // What a partner reads: JSON numbers with at most 2 decimals that add up exactly.
        const [amountText, feeText, totalText] = [amount, fee, total].map((minor) => JSON.stringify(Number(minor) / 100));
        const cents = (text: string): bigint => BigInt(Math.round(Number(text) * 100));
        expect(cents(amountText!) + cents(feeText!)).toBe(cents(totalText!));
        expect(cents(totalText!)).toBe(total);
      }),
      { numRuns: 3000 },
    );
  });

  it('when two amounts fall in the same tier, then the larger never pays the smaller fee', () => {
    fc.assert(
      fc.property(validRule, amountMinor, amountMinor, (rule, first, second) => {
        const [smaller, larger] = first <= second ? [first, second] : [second, first];
        fc.pre(tierFor(rule.tiers, smaller) === tierFor(rule.tiers, larger));
        expect(calculateFeeMinor(rule, smaller) <= calculateFeeMinor(rule, larger)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('when the fee is computed exactly in rationals, then the result is that value rounded half-up and clamped', () => {
    fc.assert(
      fc.property(validRule, amountMinor, (rule, amount) => {
        const tier = tierFor(rule.tiers, amount);
        // Independent oracle: compare 10000 x fee with the exact 10000 x (flat + amount x bp / 10000).
        const exactTimes10000 = tier.flatMinor * 10_000n + amount * BigInt(tier.basisPoints);
        let rounded = exactTimes10000 / 10_000n;
        if (exactTimes10000 % 10_000n >= 5_000n) rounded += 1n;
        const expected = rounded < rule.minimumFeeMinor ? rule.minimumFeeMinor : rounded > rule.maximumFeeMinor ? rule.maximumFeeMinor : rounded;
        expect(calculateFeeMinor(rule, amount)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the default fee schedules', () => {
  it('when they are checked, then each is a valid rule', () => {
    for (const schedule of defaultFeeSchedules) expect(() => assertValidFeeRule(schedule)).not.toThrow();
    expect(defaultFeeSchedules.map((schedule) => `${schedule.type} ${schedule.currency}`).sort()).toEqual([
      'collection LRD',
      'collection USD',
      'disbursement LRD',
      'disbursement USD',
    ]);
  });

  it('when any amount in the allowed range grows by any step, then its fee never goes down, tier bounds included', () => {
    fc.assert(
      fc.property(fc.constantFrom(...defaultFeeSchedules), fc.double({ min: 0, max: 1, noNaN: true }), fc.bigInt({ min: 1n, max: 5_000_000n }), (schedule, position, step) => {
        const { minimumMinor, maximumMinor } = transactionBoundsMinor[schedule.currency];
        const amount = minimumMinor + BigInt(Math.floor(position * Number(maximumMinor - minimumMinor)));
        const larger = amount + step > maximumMinor ? maximumMinor : amount + step;
        expect(calculateFeeMinor(schedule, amount) <= calculateFeeMinor(schedule, larger)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('when an amount sits on either side of a tier bound, then the fee does not step down', () => {
    for (const schedule of defaultFeeSchedules) {
      for (const tier of schedule.tiers) {
        if (tier.upToMinor === null) continue;
        expect(calculateFeeMinor(schedule, tier.upToMinor) <= calculateFeeMinor(schedule, tier.upToMinor + 1n)).toBe(true);
      }
    }
  });
});

describe('roundHalfUpDivide', () => {
  it('when it divides any non-negative integers, then it is the nearest integer with halves going up', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (numerator, denominator) => {
        const result = roundHalfUpDivide(numerator, denominator);
        // |numerator/denominator - result| <= 1/2, and exactly 1/2 only when rounding up.
        const twiceError = numerator * 2n - result * denominator * 2n;
        expect(twiceError < denominator && twiceError >= -denominator).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
