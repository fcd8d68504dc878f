import fc from 'fast-check';
import { firstFailingCheck, type TransferFacts, type TransferIntent } from '../../src/domain/transfer-checks';
import { noUsage, type TierLimitRule } from '../../src/domain/tier-limits';
import { accountStatuses, kycStatuses, walletStatuses } from '../../src/domain/user';

const rule: TierLimitRule = {
  tier: 'Gold',
  transactionType: 'collection',
  currency: 'LRD',
  perTransactionMaxMinor: 100_000n,
  dailyMaxMinor: 200_000n,
  weeklyMaxMinor: 300_000n,
  monthlyMaxMinor: 400_000n,
  yearlyMaxMinor: 500_000n,
  perHourCountMax: 3,
  perDayCountMax: 5,
};

const collection: TransferIntent = { type: 'collection', currency: 'LRD', amountMinor: 10_000n, feeMinor: 500n };
const disbursement: TransferIntent = { ...collection, type: 'disbursement' };
const refund: TransferIntent = { ...collection, type: 'refund', feeMinor: 0n };

const passing: TransferFacts = {
  user: { accountStatus: 'active', kycStatus: 'approved' },
  wallet: { status: 'active', balanceMinor: 1_000_000n },
  partnerBalanceMinor: 1_000_000n,
  limits: { found: true, rule },
  usage: noUsage,
};

