import type { Pool } from '@pwa/db';
import { OperatorUsageError } from '@pwa/runtime/operator-cli';
import type { WalletStoreConfig } from '../config';
import { parseUserName } from '../domain/user';
import { listPartnerAccounts, systemBalances } from '../store/account-store';
import { changeUser, createUser, showUser } from '../use-cases/manage-users';
import { creditWalletInSandbox, fundKnownPartner, type PartnerLookup } from '../use-cases/operator-postings';
import { setLimit, showLimits } from '../use-cases/manage-limits';
import { checkLedger } from '../use-cases/check-ledger';
import { seedSandbox } from '../use-cases/seed-sandbox';
import { reverseDisbursement, type ReversalTarget } from '../use-cases/reverse-disbursement';
import {
  operatorName,
  optional,
  parseAccountStatusArgument,
  parseAmountArgument,
  parseCountArgument,
  parseCurrencyArgument,
  parseCurrencyList,
  parseDisbursementReferenceIdArgument,
  parseKycStatusArgument,
  parsePhoneArgument,
  parseReasonArgument,
  parseTierArgument,
  parseTransactionIdArgument,
  parseTransactionTypeArgument,
  parseUuidArgument,
  requireArgument,
  requireOption,
} from './operator-arguments';
import {
  balancesView,
  describeBalances,
  describeLimits,
  describePosting,
  describeReversal,
  describeUser,
  limitView,
  postingView,
  reversalView,
  userView,
} from './operator-views';

export { OperatorUsageError };

export const operatorUsage = `Usage: npm run operator -- <command> [arguments] [--json]

Users
  create-user --phone <phone> --name <name> [--tier Basic] [--kyc approved] [--status active]
              [--currencies LRD,USD|none]
  update-user <phone> [--name <name>] [--status active|suspended|closed] [--kyc pending|approved|rejected]
              [--tier Basic|Silver|Gold|Platinum] [--freeze LRD] [--unfreeze LRD] [--add-currency USD]
              [--close-wallet USD] [--reopen-wallet USD]
              a wallet closes only at a zero balance; closed, every quote and transfer in that
              currency is refused with PKC_3003; reopened, it is active on the same ledger account
  show-user <phone>                                   profile and wallet balances

Money (amounts in major units, at most 2 decimals: 1500.50)
  credit-wallet <phone> <currency> <amount> [--transfer-id <uuid>]      sandbox only
  fund-partner <partnerId> <currency> <amount> [--reference <text>] [--transfer-id <uuid>]
                                                      the partner id is checked with the auth service
                                                      (AUTH_URL); an id it does not know is refused
  show-balances [--partner <partnerId>]               partner accounts, fee revenue, funding account
  check-ledger                                        ledger invariants; exit 1 when one fails
  reverse-disbursement (--reference-id PKD-… | --transaction-id TXN-…) --reason <text> [--operator <name>]
                                                      a disbursement sent in error, posted back as its own
                                                      transfer (user wallet -amount, partner +amount; the
                                                      fee stays earned); once per disbursement, only when
                                                      the wallet holds the amount; audited with the reason
                                                      and the operator (default: the OS user)

Limits (per tier, transaction type and currency)
  show-limits [--tier <tier>]
  set-limit --tier <tier> --type collection|disbursement --currency <currency>
            [--per-transaction X] [--daily X] [--weekly X] [--monthly X] [--yearly X]
            [--per-hour-count N] [--per-day-count N]

Sandbox
  seed-sandbox [--partner <partnerId>]                documented test users (and partner funding); sandbox only

--json prints one JSON object per command ({"error": "..."} on failure).
`;

export interface OperatorContext {
  pool: Pool;
  config: Readonly<WalletStoreConfig>;
  /** The auth service's answer to "does this partner exist" (fund-partner). */
  partners: PartnerLookup;
}

