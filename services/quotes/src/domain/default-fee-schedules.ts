import type { FeeSchedule } from './fee-schedule';

/**
 * The schedules the first fee migration seeds (README, "Fee schedule"). Kept here too so the unit
 * tests can check their properties and an integration test can check the migration seeded exactly
 * these. The bands join without a step: at each upper bound the next tier's fee is the same, so
 * under these defaults a larger amount never pays a smaller fee.
 */
export const defaultFeeSchedules: readonly FeeSchedule[] = [
  {
    type: 'collection',
    currency: 'USD',
    tiers: [
      { upToMinor: 10_000n, flatMinor: 0n, basisPoints: 100 },
      { upToMinor: 100_000n, flatMinor: 25n, basisPoints: 75 },
      { upToMinor: null, flatMinor: 275n, basisPoints: 50 },
    ],
    minimumFeeMinor: 10n,
    maximumFeeMinor: 2_000n,
    revision: 1,
  },
  {
    type: 'disbursement',
    currency: 'USD',
    tiers: [
      { upToMinor: 10_000n, flatMinor: 25n, basisPoints: 100 },
      { upToMinor: 100_000n, flatMinor: 50n, basisPoints: 75 },
      { upToMinor: null, flatMinor: 300n, basisPoints: 50 },
    ],
    minimumFeeMinor: 25n,
    maximumFeeMinor: 2_500n,
    revision: 1,
  },
  {
    type: 'collection',
    currency: 'LRD',
    tiers: [
      { upToMinor: 2_000_000n, flatMinor: 0n, basisPoints: 100 },
      { upToMinor: 20_000_000n, flatMinor: 5_000n, basisPoints: 75 },
      { upToMinor: null, flatMinor: 55_000n, basisPoints: 50 },
    ],
    minimumFeeMinor: 2_000n,
    maximumFeeMinor: 400_000n,
    revision: 1,
  },
  {
    type: 'disbursement',
    currency: 'LRD',
    tiers: [
      { upToMinor: 2_000_000n, flatMinor: 5_000n, basisPoints: 100 },
      { upToMinor: 20_000_000n, flatMinor: 10_000n, basisPoints: 75 },
      { upToMinor: null, flatMinor: 60_000n, basisPoints: 50 },
    ],
    minimumFeeMinor: 5_000n,
    maximumFeeMinor: 500_000n,
    revision: 1,
  },
];
