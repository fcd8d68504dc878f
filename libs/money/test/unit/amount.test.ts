import fc from 'fast-check';
import { amountMinorMax, formatMinor, minorFromDatabase, parseAmount, toApiAmount } from '../../src';

/** What a client sends: a decimal literal with at most two decimals, parsed by JSON.parse. */
const twoDecimalLiteral = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 99 }), fc.constantFrom(0, 1, 2))
  .filter(([whole, cents]) => whole > 0n || cents > 0)
  .map(([whole, cents, decimals]) => {
    const centsText = cents.toString().padStart(2, '0');
    const fraction = decimals === 0 ? '' : decimals === 1 ? `.${centsText[0]}` : `.${centsText}`;
    const minor = whole * 100n + (decimals === 0 ? 0n : decimals === 1 ? BigInt(Number(centsText[0]) * 10) : BigInt(cents));
    return { literal: `${whole}${fraction}`, minor };
  })
  .filter(({ minor }) => minor > 0n);

describe('parseAmount', () => {
  it('when a client sends any amount with at most two decimals, then it parses to exactly those minor units', () => {
    fc.assert(
      fc.property(twoDecimalLiteral, ({ literal, minor }) => {
        expect(parseAmount(JSON.parse(literal))).toEqual({ ok: true, minor });
      }),
      { numRuns: 2000 },
    );
  });

  it('when an amount has a third non-zero decimal, then it is refused, never rounded', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 9 }), (whole, cents, third) => {
        const literal = `${whole}.${cents.toString().padStart(2, '0')}${third}`;
        expect(parseAmount(JSON.parse(literal))).toEqual({ ok: false, failure: 'too_many_decimals' });
      }),
      { numRuns: 2000 },
    );
  });

  it('when minor units go to the API and back, then nothing drifts', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: amountMinorMax }), (minor) => {
        const wire = JSON.parse(JSON.stringify({ amount: toApiAmount(minor) })) as { amount: unknown };
        expect(parseAmount(wire.amount)).toEqual({ ok: true, minor });
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    [10.005, 'too_many_decimals'],
    [0.001, 'too_many_decimals'],
    [1e-7, 'too_many_decimals'],
    [0, 'not_positive'],
    [-5, 'not_positive'],
    ['10.00', 'not_a_number'],
    [null, 'not_a_number'],
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_a_number'],
    [1e21, 'too_large'],
  ])('when the amount is %p, then it fails with %s', (value, failure) => {
    expect(parseAmount(value)).toEqual({ ok: false, failure });
  });

  it.each([
    [10, 1000n],
    [10.1, 1010n],
    [10.1, 1010n],
    [0.01, 1n],
    [1850000, 185000000n],
    [1e3, 100000n],
    [0.1 + 0.2 - 0.3 + 1, 100n],
  ])('when the amount is %p, then it is %p minor units', (value, minor) => {
    expect(parseAmount(value)).toEqual({ ok: true, minor });
  });
});

describe('conversions', () => {
  it('when a BIGINT string comes from Postgres, then it becomes minor units, and junk is refused', () => {
    expect(minorFromDatabase('123456789012')).toBe(123456789012n);
    expect(minorFromDatabase('-5')).toBe(-5n);
    expect(() => minorFromDatabase('1.5')).toThrow();
    expect(() => minorFromDatabase(0.5)).toThrow();
  });

  it('when minor units are formatted for people, then they have separators and two decimals', () => {
    expect(formatMinor(123456789n)).toBe('1,234,567.89');
    expect(formatMinor(5n)).toBe('0.05');
    expect(formatMinor(-1500n)).toBe('-15.00');
  });
});
