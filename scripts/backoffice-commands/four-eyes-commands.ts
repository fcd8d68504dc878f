// The four-eyes commands: a maker asks for one of the eight changes (a checker approves it in the
// console or with `approve`), and the queue. The shapes are the back-office's
// (services/backoffice/src/domain/four-eyes-changes.ts); the API checks them again and names what
// to fix.
import type { BackofficeClient } from '../lib/backoffice-client';
import {
  UsageError,
  amountOption,
  currencyOption,
  reasonOption,
  requestLine,
  requiredOption,
  stringOption,
  uuidOption,
  wholeNumberOption,
  type Command,
  type Output,
  type Values,
} from './command';

const approvalRequests = '/api/v1/approval-requests';

async function askFor(client: BackofficeClient, action: string, target: { kind: string; id: string }, parameters: Record<string, unknown>, reason: string): Promise<Output> {
  const request = (await client.post(approvalRequests, { action, target, parameters, reason })) as Record<string, unknown>;
  return { json: request, lines: [`Requested (another person with the checker role approves it): ${requestLine(request)}`] };
}

/** A four-eyes request command: its own options plus --reason, the target and parameters it builds. */
function request(options: Record<string, { type: 'string' }>, build: (values: Values) => { action: string; target: { kind: string; id: string }; parameters: Record<string, unknown> }): Command {
  return {
    options: { ...options, reason: { type: 'string' } },
    positionals: 0,
    run: (client, values) => {
      const { action, target, parameters } = build(values);
      return askFor(client, action, target, parameters, reasonOption(values));
    },
  };
}

const partner = (values: Values) => ({ kind: 'partner', id: uuidOption(values, 'partner-id') });
const partnerOption = { 'partner-id': { type: 'string' } } as const;

/** "100.00:0.50:150,*:5.00:50": up to (major units, * for no cap), flat fee (major units), basis points; in order. */
function feeTiersOf(typed: string): { upToMinor: string | null; flatMinor: string; basisPoints: number }[] {
  return typed.split(',').map((tier, index) => {
    const [upTo = '', flat = '', basisPoints = ''] = tier.trim().split(':');
    const where = `--tiers, tier ${index + 1}`;
    const upToMinor = upTo === '*' ? null : amountOption({ upTo }, 'upTo', false);
    if (upTo !== '*' && upToMinor === undefined) throw new UsageError(`${where}: the upper bound in major units (e.g. 100.00), or * for no cap`);
    const flatMinor = flat === '0' || flat === '0.00' ? '0' : amountOption({ flat }, 'flat', false);
    if (flatMinor === undefined) throw new UsageError(`${where}: the flat fee in major units (e.g. 0.50, or 0)`);
    if (!/^\d{1,5}$/.test(basisPoints) || Number(basisPoints) > 10_000) throw new UsageError(`${where}: the percentage in basis points, 0 to 10000 (150 = 1.5%)`);
    return { upToMinor: upToMinor ?? null, flatMinor, basisPoints: Number(basisPoints) };
  });
}

