import { assertValidFeeRule, parseFeeTiers, storedTiersOf, type FeeRule } from '../../src/domain/fee-schedule';

const rule = (tiers: unknown, minimumFeeMinor = 0n, maximumFeeMinor = 1_000n): FeeRule => ({
  tiers: parseFeeTiers(tiers),
  minimumFeeMinor,
  maximumFeeMinor,
});

describe('fee schedule validation', () => {
  it('when tiers are given as strings or integers with an open last tier, then they are read exactly and stored as strings', () => {
    const tiers = parseFeeTiers([{ upToMinor: '100000', flatMinor: '0', basisPoints: 100 }, { upToMinor: null, flatMinor: 25, basisPoints: 75 }]);
    expect(tiers).toEqual([
      { upToMinor: 100_000n, flatMinor: 0n, basisPoints: 100 },
      { upToMinor: null, flatMinor: 25n, basisPoints: 75 },
    ]);
    expect(storedTiersOf(tiers)).toEqual([
      { upToMinor: '100000', flatMinor: '0', basisPoints: 100 },
      { upToMinor: null, flatMinor: '25', basisPoints: 75 },
    ]);
    expect(() => assertValidFeeRule(rule([{ flatMinor: '10' }]))).not.toThrow();
  });

  it.each([
    ['no tiers', [], 'tiers'],
    ['a last tier with an upper bound', [{ upToMinor: '100', basisPoints: 1 }], 'open-ended'],
    ['an open tier before the last', [{ upToMinor: null }, { upToMinor: null }], 'open-ended'],
    ['bounds not increasing', [{ upToMinor: '200' }, { upToMinor: '100' }, { upToMinor: null }], 'increasing'],
    ['more than 100 %', [{ upToMinor: null, basisPoints: 10_001 }], 'basis points'],
    ['fractional basis points', [{ upToMinor: null, basisPoints: 1.5 }], 'integer'],
  ])('when a rule has %s, then it is refused', (_case, tiers, message) => {
    expect(() => assertValidFeeRule(rule(tiers))).toThrow(message);
  });

  it.each([
    ['a decimal flat fee', [{ flatMinor: '1.5' }], 'whole number'],
    ['a negative flat fee', [{ flatMinor: -1 }], 'whole number'],
    ['a misspelt field', [{ flat: '1' }], 'unknown fields'],
    ['an object, not an array', { flatMinor: '1' }, 'JSON array'],
  ])('when tiers have %s, then they are refused as they are read', (_case, tiers, message) => {
    expect(() => parseFeeTiers(tiers)).toThrow(message);
  });

  it('when the maximum fee is below the minimum, or the minimum is negative, then the rule is refused', () => {
    expect(() => assertValidFeeRule(rule([{}], 500n, 100n))).toThrow('maximum');
    expect(() => assertValidFeeRule(rule([{}], -1n, 100n))).toThrow('negative');
  });
});
