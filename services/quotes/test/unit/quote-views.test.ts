import fc from 'fast-check';
import type { Quote } from '../../src/domain/quote';
import { collectionQuoteView, disbursementQuoteView, lifetimeText } from '../../src/domain/quote-views';

const quote: Quote = {
  quoteId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  partnerId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  type: 'disbursement',
  phone: '+231770123456',
  currency: 'USD',
  amountMinor: 10_050n,
  feeMinor: 126n,
  totalDebitMinor: 10_176n,
  recipientName: 'Comfort Doe',
  recipientAccountStatus: 'active',
  recipientHasWallet: true,
  partnerBalanceMinor: 50_000n,
  feeScheduleRevision: 1,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: new Date('2026-01-01T00:10:00Z'),
  usedAt: null,
};

describe('quote views', () => {
  it('when a collection quote is shown, then it has exactly the spec fields with amounts as JSON numbers', () => {
    const view = collectionQuoteView({ ...quote, type: 'collection' }, 600);
    expect(Object.keys(view).sort()).toEqual(
      ['quoteId', 'recipient', 'amount', 'currency', 'fee', 'totalDebit', 'sufficientBalance', 'approvalWindowMinutes', 'note'].sort(),
    );
    expect(view).toEqual({
      quoteId: quote.quoteId,
      recipient: { name: 'Comfort Doe', phone: '+231770123456', accountStatus: 'active' },
      amount: 100.5,
      currency: 'USD',
      fee: 1.26,
      totalDebit: 101.76,
      sufficientBalance: true,
      approvalWindowMinutes: 10,
      note: expect.stringContaining('101.76 USD'),
    });
    expect(view.note).toContain('10 minutes');
  });

  it('when a disbursement quote is shown, then it has exactly the spec fields and the note says what remains', () => {
    const view = disbursementQuoteView(quote, 600);
    expect(Object.keys(view).sort()).toEqual(
      ['quoteId', 'recipient', 'amount', 'currency', 'fee', 'totalDebit', 'partnerBalance', 'sufficientBalance', 'note'].sort(),
    );
    expect(view.recipient).toEqual({ name: 'Comfort Doe', phone: '+231770123456', accountStatus: 'active', hasWallet: true });
    expect(view).toMatchObject({ amount: 100.5, fee: 1.26, totalDebit: 101.76, partnerBalance: 500, sufficientBalance: true });
    expect(view.note).toContain('leaving 398.24 USD');
  });

  it('when any amount and fee are shown, then totalDebit read back is amount plus fee to the cent', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 185_000_000n }), fc.bigInt({ min: 0n, max: 500_000n }), (amountMinor, feeMinor) => {
        const wire = JSON.parse(
          JSON.stringify(collectionQuoteView({ ...quote, amountMinor, feeMinor, totalDebitMinor: amountMinor + feeMinor }, 600)),
        ) as { amount: number; fee: number; totalDebit: number };
        const cents = (value: number): bigint => BigInt(Math.round(value * 100));
        expect(cents(wire.amount) + cents(wire.fee)).toBe(cents(wire.totalDebit));
        expect(cents(wire.totalDebit)).toBe(amountMinor + feeMinor);
        for (const value of [wire.amount, wire.fee, wire.totalDebit]) expect(String(value)).toMatch(/^\d+(\.\d{1,2})?$/);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [600, '10 minutes'],
    [60, '1 minute'],
    [90, '90 seconds'],
  ])('when the lifetime is %s seconds, then the note says %s', (seconds, text) => {
    expect(lifetimeText(seconds)).toBe(text);
  });
});
