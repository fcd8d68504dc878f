import fc from 'fast-check';
import { amountMinorMax, isWrittenNumber, parseAmount, parseAmountText, writtenNumber } from '../../src';

describe('parseAmountText (an amount as written in the request)', () => {
  it.each([
    ['10', 1000n],
    ['10.5', 1050n],
    ['10.50', 1050n],
    ['10.500', 1050n],
    ['10.5000000000000000000', 1050n],
    ['0.01', 1n],
    ['0.10', 10n],
    ['1E2', 10000n],
    ['1.5E7', 1500000000n],
    ['1.05e1', 1050n],
    ['1005e-2', 1005n],
    ['1.0500e1', 1050n],
    ['0e0', undefined],
  ])('when the text is %s, then it is %p minor units', (text, minor) => {
    if (minor === undefined) expect(parseAmountText(text)).toEqual({ ok: false, failure: 'not_positive' });
    else expect(parseAmountText(text)).toEqual({ ok: true, minor });
  });

  it.each([
    ['1.999999999999999999', 'too_many_decimals'],
    ['10.005', 'too_many_decimals'],
    ['0.001', 'too_many_decimals'],
    ['1e-3', 'too_many_decimals'],
    ['1e-99999999999', 'too_many_decimals'],
    ['1e400', 'not_a_number'],
    ['1e99999999999', 'not_a_number'],
    [`1${'0'.repeat(400)}`, 'not_a_number'],
    ['1e21', 'too_large'],
    ['10000000000001', 'too_large'],
    ['0', 'not_positive'],
    ['-0', 'not_positive'],
    ['0.00', 'not_positive'],
    ['-5', 'not_positive'],
    ['-0.001', 'not_positive'],
    ['"10"', 'not_a_number'],
    ['010', 'not_a_number'],
    ['.5', 'not_a_number'],
    ['5.', 'not_a_number'],
    ['+5', 'not_a_number'],
    ['0x10', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['1e', 'not_a_number'],
    ['', 'not_a_number'],
    [' 10', 'not_a_number'],
  ])('when the text is %s, then it fails with %s', (text, failure) => {
    expect(parseAmountText(text)).toEqual({ ok: false, failure });
  });

  it('when the amount is the largest allowed, then it parses; one cent more is too large', () => {
    const largest = `${(amountMinorMax / 100n).toString()}.${(amountMinorMax % 100n).toString().padStart(2, '0')}`;
    expect(parseAmountText(largest)).toEqual({ ok: true, minor: amountMinorMax });
    expect(parseAmountText(`${largest.slice(0, -1)}1`)).toEqual({ ok: false, failure: 'too_large' });
  });

  it('when an amount with at most two significant decimals is written in any JSON form, then it parses to exactly its minor units', () => {
    const writtenForms = fc.record({
      minor: fc.bigInt({ min: 1n, max: 10n ** 14n }),
      trailingZeros: fc.integer({ min: 0, max: 5 }),
      exponentShift: fc.integer({ min: -3, max: 3 }),
      upperCase: fc.boolean(),
    });
    fc.assert(
      fc.property(writtenForms, ({ minor, trailingZeros, exponentShift, upperCase }) => {
        const whole = (minor / 100n).toString();
        const fraction = `${(minor % 100n).toString().padStart(2, '0')}${'0'.repeat(trailingZeros)}`;
        const plain = `${whole}.${fraction}`;
        expect(parseAmountText(plain)).toEqual({ ok: true, minor });
        // Moving the point left by k and writing e+k names the same number.
        const digits = `${whole}${fraction}`;
        const pointAt = whole.length - exponentShift;
        if (pointAt > 0 && pointAt < digits.length && !(digits.startsWith('0') && pointAt > 1)) {
          const shifted = `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}${upperCase ? 'E' : 'e'}${exponentShift}`;
          expect(parseAmountText(shifted)).toEqual({ ok: true, minor });
        }
      }),
      { numRuns: 2000, seed: 14 },
    );
  });

  it('when an amount has a third significant decimal, however many digits follow, then it is refused, never rounded', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 99 }), fc.stringMatching(/^\d{0,20}[1-9]$/), (whole, cents, rest) => {
        expect(parseAmountText(`${whole}.${cents.toString().padStart(2, '0')}${rest}`)).toEqual({ ok: false, failure: 'too_many_decimals' });
      }),
      { numRuns: 2000, seed: 14 },
    );
  });
});

describe('written numbers', () => {
  it('when parseAmount gets an amount as written, then the written digits decide, not the double', () => {
    expect(parseAmount(writtenNumber('1.999999999999999999'))).toEqual({ ok: false, failure: 'too_many_decimals' });
    expect(parseAmount(JSON.parse('1.999999999999999999'))).toEqual({ ok: true, minor: 200n });
    expect(parseAmount(writtenNumber('1e400'))).toEqual({ ok: false, failure: 'not_a_number' });
  });

  it('when a JSON object looks like a written number, then it is not one (the brand is a symbol)', () => {
    const forged: unknown = JSON.parse('{"text":"10"}');
    expect(isWrittenNumber(forged)).toBe(false);
    expect(parseAmount(forged)).toEqual({ ok: false, failure: 'not_a_number' });
    expect(isWrittenNumber(writtenNumber('10'))).toBe(true);
  });
});
