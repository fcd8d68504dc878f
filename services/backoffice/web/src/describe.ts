import { describedTiers, type FeeTier } from './fee-tiers';
import { formattedMoney } from './money';

export interface ApprovalRequestView {
  requestId: string;
  action: string;
  target: { kind: string; id: string };
  parameters: Record<string, unknown>;
  reason: string;
  makerId: string;
  /** The maker's display name (null if the operator is gone). */
  makerName: string | null;
  status: string;
  requestedAt: string;
  expiresAt: string;
  checkerId: string | null;
  checkerName: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  executedAt: string | null;
  executionResult: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** One sentence saying exactly what a four-eyes request will run, amounts to the cent. */
export function describedChange(action: string, target: { kind: string; id: string }, parameters: Record<string, unknown>): string {
  const currency = text(parameters.currency ?? '');
  const amount = typeof parameters.amountMinor === 'string' ? formattedMoney(parameters.amountMinor, currency) : '';
  switch (action) {
    case 'partner.fund':
      return `Credit ${amount} to partner ${target.id}`;
    case 'partner.funding.correct':
      return `Correct funding ${text(parameters.correctsRequestId)}: ${text(parameters.direction)} ${amount} on partner ${target.id}`;
    case 'disbursement.reverse':
      return `Reverse disbursement ${target.id}`;
    case 'partner.status.set':
      return `Set the status of partner ${target.id} to ${text(parameters.status)}`;
    case 'partner.permissions.set':
      return `Set the permissions of partner ${target.id} to ${Array.isArray(parameters.permissions) && parameters.permissions.length > 0 ? parameters.permissions.map(text).join(' and ') : 'none'}`;
    case 'partner.rate_limit.set':
      return `Set the rate limit of partner ${target.id} to ${parameters.rateLimitPerMinute === null ? 'the default' : `${text(parameters.rateLimitPerMinute)} requests a minute`}`;
    case 'tier_limit.set':
      return `Set the limits of tier ${target.id.split(':').join(' ')}: ${limitList(parameters, currencyOf(parameters, target))}`;
    case 'fee_schedule.set':
      return `Set the fee schedule ${target.id.split(':').join(' ')}: ${limitList(parameters, currencyOf(parameters, target))}`;
    default:
      return `${action} on ${target.kind} ${target.id}`;
  }
}

/** The currency of a change: its parameter, or the last part of a tier limit's or fee schedule's id (Gold:collection:USD). */
function currencyOf(parameters: Record<string, unknown>, target: { kind: string; id: string }): string | undefined {
  if (typeof parameters.currency === 'string') return parameters.currency;
  const last = target.id.split(':').pop() ?? '';
  return (target.kind === 'tier_limit' || target.kind === 'fee_schedule') && /^[A-Z]{3}$/.test(last) ? last : undefined;
}

function limitList(parameters: Record<string, unknown>, currency: string | undefined): string {
  return parameterRows(parameters, undefined, currency)
    .map(([label, value]) => `${label.toLowerCase()} ${value.replace(/ \(\d+ minor units\)$/, '')}`)
    .join(', ');
}

/** What people call each parameter the API names. */
const parameterLabels: Readonly<Record<string, string>> = {
  currency: 'Currency',
  amountMinor: 'Amount',
  direction: 'Direction',
  correctsRequestId: 'Corrects request',
  status: 'Status',
  permissions: 'Permissions',
  rateLimitPerMinute: 'Requests a minute',
  perTransactionMinor: 'Per transaction',
  dailyMinor: 'Daily',
  weeklyMinor: 'Weekly',
  monthlyMinor: 'Monthly',
  yearlyMinor: 'Yearly',
  perHourCount: 'Transactions an hour',
  perDayCount: 'Transactions a day',
  minimumFeeMinor: 'Minimum fee',
  maximumFeeMinor: 'Maximum fee',
  tiers: 'Fee tiers',
};

/** The parameters as label/value rows, minor-unit amounts shown in major units with the currency. */
export function parameterRows(parameters: Record<string, unknown>, target?: { kind: string; id: string }, knownCurrency?: string): [string, string][] {
  const currency = knownCurrency ?? (target === undefined ? (typeof parameters.currency === 'string' ? parameters.currency : undefined) : currencyOf(parameters, target));
  return Object.entries(parameters).map(([name, value]) => {
    const label = parameterLabels[name] ?? name;
    if (name.endsWith('Minor') && typeof value === 'string' && currency !== undefined) return [label, `${formattedMoney(value, currency)} (${value} minor units)`];
    if (name === 'tiers' && Array.isArray(value) && currency !== undefined) return [label, describedTiers(value as FeeTier[], currency)];
    return [label, text(value)];
  });
}
