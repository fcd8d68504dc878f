import { formattedMoney, minorUnitsOf } from '../src/money';
import { describedChange, parameterRows } from '../src/describe';

describe('the console’s money: typed major units to minor-unit strings and back, never floats', () => {
  it.each([
    ['1234.56', '123456'],
    ['1,234.5', '123450'],
    ['0.01', '1'],
    ['10', '1000'],
    ['  7.  ', '700'],
    ['99999999999999.99', '9999999999999999'],
    ['0.29', '29'],
    ['1.10', '110'],
  ])('when %s is typed, then %s minor units are requested', (typed, minor) => {
    expect(minorUnitsOf(typed)).toEqual({ ok: true, minor });
  });

  it.each(['10.005', '1.999', '-5', '0', '0.00', '', 'abc', '1e3', '1.2.3', '+4'])('when %s is typed, then it is refused', (typed) => {
    expect(minorUnitsOf(typed).ok).toBe(false);
  });

  it('when more than two decimals are typed, then the refusal says so', () => {
    expect(minorUnitsOf('10.005')).toEqual({ ok: false, problem: 'At most two decimals (cents)' });
  });

  it.each([
    ['123456', 'USD', 'USD 1,234.56'],
    ['1', 'LRD', 'LRD 0.01'],
    ['0', 'USD', 'USD 0.00'],
    ['100000000', 'USD', 'USD 1,000,000.00'],
    ['-250', 'LRD', '-LRD 2.50'],
    ['9007199254740993', 'USD', 'USD 90,071,992,547,409.93'],
  ])('when %s minor units of %s are shown, then they read %s', (minor, currency, shown) => {
    expect(formattedMoney(minor, currency)).toBe(shown);
  });

  it('when a request is described, then the sentence names the exact amount and target', () => {
    expect(describedChange('partner.fund', { kind: 'partner', id: 'p-1' }, { currency: 'USD', amountMinor: '123456' })).toBe('Credit USD 1,234.56 to partner p-1');
    expect(describedChange('tier_limit.set', { kind: 'tier_limit', id: 'Gold:collection:LRD' }, { dailyMinor: '500000', perDayCount: 20 })).toBe('Set the limits of tier Gold collection LRD: daily LRD 5,000.00, transactions a day 20');
    expect(parameterRows({ currency: 'USD', amountMinor: '5' })).toEqual([
      ['Currency', 'USD'],
      ['Amount', 'USD 0.05 (5 minor units)'],
    ]);
  });
});