export const fourEyesCommands: Record<string, Command> = {
  'list-requests': {
    options: { status: { type: 'string' } },
    positionals: 0,
    async run(client, values) {
      const data = (await client.get(approvalRequests, { status: stringOption(values, 'status') })) as { requests: Record<string, unknown>[] };
      return { json: data, lines: data.requests.length === 0 ? ['No requests.'] : data.requests.map(requestLine) };
    },
  },
  'request-funding': request({ ...partnerOption, currency: { type: 'string' }, amount: { type: 'string' } }, (values) => ({
    action: 'partner.fund',
    target: partner(values),
    parameters: { currency: currencyOption(values), amountMinor: amountOption(values, 'amount', true) },
  })),
  'request-funding-correction': request(
    { ...partnerOption, currency: { type: 'string' }, amount: { type: 'string' }, direction: { type: 'string' }, corrects: { type: 'string' } },
    (values) => {
      const direction = requiredOption(values, 'direction');
      if (direction !== 'debit' && direction !== 'credit') throw new UsageError('--direction: debit (takes back from the partner) or credit (adds to it)');
      return {
        action: 'partner.funding.correct',
        target: partner(values),
        parameters: { currency: currencyOption(values), amountMinor: amountOption(values, 'amount', true), direction, correctsRequestId: uuidOption(values, 'corrects') },
      };
    },
  ),
  'request-reversal': request({ 'reference-id': { type: 'string' } }, (values) => ({
    action: 'disbursement.reverse',
    target: { kind: 'disbursement', id: requiredOption(values, 'reference-id') },
    parameters: {},
  })),
  'request-status': request({ ...partnerOption, status: { type: 'string' } }, (values) => ({
    action: 'partner.status.set',
    target: partner(values),
    parameters: { status: requiredOption(values, 'status') },
  })),
  'request-permissions': request({ ...partnerOption, permissions: { type: 'string' } }, (values) => {
    const typed = requiredOption(values, 'permissions');
    return { action: 'partner.permissions.set', target: partner(values), parameters: { permissions: typed === 'none' ? [] : typed.split(',').map((each) => each.trim()) } };
  }),
  'request-rate-limit': request({ ...partnerOption, 'per-minute': { type: 'string' } }, (values) => {
    const typed = requiredOption(values, 'per-minute');
    const perMinute = typed === 'default' ? null : wholeNumberOption(values, 'per-minute', { min: 1, max: 1_000_000_000 });
    return { action: 'partner.rate_limit.set', target: partner(values), parameters: { rateLimitPerMinute: perMinute ?? null } };
  }),
  'request-fee-schedule': request(
    { type: { type: 'string' }, currency: { type: 'string' }, tiers: { type: 'string' }, minimum: { type: 'string' }, maximum: { type: 'string' } },
    (values) => {
      const type = requiredOption(values, 'type');
      const tiers = stringOption(values, 'tiers');
      const parameters = {
        ...(tiers === undefined ? {} : { tiers: feeTiersOf(tiers) }),
        ...(stringOption(values, 'minimum') === undefined ? {} : { minimumFeeMinor: zeroOrAmount(values, 'minimum') }),
        ...(stringOption(values, 'maximum') === undefined ? {} : { maximumFeeMinor: zeroOrAmount(values, 'maximum') }),
      };
      if (Object.keys(parameters).length === 0) throw new UsageError('request-fee-schedule: give --tiers, --minimum or --maximum');
      return { action: 'fee_schedule.set', target: { kind: 'fee_schedule', id: `${type}:${currencyOption(values)}` }, parameters };
    },
  ),
  'request-tier-limit': request(
    {
      tier: { type: 'string' },
      type: { type: 'string' },
      currency: { type: 'string' },
      'per-transaction': { type: 'string' },
      daily: { type: 'string' },
      weekly: { type: 'string' },
      monthly: { type: 'string' },
      yearly: { type: 'string' },
      'per-hour-count': { type: 'string' },
      'per-day-count': { type: 'string' },
    },
    (values) => {
      const id = `${requiredOption(values, 'tier')}:${requiredOption(values, 'type')}:${currencyOption(values)}`;
      const limits: Record<string, unknown> = {
        perTransactionMinor: amountOption(values, 'per-transaction', false),
        dailyMinor: amountOption(values, 'daily', false),
        weeklyMinor: amountOption(values, 'weekly', false),
        monthlyMinor: amountOption(values, 'monthly', false),
        yearlyMinor: amountOption(values, 'yearly', false),
        perHourCount: wholeNumberOption(values, 'per-hour-count', { min: 1, max: 1_000_000 }),
        perDayCount: wholeNumberOption(values, 'per-day-count', { min: 1, max: 1_000_000 }),
      };
      const parameters = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
      if (Object.keys(parameters).length === 0) throw new UsageError('request-tier-limit: give at least one limit (--per-transaction, --daily, --weekly, --monthly, --yearly, --per-hour-count, --per-day-count)');
      return { action: 'tier_limit.set', target: { kind: 'tier_limit', id }, parameters };
    },
  ),
  approve: decision('approve'),
  reject: decision('reject'),
};

/** A fee bound that may be zero ("0" or "0.00"), else an exact amount. */
function zeroOrAmount(values: Values, name: string): string {
  const typed = requiredOption(values, name);
  return /^0+(\.0{1,2})?$/.test(typed) ? '0' : amountOption(values, name, true);
}

function decision(verb: 'approve' | 'reject'): Command {
  return {
    options: { note: { type: 'string' } },
    positionals: 1,
    async run(client, values, [requestId = '']) {
      const note = stringOption(values, 'note');
      const decided = (await client.post(`${approvalRequests}/${encodeURIComponent(requestId)}/${verb}`, note === undefined ? {} : { note })) as Record<string, unknown>;
      return { json: decided, lines: [`${verb === 'approve' ? 'Approved' : 'Rejected'}: ${requestLine(decided)}`] };
    },
  };
}

export const fourEyesUsage = `Four-eyes requests (a maker asks, another person with the checker role approves; every option below is required unless in [ ]):
  list-requests [--status pending|approved|rejected|expired|executed|failed]
  request-funding --partner-id <uuid> --currency USD|LRD --amount 12.50 --reason "..."
  request-funding-correction --partner-id <uuid> --currency USD|LRD --amount 2.00 --direction debit|credit --corrects <funding requestId> --reason "..."
  request-reversal --reference-id DIS-... --reason "..."
  request-status --partner-id <uuid> --status active|suspended|inactive --reason "..."
  request-permissions --partner-id <uuid> --permissions collection,disbursement|collection|disbursement|none --reason "..."
  request-rate-limit --partner-id <uuid> --per-minute <n>|default --reason "..."
  request-fee-schedule --type collection|disbursement --currency USD|LRD [--tiers "100.00:0.50:150,*:5.00:50"] [--minimum 0.25] [--maximum 50.00] --reason "..."
        (each tier: up to (major units, * for no cap) : flat fee (major units) : basis points (150 = 1.5%))
  request-tier-limit --tier Basic|Silver|Gold|Platinum --type collection|disbursement --currency USD|LRD [--per-transaction 500.00] [--daily] [--weekly] [--monthly] [--yearly] [--per-hour-count n] [--per-day-count n] --reason "..."
  approve <requestId> [--note "..."]         (a checker; never your own request)
  reject <requestId> [--note "..."]
`;

