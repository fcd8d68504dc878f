import fc from 'fast-check';
import { majorUnitsText, minorUnitsText, parseMajorUnitsText, parseMinorUnitsText } from '../../src';

describe('money as text: minor units on internal HTTP, major units from operators', () => {
  it.each([
    ['1500.50', 150_050n],
    ['1500.5', 150_050n],
    ['1500', 150_000n],
    ['0.01', 1n],
    [' 7.25 ', 725n],
    ['10000000000000.00', 10n ** 15n],
  ])('when the operator types %s, then it is %s minor units', (text, minor) => {
    expect(parseMajorUnitsText(text, { allowZero: false })).toBe(minor);
  });

  it.each(['0', '0.00', '-5', '1.234', '1,000.00', '1e3', '', '.5', '12.', 'abc', '99999999999999.00', '10000000000000.01'])('when the operator types %j, then it is refused', (text) => {
    expect(parseMajorUnitsText(text, { allowZero: false })).toBeUndefined();
  });

  it.each([
    ['1050', 1050n],
    ['0', 0n],
    ['1000000000000000', 10n ** 15n],
  ])('when the internal API sends %s, then it is %s minor units', (text, minor) => {
    expect(parseMinorUnitsText(text)).toBe(minor);
  });

  it.each(['01', '-1', '+1', '10.5', '1e3', ' 1', '', '1000000000000001'])('when the internal API sends %j, then it is refused', (text) => {
    expect(parseMinorUnitsText(text)).toBeUndefined();
  });

  it('when any amount is printed for an operator, then reading it back gives the same minor units', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (minor) => {
        expect(parseMajorUnitsText(majorUnitsText(minor), { allowZero: false })).toBe(minor);
        expect(parseMinorUnitsText(minor.toString())).toBe(minor);
      }),
    );
  });

  it('when a negative balance is printed, then the sign comes before the whole part', () => {
    expect(majorUnitsText(-5n)).toBe('-0.05');
    expect(majorUnitsText(-172_000_000n)).toBe('-1720000.00');
  });
});

describe('major units where zero is an amount (a free fee)', () => {
  it.each([
    ['0.50', 50n],
    ['100', 10_000n],
    ['12.5', 1_250n],
    ['0', 0n],
    ['1.234', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    ['', undefined],
  ])('when the operator types %p, then it is %p minor units', (text, minor) => {
    expect(parseMajorUnitsText(text, { allowZero: true })).toBe(minor);
  });
});

describe('minor units written for the wire', () => {
  it('when an amount is written, then it reads back the same, and an amount out of range is refused', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (minor) => expect(parseMinorUnitsText(minorUnitsText(minor))).toBe(minor)));
    expect(() => minorUnitsText(-1n)).toThrow(RangeError);
    expect(() => minorUnitsText(10n ** 15n + 1n)).toThrow(RangeError);
  });
});
