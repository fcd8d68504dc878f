import { amountText, labelOfField, moneyText } from '../src/format';

describe('the dashboard’s amounts and field names, as its pages write them', () => {
  test.each([
    [0, '0.00'],
    [5, '5.00'],
    [0.1, '0.10'],
    [1234.5, '1,234.50'],
    [1_000_000, '1,000,000.00'],
    [995_100.75, '995,100.75'],
    [-42.05, '-42.05'],
  ])('when the amount is %p, then it reads %s', (amount, text) => {
    expect(amountText(amount)).toBe(text);
  });

  test('when an amount has a currency, then it leads; when there is no amount, then a dash', () => {
    expect(moneyText(5000, 'LRD')).toBe('LRD 5,000.00');
    expect(moneyText(0.26)).toBe('0.26');
    expect(moneyText(undefined, 'USD')).toBe('—');
    expect(moneyText(null)).toBe('—');
  });

  test('when a field is not laid out, then its name reads as words', () => {
    expect(labelOfField('collectionRefundedAmount')).toBe('Collection refunded amount');
    expect(labelOfField('cancelledAt')).toBe('Cancelled at');
    expect(labelOfField('phone')).toBe('Phone');
    expect(labelOfField('retry2Count')).toBe('Retry2 count');
  });
});
