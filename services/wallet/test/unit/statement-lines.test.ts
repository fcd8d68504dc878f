import { movementsOfLine, type StatementLine } from '../../src/domain/statement-lines';

const line = (overrides: Partial<StatementLine>): StatementLine => ({
  lineId: 7n,
  postedAtExact: '2026-11-25T10:00:00.123456Z',
  postedAt: new Date('2026-11-25T10:00:00.123Z'),
  entryAmountMinor: 0n,
  balanceAfterMinor: 0n,
  kind: 'collection',
  transferAmountMinor: 0n,
  transferFeeMinor: 0n,
  transactionId: 'TXN-0123456789ABCDEF',
  referenceId: null,
  externalId: null,
  ...overrides,
});

describe('statement movements of refunds and reversals', () => {
  it('when a refund line is read, then it is one negative refund movement named by the PKR-… with the balance after it', () => {
    const movements = movementsOfLine(
      line({ kind: 'refund', entryAmountMinor: -2_550n, transferAmountMinor: 2_550n, balanceAfterMinor: 7_450n, referenceId: 'PKR-1718000000000-ABCDEF', externalId: 'refund-9' }),
    );
    expect(movements).toEqual([
      expect.objectContaining({ part: 0, type: 'refund', amountMinor: -2_550n, balanceAfterMinor: 7_450n, referenceId: 'PKR-1718000000000-ABCDEF', externalId: 'refund-9' }),
    ]);
  });

  it('when a reversal line is read, then it is one positive reversal movement named by the disbursement’s PKD-…', () => {
    const movements = movementsOfLine(
      line({ kind: 'reversal', entryAmountMinor: 1_050n, transferAmountMinor: 1_050n, balanceAfterMinor: 9_965n, referenceId: 'PKD-1718000000000-0A1B', externalId: 'payout-7' }),
    );
    expect(movements).toEqual([
      expect.objectContaining({ part: 0, type: 'reversal', amountMinor: 1_050n, balanceAfterMinor: 9_965n, referenceId: 'PKD-1718000000000-0A1B', externalId: 'payout-7' }),
    ]);
  });

  it('when a funding correction line is read, then it is one negative funding movement named by its transactionId', () => {
    const movements = movementsOfLine(line({ kind: 'funding_correction', entryAmountMinor: -2_550n, transferAmountMinor: 2_550n, balanceAfterMinor: 7_450n }));
    expect(movements).toEqual([expect.objectContaining({ part: 0, type: 'funding', amountMinor: -2_550n, balanceAfterMinor: 7_450n, referenceId: 'TXN-0123456789ABCDEF' })]);
  });

  it('when a refund or reversal has no referenceId (an older caller), then the transactionId names it and the amounts still add up', () => {
    const [refund] = movementsOfLine(line({ kind: 'refund', entryAmountMinor: -5n, transferAmountMinor: 5n, balanceAfterMinor: 0n }));
    expect(refund).toMatchObject({ type: 'refund', referenceId: 'TXN-0123456789ABCDEF', amountMinor: -5n });
  });
});