export interface OperatorOptions {
  phone?: string | undefined;
  name?: string | undefined;
  tier?: string | undefined;
  kyc?: string | undefined;
  status?: string | undefined;
  currencies?: string | undefined;
  freeze?: string | undefined;
  unfreeze?: string | undefined;
  addCurrency?: string | undefined;
  closeWallet?: string | undefined;
  reopenWallet?: string | undefined;
  reference?: string | undefined;
  transferId?: string | undefined;
  partner?: string | undefined;
  type?: string | undefined;
  currency?: string | undefined;
  perTransaction?: string | undefined;
  daily?: string | undefined;
  weekly?: string | undefined;
  monthly?: string | undefined;
  yearly?: string | undefined;
  perHourCount?: string | undefined;
  perDayCount?: string | undefined;
  referenceId?: string | undefined;
  transactionId?: string | undefined;
  reason?: string | undefined;
  operator?: string | undefined;
}

export interface OperatorResult {
  data: unknown;
  text: string;
  /** Non-zero when the command ran but found a problem (check-ledger). */
  exitCode?: number;
}

type CommandHandler = (context: OperatorContext, args: string[], options: OperatorOptions) => Promise<OperatorResult>;

const commands: Record<string, CommandHandler> = {
  'create-user': async ({ pool }, _args, options) => {
    const user = await createUser(pool, {
      phone: parsePhoneArgument(requireOption(options.phone, 'phone')),
      name: parseName(requireOption(options.name, 'name')),
      tier: parseTierArgument(options.tier ?? 'Basic'),
      kycStatus: parseKycStatusArgument(options.kyc ?? 'approved'),
      accountStatus: parseAccountStatusArgument(options.status ?? 'active'),
      currencies: parseCurrencyList(options.currencies ?? 'LRD,USD'),
    });
    return { data: userView(user), text: describeUser(user) };
  },
  'update-user': async ({ pool }, args, options) => {
    const user = await changeUser(pool, parsePhoneArgument(requireArgument(args, 0, 'phone')), {
      name: optional(options.name, parseName),
      accountStatus: optional(options.status, parseAccountStatusArgument),
      kycStatus: optional(options.kyc, parseKycStatusArgument),
      tier: optional(options.tier, parseTierArgument),
      freeze: optional(options.freeze, parseCurrencyList),
      unfreeze: optional(options.unfreeze, parseCurrencyList),
      addCurrencies: optional(options.addCurrency, parseCurrencyList),
      closeWallets: optional(options.closeWallet, parseCurrencyList),
      reopenWallets: optional(options.reopenWallet, parseCurrencyList),
    });
    return { data: userView(user), text: describeUser(user) };
  },
  'show-user': async ({ pool }, args) => {
    const user = await showUser(pool, parsePhoneArgument(requireArgument(args, 0, 'phone')));
    return { data: userView(user), text: describeUser(user) };
  },
  'credit-wallet': async ({ pool, config }, args, options) => {
    const outcome = await creditWalletInSandbox(pool, config.ENVIRONMENT, {
      phone: parsePhoneArgument(requireArgument(args, 0, 'phone')),
      currency: parseCurrencyArgument(requireArgument(args, 1, 'currency')),
      amountMinor: parseAmountArgument(requireArgument(args, 2, 'amount')),
      transferId: optional(options.transferId, (text) => parseUuidArgument(text, 'transfer id')),
    });
    return { data: postingView(outcome), text: describePosting(outcome) };
  },
  'fund-partner': async ({ pool, partners }, args, options) => {
    const reference = options.reference?.trim();
    if (reference !== undefined && (reference.length === 0 || reference.length > 200)) throw new OperatorUsageError('--reference must be 1 to 200 characters');
    const { partner, outcome } = await fundKnownPartner(pool, partners, {
      partnerId: parseUuidArgument(requireArgument(args, 0, 'partner id'), 'partner id'),
      currency: parseCurrencyArgument(requireArgument(args, 1, 'currency')),
      amountMinor: parseAmountArgument(requireArgument(args, 2, 'amount')),
      reference: reference ?? null,
      transferId: optional(options.transferId, (text) => parseUuidArgument(text, 'transfer id')),
    });
    return {
      data: { ...postingView(outcome), partner: { partnerId: partner.partnerId, name: partner.name, status: partner.status } },
      text: `partner ${partner.name} (${partner.status}): ${describePosting(outcome)}`,
    };
  },
  'reverse-disbursement': async ({ pool }, _args, options) => {
    const summary = await reverseDisbursement(pool, {
      target: reversalTarget(options),
      reason: parseReasonArgument(requireOption(options.reason, 'reason')),
      operator: operatorName(options.operator),
    });
    return { data: reversalView(summary), text: describeReversal(summary) };
  },
  'show-balances': async ({ pool }, _args, options) => {
    const report = {
      partners: await listPartnerAccounts(pool, optional(options.partner, (text) => parseUuidArgument(text, 'partner id'))),
      feeRevenue: await systemBalances(pool, 'fee_revenue'),
      funding: await systemBalances(pool, 'funding'),
    };
    return { data: balancesView(report), text: describeBalances(report) };
  },
  'show-limits': async ({ pool }, _args, options) => {
    const rules = await showLimits(pool, optional(options.tier, parseTierArgument));
    return { data: { limits: rules.map(limitView) }, text: describeLimits(rules) };
  },
  'set-limit': async ({ pool }, _args, options) => {
    const { rule, warnings } = await setLimit(
      pool,
      {
        tier: parseTierArgument(requireOption(options.tier, 'tier')),
        transactionType: parseTransactionTypeArgument(requireOption(options.type, 'type')),
        currency: parseCurrencyArgument(requireOption(options.currency, 'currency')),
      },
      {
        perTransactionMaxMinor: optional(options.perTransaction, parseAmountArgument),
        dailyMaxMinor: optional(options.daily, parseAmountArgument),
        weeklyMaxMinor: optional(options.weekly, parseAmountArgument),
        monthlyMaxMinor: optional(options.monthly, parseAmountArgument),
        yearlyMaxMinor: optional(options.yearly, parseAmountArgument),
        perHourCountMax: optional(options.perHourCount, (text) => parseCountArgument(text, 'per-hour-count')),
        perDayCountMax: optional(options.perDayCount, (text) => parseCountArgument(text, 'per-day-count')),
      },
    );
    return {
      data: { ...limitView(rule), warnings },
      text: [describeLimits([rule]), ...warnings.map((warning) => `warning: ${warning}`)].join('\n'),
    };
  },
  'check-ledger': async ({ pool }) => {
    const report = await checkLedger(pool);
    const text = report.ok
      ? `ledger ok: ${report.currencies.map((totals) => `${totals.currency} ${totals.postingCount} postings, ${totals.accountCount} accounts`).join('; ')}`
      : `ledger check FAILED:\n${report.problems.map((problem) => `  [${problem.invariant}] ${problem.message}`).join('\n')}`;
    return { data: report, text, exitCode: report.ok ? 0 : 1 };
  },
  'seed-sandbox': async ({ pool, config }, _args, options) => {
    const seeded = await seedSandbox(pool, config.ENVIRONMENT, optional(options.partner, (text) => parseUuidArgument(text, 'partner id')));
    const data = { users: seeded.users.map((user) => ({ ...userView(user), purpose: user.purpose, created: user.created })), partnerFunding: seeded.partnerFunding };
    const text = [
      ...seeded.users.map((user) => `${user.phone}  ${user.name.padEnd(18)} ${user.created ? 'created ' : 'restored'}  ${user.purpose}`),
      ...seeded.partnerFunding.map((funding) => `partner ${funding.partnerId} funded in ${funding.currency} (${funding.transactionId})`),
    ].join('\n');
    return { data, text };
  },
};

export async function runOperatorCommand(
  context: OperatorContext,
  command: string,
  args: string[],
  options: OperatorOptions,
): Promise<OperatorResult> {
  const handler = commands[command];
  if (!handler) throw new OperatorUsageError(`Unknown command: ${command}`);
  return handler(context, args, options);
}

/** Exactly one of --reference-id and --transaction-id names the disbursement. */
function reversalTarget(options: OperatorOptions): ReversalTarget {
  if (options.referenceId !== undefined && options.transactionId !== undefined) throw new OperatorUsageError('Give --reference-id or --transaction-id, not both');
  if (options.referenceId !== undefined) return { referenceId: parseDisbursementReferenceIdArgument(options.referenceId) };
  if (options.transactionId !== undefined) return { transactionId: parseTransactionIdArgument(options.transactionId) };
  throw new OperatorUsageError('Missing --reference-id PKD-… (or --transaction-id TXN-…)');
}

function parseName(text: string): string {
  try {
    return parseUserName(text);
  } catch (error) {
    throw new OperatorUsageError(error instanceof Error ? error.message : String(error));
  }
}
