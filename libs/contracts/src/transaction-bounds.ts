import type { Currency, MinorUnits } from '@pwa/money';

/**
 * The spec's per-transaction bounds (PKC_2003 and PKC_2004), inclusive at both ends. They are the
 * API's own rules, the same for every user, unlike the per-tier limits the wallet checks.
 */
export const transactionBoundsMinor: Readonly<Record<Currency, { minimumMinor: MinorUnits; maximumMinor: MinorUnits }>> = {
  USD: { minimumMinor: 100n, maximumMinor: 1_000_000n },
  LRD: { minimumMinor: 5_000n, maximumMinor: 185_000_000n },
};
