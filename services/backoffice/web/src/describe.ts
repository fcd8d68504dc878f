import { formattedMoney } from './money';

export interface ApprovalRequestView {
  requestId: string;
  action: string;
  target: { kind: string; id: string };
  parameters: Record<string, unknown>;
  reason: string;
  makerId: string;
  status: string;
  requestedAt: string;
  expiresAt: string;
  checkerId: string | null;
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
    default:
      return `${action} on ${target.kind} ${target.id}`;
  }
}

/** The parameters as label/value rows, minor-unit amounts shown in major units with the currency. */
export function parameterRows(parameters: Record<string, unknown>): [string, string][] {
  const currency = typeof parameters.currency === 'string' ? parameters.currency : undefined;
  return Object.entries(parameters).map(([name, value]) => {
    if (name.endsWith('Minor') && typeof value === 'string' && currency !== undefined) return [name, `${formattedMoney(value, currency)} (${value} minor units)`];
    return [name, text(value)];
  });
}
