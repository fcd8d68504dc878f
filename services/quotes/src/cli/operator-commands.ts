import type { Pool } from '@pwa/db';
import { OperatorUsageError } from '@pwa/runtime/operator-cli';
import { formatMinor, isCurrency, parseMajorUnitsText, type Currency } from '@pwa/money';
import { FeeScheduleError, parseFeeTiers, storedTiersOf, type FeeRule } from '../domain/fee-schedule';
import { isQuoteType, quoteTypes, type QuoteType } from '../domain/quote-type';
import { listFeeSchedules, replaceFeeSchedule, type StoredFeeSchedule } from '../store/fee-schedule-store';

export { OperatorUsageError };

export const operatorUsage = `Usage: npm run operator -- <command> [options] [--json]

Fees (one schedule per quote type and currency; a change applies to the next quote, no redeploy)
  show-fees [--type collection|disbursement] [--currency LRD|USD]
  set-fee --type collection|disbursement --currency LRD|USD
          [--tiers '<JSON array>'] [--min <major units>] [--max <major units>]
      --tiers  replaces all tiers, in ascending order; minor units as strings, the last tier open-ended:
               '[{"upToMinor":"10000","flatMinor":"0","basisPoints":100},{"upToMinor":null,"flatMinor":"25","basisPoints":75}]'
               (an amount pays flatMinor plus basisPoints/100 % of itself, rounded half-up to the cent)
      --min, --max  the fee's lower and upper bound in major units, e.g. 0.50 and 100
      options left out keep their current value; quotes already issued keep their fee

--json prints one JSON object per command.
`;

export interface OperatorOptions {
  type?: string | undefined;
  currency?: string | undefined;
  tiers?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
}

export interface OperatorResult {
  data: unknown;
  text: string;
}

type CommandHandler = (pool: Pool, options: OperatorOptions) => Promise<OperatorResult>;

const commands: Record<string, CommandHandler> = {
  'show-fees': async (pool, options) => {
    const type = options.type === undefined ? undefined : parseType(options.type);
    const currency = options.currency === undefined ? undefined : parseCurrency(options.currency);
    const schedules = (await listFeeSchedules(pool)).filter(
      (schedule) => (type === undefined || schedule.type === type) && (currency === undefined || schedule.currency === currency),
    );
    return { data: { schedules: schedules.map(scheduleData) }, text: schedules.map(describeSchedule).join('\n\n') };
  },
  'set-fee': async (pool, options) => {
    if (options.type === undefined || options.currency === undefined) throw new OperatorUsageError('set-fee needs --type and --currency');
    const type = parseType(options.type);
    const currency = parseCurrency(options.currency);
    if (options.tiers === undefined && options.min === undefined && options.max === undefined) {
      throw new OperatorUsageError('set-fee needs at least one of --tiers, --min, --max');
    }
    const tiers = options.tiers === undefined ? undefined : parseTiersOption(options.tiers);
    const minimumFeeMinor = options.min === undefined ? undefined : parseFeeBound(options.min, '--min');
    const maximumFeeMinor = options.max === undefined ? undefined : parseFeeBound(options.max, '--max');
    const schedule = await replaceFeeSchedule(pool, type, currency, (current): FeeRule => ({
      tiers: tiers ?? current.tiers,
      minimumFeeMinor: minimumFeeMinor ?? current.minimumFeeMinor,
      maximumFeeMinor: maximumFeeMinor ?? current.maximumFeeMinor,
    }));
    return { data: scheduleData(schedule), text: `${describeSchedule(schedule)}\napplies to new quotes from now on` };
  },
};

export async function runOperatorCommand(pool: Pool, command: string, options: OperatorOptions): Promise<OperatorResult> {
  const handler = commands[command];
  if (!handler) throw new OperatorUsageError(`Unknown command: ${command}`);
  try {
    return await handler(pool, options);
  } catch (error) {
    // A schedule the domain refuses is the operator's input to fix, like any other usage error.
    if (error instanceof FeeScheduleError) throw new OperatorUsageError(error.message);
    throw error;
  }
}

/** The JSON form: minor units as decimal strings, like every amount between our programs. */
function scheduleData(schedule: StoredFeeSchedule): Record<string, unknown> {
  return {
    type: schedule.type,
    currency: schedule.currency,
    tiers: storedTiersOf(schedule.tiers),
    minimumFeeMinor: schedule.minimumFeeMinor.toString(),
    maximumFeeMinor: schedule.maximumFeeMinor.toString(),
    revision: schedule.revision,
    updatedAt: schedule.updatedAt.toISOString(),
  };
}

function describeSchedule(schedule: StoredFeeSchedule): string {
  const money = (minor: bigint): string => `${formatMinor(minor)} ${schedule.currency}`;
  let lowerMinor = 1n;
  const tierLines = schedule.tiers.map((tier) => {
    const band = tier.upToMinor === null ? `from ${money(lowerMinor)}` : `${money(lowerMinor)} to ${money(tier.upToMinor)}`;
    if (tier.upToMinor !== null) lowerMinor = tier.upToMinor + 1n;
    return `  ${band}: ${money(tier.flatMinor)} + ${(tier.basisPoints / 100).toFixed(2)} %`;
  });
  return [
    `${schedule.type} ${schedule.currency} (revision ${schedule.revision}, updated ${schedule.updatedAt.toISOString()})`,
    ...tierLines,
    `  fee at least ${money(schedule.minimumFeeMinor)}, at most ${money(schedule.maximumFeeMinor)}; rounded half-up to the cent`,
  ].join('\n');
}

function parseType(text: string): QuoteType {
  if (!isQuoteType(text)) throw new OperatorUsageError(`Unknown type: ${text} (use ${quoteTypes.join(' or ')})`);
  return text;
}

function parseCurrency(text: string): Currency {
  if (!isCurrency(text)) throw new OperatorUsageError(`Unknown currency: ${text} (use LRD or USD)`);
  return text;
}

function parseTiersOption(text: string): ReturnType<typeof parseFeeTiers> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OperatorUsageError('--tiers must be a JSON array');
  }
  return parseFeeTiers(parsed);
}

function parseFeeBound(text: string, option: string): bigint {
  const minor = parseMajorUnitsText(text, { allowZero: true });
  if (minor === undefined) throw new OperatorUsageError(`${option} must be an amount in major units with at most 2 decimals, e.g. 0.50`);
  return minor;
}
