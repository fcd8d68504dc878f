import type { Currency } from '@pwa/money';
import type { AccountStatus, KycStatus, Tier, WalletStatus } from './user';

/**
 * The sandbox's test users, one per situation a partner integration must handle. `seed-sandbox`
 * creates them (and restores their statuses when run again); the opening balances are credited
 * once. The README lists them for partners.
 */
export interface SandboxUser {
  phone: string;
  name: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  tier: Tier;
  wallets: { currency: Currency; status: WalletStatus; openingBalanceMinor: bigint }[];
  /** What a partner can try with this user. */
  purpose: string;
}

const lrd = (major: bigint): bigint => major * 100n;
const usd = lrd;

export const sandboxUsers: readonly SandboxUser[] = [
  {
    phone: '+231770000001',
    name: 'Comfort Gold',
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: 'Gold',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: lrd(500_000n) },
      { currency: 'USD', status: 'active', openingBalanceMinor: usd(5_000n) },
    ],
    purpose: 'happy path: collections and disbursements in LRD and USD',
  },
  {
    phone: '+231770000002',
    name: 'Samuel Suspended',
    accountStatus: 'suspended',
    kycStatus: 'approved',
    tier: 'Silver',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: lrd(10_000n) },
      { currency: 'USD', status: 'active', openingBalanceMinor: usd(100n) },
    ],
    purpose: 'account suspended: PKC_3002',
  },
  {
    phone: '+231770000003',
    name: 'Clara Closed',
    accountStatus: 'closed',
    kycStatus: 'approved',
    tier: 'Silver',
    wallets: [{ currency: 'LRD', status: 'active', openingBalanceMinor: 0n }],
    purpose: 'account closed: PKC_3002',
  },
  {
    phone: '+231770000004',
    name: 'Peter Pending',
    accountStatus: 'active',
    kycStatus: 'pending',
    tier: 'Silver',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: lrd(10_000n) },
      { currency: 'USD', status: 'active', openingBalanceMinor: usd(100n) },
    ],
    purpose: 'KYC not approved: PKC_3005',
  },
  {
    phone: '+231770000005',
    name: 'Fatu Frozen',
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: 'Silver',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: lrd(50_000n) },
      { currency: 'USD', status: 'frozen', openingBalanceMinor: usd(500n) },
    ],
    purpose: 'USD wallet frozen: PKC_3004 in USD; LRD works',
  },
  {
    phone: '+231770000006',
    name: 'Lorpu LRD-Only',
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: 'Silver',
    wallets: [{ currency: 'LRD', status: 'active', openingBalanceMinor: lrd(50_000n) }],
    purpose: 'no USD wallet: PKC_3003 in USD; LRD works',
  },
  {
    phone: '+231770000007',
    name: 'Bendu Basic',
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: 'Basic',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: lrd(100_000n) },
      { currency: 'USD', status: 'active', openingBalanceMinor: usd(1_000n) },
    ],
    purpose: 'Basic tier, low limits: above 100 USD / 18,500 LRD is PKC_4003, daily 200 USD / 37,000 LRD is PKC_4004',
  },
  {
    phone: '+231880000008',
    name: 'Emmanuel Empty',
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: 'Silver',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: 0n },
      { currency: 'USD', status: 'active', openingBalanceMinor: 0n },
    ],
    purpose: 'empty wallets: any collection is PKC_4001; disbursements work',
  },
  // Collections of the next four resolve on their own after a short delay (the collections
  // service's sandbox auto-resolver; services/collections/README.md), as if the user acted in the app.
  ...autoResolvingCollectionUsers(),
];

function autoResolvingCollectionUsers(): SandboxUser[] {
  const behaviours = [
    ['+231770000011', 'Aaron Approves', 'collections are approved by the user automatically (then completed)'],
    ['+231770000012', 'Deborah Declines', 'collections are declined by the user automatically'],
    ['+231770000013', 'Eric Expires', 'collections expire automatically (the approval window passes at once)'],
    ['+231770000014', 'Fanta Fails', 'collections are approved, then fail with a processing error (PKC_7002); no money moves'],
  ] as const;
  return behaviours.map(([phone, name, purpose]) => ({
    phone,
    name,
    accountStatus: 'active',
    kycStatus: 'approved',
    tier: 'Gold',
    wallets: [
      { currency: 'LRD', status: 'active', openingBalanceMinor: lrd(500_000n) },
      { currency: 'USD', status: 'active', openingBalanceMinor: usd(5_000n) },
    ],
    purpose: `auto-resolving sandbox user: ${purpose}`,
  }));
}

/** The sandbox funding a partner receives from `seed-sandbox --partner <partnerId>` (once). */
export const sandboxPartnerFunding: readonly { currency: Currency; amountMinor: bigint }[] = [
  { currency: 'LRD', amountMinor: lrd(1_000_000n) },
  { currency: 'USD', amountMinor: usd(10_000n) },
];