describe('transfer checks', () => {
  it('when every rule passes, then the transfer may proceed', () => {
    expect(firstFailingCheck(collection, passing)).toBeUndefined();
    expect(firstFailingCheck(disbursement, passing)).toBeUndefined();
  });

  it.each([
    ['there is no account', { user: undefined }, 'PKC_3001'],
    ['the account is suspended', { user: { accountStatus: 'suspended', kycStatus: 'approved' } }, 'PKC_3002'],
    ['the account is closed', { user: { accountStatus: 'closed', kycStatus: 'approved' } }, 'PKC_3002'],
    ['there is no wallet in the currency', { wallet: undefined }, 'PKC_3003'],
    ['the wallet is frozen', { wallet: { status: 'frozen', balanceMinor: 1_000_000n } }, 'PKC_3004'],
    ['KYC is pending', { user: { accountStatus: 'active', kycStatus: 'pending' } }, 'PKC_3005'],
    ['KYC was rejected', { user: { accountStatus: 'active', kycStatus: 'rejected' } }, 'PKC_3005'],
    ['the tier has no limits', { limits: { found: false, refusal: 'PKC_4011' } }, 'PKC_4011'],
    ['the type and currency have no limits', { limits: { found: false, refusal: 'PKC_4012' } }, 'PKC_4012'],
    ['the daily count is used up', { usage: { ...noUsage, dayCount: 5 } }, 'PKC_4009'],
    ['the hourly count is used up', { usage: { ...noUsage, hourCount: 3, dayCount: 3 } }, 'PKC_4010'],
  ] as const)('when %s, then the refusal is %s', (_situation, overrides, code) => {
    expect(firstFailingCheck(collection, { ...passing, ...overrides })).toBe(code);
  });

  it('when the user cannot pay amount plus fee, then a collection is PKC_4001 but a disbursement is fine', () => {
    const facts = { ...passing, wallet: { status: 'active' as const, balanceMinor: 10_499n } };
    expect(firstFailingCheck(collection, facts)).toBe('PKC_4001');
    expect(firstFailingCheck(disbursement, facts)).toBeUndefined();
    expect(firstFailingCheck(collection, { ...facts, wallet: { status: 'active', balanceMinor: 10_500n } })).toBeUndefined();
  });

  it('when the partner cannot pay amount plus fee, then a disbursement is PKC_4002 but a collection is fine', () => {
    const facts = { ...passing, partnerBalanceMinor: 10_499n };
    expect(firstFailingCheck(disbursement, facts)).toBe('PKC_4002');
    expect(firstFailingCheck(collection, facts)).toBeUndefined();
  });

  it('when the account is closed, the wallet frozen and the balance empty, then the account status wins', () => {
    const facts: TransferFacts = {
      ...passing,
      user: { accountStatus: 'closed', kycStatus: 'pending' },
      wallet: { status: 'frozen', balanceMinor: 0n },
      limits: { found: false, refusal: 'PKC_4011' },
    };
    expect(firstFailingCheck(collection, facts)).toBe('PKC_3002');
  });

  it('when the balance is short and a limit is broken, then the balance is reported first', () => {
    const facts: TransferFacts = { ...passing, wallet: { status: 'active', balanceMinor: 0n }, usage: { ...noUsage, dayCount: 99 } };
    expect(firstFailingCheck(collection, facts)).toBe('PKC_4001');
  });

  it('when a refund is checked, then the account rules apply in the same order and the partner pays: PKC_4002 below the amount', () => {
    expect(firstFailingCheck(refund, passing)).toBeUndefined();
    expect(firstFailingCheck(refund, { ...passing, user: undefined })).toBe('PKC_3001');
    expect(firstFailingCheck(refund, { ...passing, user: { accountStatus: 'suspended', kycStatus: 'approved' } })).toBe('PKC_3002');
    expect(firstFailingCheck(refund, { ...passing, wallet: undefined })).toBe('PKC_3003');
    expect(firstFailingCheck(refund, { ...passing, wallet: { status: 'frozen', balanceMinor: 0n } })).toBe('PKC_3004');
    expect(firstFailingCheck(refund, { ...passing, user: { accountStatus: 'active', kycStatus: 'pending' } })).toBe('PKC_3005');
    expect(firstFailingCheck(refund, { ...passing, partnerBalanceMinor: 9_999n })).toBe('PKC_4002');
    expect(firstFailingCheck(refund, { ...passing, partnerBalanceMinor: 10_000n })).toBeUndefined();
    // The user's own balance does not matter: the user receives.
    expect(firstFailingCheck(refund, { ...passing, wallet: { status: 'active', balanceMinor: 0n } })).toBeUndefined();
  });

  it('when a refund meets any limit facts (none read, no rule, used up), then no limit refuses it', () => {
    const usedUp = { hourCount: 99, dayCount: 99, dayAmountMinor: 10n ** 12n, weekAmountMinor: 10n ** 12n, monthAmountMinor: 10n ** 12n, yearAmountMinor: 10n ** 12n };
    for (const limits of [undefined, { found: false as const, refusal: 'PKC_4011' as const }, { found: false as const, refusal: 'PKC_4012' as const }, { found: true as const, rule }]) {
      expect(firstFailingCheck({ ...refund, amountMinor: 10n ** 9n }, { ...passing, limits, usage: usedUp, partnerBalanceMinor: 10n ** 10n })).toBeUndefined();
    }
  });

  it('when the limits of a collection or disbursement were not read, then the check fails loudly instead of letting it pass', () => {
    expect(() => firstFailingCheck(collection, { ...passing, limits: undefined })).toThrow('were not read');
  });

  it('when any facts are combined, then the code is the first failing rule of the documented order', () => {
    const facts = fc.record({
      user: fc.option(fc.record({ accountStatus: fc.constantFrom(...accountStatuses), kycStatus: fc.constantFrom(...kycStatuses) }), { nil: undefined }),
      wallet: fc.option(fc.record({ status: fc.constantFrom(...walletStatuses), balanceMinor: fc.bigInt({ min: 0n, max: 50_000n }) }), { nil: undefined }),
      partnerBalanceMinor: fc.bigInt({ min: 0n, max: 50_000n }),
      limits: fc.constantFrom({ found: true as const, rule }, { found: false as const, refusal: 'PKC_4011' as const }, { found: false as const, refusal: 'PKC_4012' as const }),
      usage: fc.record({
        hourCount: fc.integer({ min: 0, max: 6 }),
        dayCount: fc.integer({ min: 0, max: 6 }),
        dayAmountMinor: fc.bigInt({ min: 0n, max: 600_000n }),
        weekAmountMinor: fc.bigInt({ min: 0n, max: 600_000n }),
        monthAmountMinor: fc.bigInt({ min: 0n, max: 600_000n }),
        yearAmountMinor: fc.bigInt({ min: 0n, max: 600_000n }),
      }),
    });
    const intent = fc.record({
      type: fc.constantFrom('collection' as const, 'disbursement' as const, 'refund' as const),
      currency: fc.constant('LRD' as const),
      amountMinor: fc.bigInt({ min: 1n, max: 150_000n }),
      feeMinor: fc.bigInt({ min: 0n, max: 5_000n }),
    }).map((drawn) => (drawn.type === 'refund' ? { ...drawn, feeMinor: 0n } : drawn));
    fc.assert(
      fc.property(intent, facts, (request, known) => {
        const total = request.amountMinor + request.feeMinor;
        const limitBroken = (): string | undefined => {
          if (!known.limits.found) return known.limits.refusal;
          const u = known.usage;
          const a = request.amountMinor;
          if (a > rule.perTransactionMaxMinor) return 'PKC_4003';
          if (u.dayAmountMinor + a > rule.dailyMaxMinor) return 'PKC_4004';
          if (u.weekAmountMinor + a > rule.weeklyMaxMinor) return 'PKC_4007';
          if (u.monthAmountMinor + a > rule.monthlyMaxMinor) return 'PKC_4005';
          if (u.yearAmountMinor + a > rule.yearlyMaxMinor) return 'PKC_4008';
          if (u.dayCount >= rule.perDayCountMax) return 'PKC_4009';
          if (u.hourCount >= rule.perHourCountMax) return 'PKC_4010';
          return undefined;
        };
        const documentedOrder: [() => boolean, string | undefined][] = [
          [() => known.user === undefined, 'PKC_3001'],
          [() => known.user?.accountStatus !== 'active', 'PKC_3002'],
          [() => known.wallet === undefined, 'PKC_3003'],
          [() => known.wallet?.status !== 'active', 'PKC_3004'],
          [() => known.user?.kycStatus !== 'approved', 'PKC_3005'],
          [() => request.type === 'collection' && (known.wallet?.balanceMinor ?? 0n) < total, 'PKC_4001'],
          [() => request.type !== 'collection' && known.partnerBalanceMinor < total, 'PKC_4002'],
          [() => request.type !== 'refund' && limitBroken() !== undefined, limitBroken()],
        ];
        const expected = documentedOrder.find(([fails]) => fails())?.[1];
        expect(firstFailingCheck(request, known)).toBe(expected);
      }),
    );
  });
});
