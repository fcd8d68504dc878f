import fc from 'fast-check';
import { isTransactionId, newTransactionId } from '../../src/domain/transaction-id';
import { minorToDecimalText, parseDecimalAmountText, parseMinorUnitsText } from '../../src/domain/amount-text';
import { nameBasedUuid } from '../../src/domain/name-based-id';
import { transactableCurrencies } from '../../src/domain/user';

describe('transaction ids', () => {
  it('when a transaction id is made, then it is TXN- and 16 uppercase hex digits', () => {
    const id = newTransactionId();
    expect(id).toMatch(/^TXN-[0-9A-F]{16}$/);
    expect(isTransactionId(id)).toBe(true);
  });

  it('when the random bytes are known, then the id spells them in uppercase hex', () => {
    expect(newTransactionId(() => Buffer.from('00ff10abcdef0102', 'hex'))).toBe('TXN-00FF10ABCDEF0102');
  });

  it('when many ids are made, then they are all different', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newTransactionId()));
    expect(ids.size).toBe(10_000);
  });

  it.each(['TXN-abc', 'txn-00FF10ABCDEF0102', 'TXN-00FF10ABCDEF01', 'PKC-00FF10ABCDEF0102'])('when %s is checked, then it is not a transaction id', (text) => {
    expect(isTransactionId(text)).toBe(false);
  });
});

describe('amounts as text', () => {
  it.each([
    ['1500.50', 150_050n],
    ['1500.5', 150_050n],
    ['1500', 150_000n],
    ['0.01', 1n],
    [' 7.25 ', 725n],
    ['10000000000000.00', 10n ** 15n],
  ])('when the operator types %s, then it is %s minor units', (text, minor) => {
    expect(parseDecimalAmountText(text)).toBe(minor);
  });

  it.each(['0', '0.00', '-5', '1.234', '1,000.00', '1e3', '', '.5', '12.', 'abc', '99999999999999.00', '10000000000000.01'])('when the operator types %j, then it is refused', (text) => {
    expect(parseDecimalAmountText(text)).toBeUndefined();
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
        expect(parseDecimalAmountText(minorToDecimalText(minor))).toBe(minor);
        expect(parseMinorUnitsText(minor.toString())).toBe(minor);
      }),
    );
  });

  it('when a negative balance is printed, then the sign comes before the whole part', () => {
    expect(minorToDecimalText(-5n)).toBe('-0.05');
    expect(minorToDecimalText(-172_000_000n)).toBe('-1720000.00');
  });
});

describe('name-based ids', () => {
  it('when the same name is given twice, then the same version 5 UUID comes back, and another name gives another', () => {
    const id = nameBasedUuid('sandbox-opening-balance:+231770000001:LRD');
    expect(id).toBe(nameBasedUuid('sandbox-opening-balance:+231770000001:LRD'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedUuid('sandbox-opening-balance:+231770000001:USD')).not.toBe(id);
  });
});

describe('currencies listed by the account lookup', () => {
  it('when a wallet is frozen, then its currency is not listed', () => {
    const wallets = [
      { currency: 'LRD' as const, status: 'active' as const, balanceMinor: 0n },
      { currency: 'USD' as const, status: 'frozen' as const, balanceMinor: 0n },
    ];
    expect(transactableCurrencies({ wallets })).toEqual(['LRD']);
  });
});
