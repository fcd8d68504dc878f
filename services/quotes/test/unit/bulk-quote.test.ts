import fc from 'fast-check';
import type { WalletTransferBatchCheckResult } from '@pwa/contracts';
import { decideBulkQuote, priceBulkItems, type PricedBulkItem } from '../../src/domain/bulk-quote';
import { defaultFeeSchedules } from '../../src/domain/default-fee-schedules';
import { calculateFeeMinor } from '../../src/domain/fee-calculation';

const usdDisbursement = defaultFeeSchedules.find((schedule) => schedule.type === 'disbursement' && schedule.currency === 'USD')!;

const priced = (index: number, amountMinor: bigint, feeMinor: bigint): PricedBulkItem => ({
  index,
  phone: `+23177000000${index}`,
  amountMinor,
  feeMinor,
  externalId: `item-${index}`,
  note: null,
});
const passed = (name: string): WalletTransferBatchCheckResult => ({ outcome: 'passed', phone: '+231770000001', recipientName: name });
const refused = (code: string): WalletTransferBatchCheckResult => ({ outcome: 'refused', code });

describe('bulk quote decisions', () => {
  test('when items are priced, then each gets the fee a single quote of its amount would get', () => {
    const items = [1_025n, 50_000n, 200_000n].map((amountMinor, index) => ({ index, phone: '+231770000001', amountMinor, externalId: `e${index}`, note: null }));
    expect(priceBulkItems(usdDisbursement, items).map((item) => item.feeMinor)).toEqual([35n, 425n, 1_300n]);
  });

  test('when some items are refused, then results keep the request order and only the passed items count towards the debit', () => {
    const decision = decideBulkQuote([priced(4, 1_000n, 35n), priced(1, 9_999n, 125n), priced(2, 500n, 30n)], [passed('A'), refused('PKC_4009'), passed('C')], 1_565n);

    expect(decision).toEqual({
      kind: 'store',
      totalDebitMinor: 1_565n,
      results: [
        { index: 4, outcome: 'valid', feeMinor: 35n, recipientName: 'A' },
        { index: 1, outcome: 'invalid', code: 'PKC_4009' },
        { index: 2, outcome: 'valid', feeMinor: 30n, recipientName: 'C' },
      ],
      validItems: [
        { index: 4, phone: '+231770000001', recipientName: 'A', amountMinor: 1_000n, feeMinor: 35n, externalId: 'item-4', note: null },
        { index: 2, phone: '+231770000001', recipientName: 'C', amountMinor: 500n, feeMinor: 30n, externalId: 'item-2', note: null },
      ],
    });
  });

  test('when the balance is one minor unit short of the valid items, then the whole bulk is refused with PKC_4002', () => {
    expect(decideBulkQuote([priced(0, 1_000n, 35n), priced(1, 500n, 30n)], [passed('A'), passed('B')], 1_564n)).toEqual({
      kind: 'refused',
      code: 'PKC_4002',
      totalDebitMinor: 1_565n,
    });
  });

  test('when every item is refused, then nothing is valid whatever the balance', () => {
    expect(decideBulkQuote([priced(0, 1_000n, 35n)], [refused('PKC_3001')], 0n)).toEqual({
      kind: 'nothing_valid',
      results: [{ index: 0, outcome: 'invalid', code: 'PKC_3001' }],
    });
  });

  test('when the wallet answers another number of results than items, then it is an error, not a decision', () => {
    expect(() => decideBulkQuote([priced(0, 1_000n, 35n)], [], 10_000n)).toThrow(RangeError);
  });

  test('for any items and outcomes, a bulk is stored exactly when some item passed and the balance covers the passed items', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ amountMinor: fc.bigInt({ min: 1n, max: 1_000_000n }), passes: fc.boolean() }), { minLength: 1, maxLength: 30 }),
        fc.bigInt({ min: 0n, max: 20_000_000n }),
        (drawn, balanceMinor) => {
          const items = drawn.map((item, index) => priced(index, item.amountMinor, calculateFeeMinor(usdDisbursement, item.amountMinor)));
          const decision = decideBulkQuote(items, drawn.map((item) => (item.passes ? passed('X') : refused('PKC_3005'))), balanceMinor);
          const debit = items.filter((_, position) => drawn[position]!.passes).reduce((sum, item) => sum + item.amountMinor + item.feeMinor, 0n);
          const expected = drawn.some((item) => item.passes) ? (debit <= balanceMinor ? 'store' : 'refused') : 'nothing_valid';
          expect(decision.kind).toBe(expected);
          if (decision.kind !== 'refused') expect(decision.results.map((result) => result.index)).toEqual(items.map((item) => item.index));
        },
      ),
    );
  });
});
