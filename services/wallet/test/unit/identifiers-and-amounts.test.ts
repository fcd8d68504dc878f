import { rfc9562UuidPattern } from '@pwa/contracts';
import { isTransactionId, newTransactionId } from '../../src/domain/transaction-id';
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

describe('name-based ids', () => {
  it('when the same name is given twice, then the same version 5 UUID comes back, and another name gives another', () => {
    const id = nameBasedUuid('sandbox-opening-balance:+231770000001:LRD');
    expect(id).toBe(nameBasedUuid('sandbox-opening-balance:+231770000001:LRD'));
    expect(id).toMatch(rfc9562UuidPattern);
    expect(id).toBe(id.toLowerCase());
    expect(id.charAt(14)).toBe('5'); // the version nibble
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
