import { minorUnitsOf } from '../lib/decimal-amount';

/** The CLI's amounts become exact minor-unit strings by text, never through a float. */
describe('minorUnitsOf', () => {
  it.each([
    ['12.50', '1250'],
    ['12.5', '1250'],
    ['0.29', '29'],
    ['0.01', '1'],
    ['1250', '125000'],
    ['00012.05', '1205'],
    ['99999999999999.99', '9999999999999999'],
  ])('when the amount is %s, then the minor units are %s', (amount, minor) => {
    expect(minorUnitsOf(amount)).toBe(minor);
  });

  it.each(['0', '0.00', '-1', '1.234', '1,250.00', '1e3', '', '.5', '12.'])('when the amount is %j, then it is refused', (amount) => {
    expect(minorUnitsOf(amount)).toBeUndefined();
  });
});
