import fc from 'fast-check';
import { buildPosting, postingSumMinor, type PostingKind } from '../../src/domain/posting';

const kinds: PostingKind[] = ['collection', 'disbursement', 'refund', 'reversal', 'funding', 'funding_correction', 'sandbox_credit'];

describe('posting construction', () => {
  it('when a collection is posted, then the user pays amount plus fee, the partner gets the amount and fee revenue the fee', () => {
    expect(buildPosting({ kind: 'collection', currency: 'LRD', amountMinor: 10_000n, feeMinor: 150n })).toEqual({
      currency: 'LRD',
      legs: [
        { role: 'user_wallet', amountMinor: -10_150n },
        { role: 'partner', amountMinor: 10_000n },
        { role: 'fee_revenue', amountMinor: 150n },
      ],
    });
  });

  it('when a disbursement is posted, then the partner pays amount plus fee and the user receives the amount', () => {
    expect(buildPosting({ kind: 'disbursement', currency: 'USD', amountMinor: 2_500n, feeMinor: 25n }).legs).toEqual([
      { role: 'partner', amountMinor: -2_525n },
      { role: 'user_wallet', amountMinor: 2_500n },
      { role: 'fee_revenue', amountMinor: 25n },
    ]);
  });

  it('when money arrives from outside, then the funding account is debited', () => {
    expect(buildPosting({ kind: 'funding', currency: 'USD', amountMinor: 100n, feeMinor: 0n }).legs).toEqual([
      { role: 'funding', amountMinor: -100n },
      { role: 'partner', amountMinor: 100n },
    ]);
    expect(buildPosting({ kind: 'sandbox_credit', currency: 'USD', amountMinor: 100n, feeMinor: 0n }).legs).toEqual([
      { role: 'funding', amountMinor: -100n },
      { role: 'user_wallet', amountMinor: 100n },
    ]);
  });

  it('when the fee is zero, then there is no fee leg', () => {
    expect(buildPosting({ kind: 'collection', currency: 'LRD', amountMinor: 5_000n, feeMinor: 0n }).legs.map((leg) => leg.role)).toEqual([
      'user_wallet',
      'partner',
    ]);
  });

  it('when a refund is posted, then the partner pays back exactly the amount to the user wallet, with no fee leg', () => {
    expect(buildPosting({ kind: 'refund', currency: 'USD', amountMinor: 1_234n, feeMinor: 0n })).toEqual({
      currency: 'USD',
      legs: [
        { role: 'partner', amountMinor: -1_234n },
        { role: 'user_wallet', amountMinor: 1_234n },
      ],
    });
  });

  it('when a disbursement is reversed, then the user wallet pays exactly the amount back to the partner, with no fee leg', () => {
    expect(buildPosting({ kind: 'reversal', currency: 'LRD', amountMinor: 50_001n, feeMinor: 0n }).legs).toEqual([
      { role: 'user_wallet', amountMinor: -50_001n },
      { role: 'partner', amountMinor: 50_001n },
    ]);
  });

  it('when a funding is corrected, then the partner pays exactly the amount back to the funding account, with no fee leg', () => {
    expect(buildPosting({ kind: 'funding_correction', currency: 'USD', amountMinor: 4_001n, feeMinor: 0n }).legs).toEqual([
      { role: 'partner', amountMinor: -4_001n },
      { role: 'funding', amountMinor: 4_001n },
    ]);
    expect(() => buildPosting({ kind: 'funding_correction', currency: 'USD', amountMinor: 100n, feeMinor: 1n })).toThrow(RangeError);
  });

  it('when a refund or a reversal is given a fee, then it is refused (the original fee stays earned)', () => {
    expect(() => buildPosting({ kind: 'refund', currency: 'USD', amountMinor: 100n, feeMinor: 1n })).toThrow(RangeError);
    expect(() => buildPosting({ kind: 'reversal', currency: 'USD', amountMinor: 100n, feeMinor: 1n })).toThrow(RangeError);
  });

  it('when the amount is not positive, the fee negative, or a funding posting has a fee, then it is refused', () => {
    expect(() => buildPosting({ kind: 'collection', currency: 'LRD', amountMinor: 0n, feeMinor: 0n })).toThrow(RangeError);
    expect(() => buildPosting({ kind: 'collection', currency: 'LRD', amountMinor: 1n, feeMinor: -1n })).toThrow(RangeError);
    expect(() => buildPosting({ kind: 'funding', currency: 'LRD', amountMinor: 1n, feeMinor: 1n })).toThrow(RangeError);
  });

  it('when any posting is built, then it sums to zero, has no zero leg, touches each account once and debits exactly one', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.constantFrom('LRD' as const, 'USD' as const),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        (kind, currency, amountMinor, fee) => {
          const feeMinor = kind === 'collection' || kind === 'disbursement' ? fee : 0n;
          const posting = buildPosting({ kind, currency, amountMinor, feeMinor });
          expect(postingSumMinor(posting)).toBe(0n);
          expect(posting.currency).toBe(currency);
          expect(posting.legs.every((leg) => leg.amountMinor !== 0n)).toBe(true);
          expect(new Set(posting.legs.map((leg) => leg.role)).size).toBe(posting.legs.length);
          const debits = posting.legs.filter((leg) => leg.amountMinor < 0n);
          expect(debits).toHaveLength(1);
          expect(debits[0]?.amountMinor).toBe(-(amountMinor + feeMinor));
        },
      ),
    );
  });
});
