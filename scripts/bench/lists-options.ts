// The lists benchmark's options: `npm run bench -- lists [flags]` (issue 18). Its own flags, since
// it seeds a million rows and measures single-connection latency, unlike the throughput benchmarks.
import type { Environment } from '../lib/settings';
import { takeConfigurationArguments, type BenchConfiguration } from './configuration';

export interface ListsBenchOptions {
  /** Disbursements seeded straight into the disbursements service's table. */
  disbursements: number;
  /** Ledger entries on the partner's USD account (one funding, the rest disbursement postings of three legs). */
  ledgerEntries: number;
  /** Seconds per endpoint per round. */
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  /** Connections per measurement (1: latency without queueing). */
  connections: number;
  /** How the stack is configured (configuration.ts: --config and its flags). */
  configuration: BenchConfiguration;
}

const defaults: Omit<ListsBenchOptions, 'configuration'> = { disbursements: 1_000_000, ledgerEntries: 1_000_000, durationSeconds: 8, rounds: 3, warmupSeconds: 2, connections: 1 };

/** At most this many rows of each kind: the seeding must stay a matter of minutes. */
export const seededRowsMax = 5_000_000;

const flags: Readonly<Record<string, { key: Exclude<keyof ListsBenchOptions, 'configuration'>; env: string; min: number; max: number; whole: boolean }>> = {
  '--disbursements': { key: 'disbursements', env: 'BENCH_LISTS_DISBURSEMENTS', min: 1_000, max: seededRowsMax, whole: true },
  '--ledger-entries': { key: 'ledgerEntries', env: 'BENCH_LISTS_LEDGER_ENTRIES', min: 1_000, max: seededRowsMax, whole: true },
  '--duration': { key: 'durationSeconds', env: 'BENCH_DURATION_SECONDS', min: 1, max: 600, whole: false },
  '--rounds': { key: 'rounds', env: 'BENCH_ROUNDS', min: 1, max: 20, whole: true },
  '--warmup': { key: 'warmupSeconds', env: 'BENCH_WARMUP_SECONDS', min: 0, max: 120, whole: false },
  '--connections': { key: 'connections', env: 'BENCH_LISTS_CONNECTIONS', min: 1, max: 64, whole: true },
};

function bounded(name: string, raw: string, { min, max, whole }: { min: number; max: number; whole: boolean }): number {
  const value = Number(raw.replaceAll('_', ''));
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/** The options from the command line (after `lists`), over the BENCH_* variables, over the defaults. */
export function parseListsArguments(allArguments: readonly string[], env: Environment): ListsBenchOptions {
  const { configuration, rest: argv } = takeConfigurationArguments(allArguments, env);
  const options: ListsBenchOptions = { ...defaults, configuration };
  for (const spec of Object.values(flags)) {
    const raw = env[spec.env];
    if (raw !== undefined && raw !== '') options[spec.key] = bounded(spec.env, raw, spec);
  }
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const spec = flags[argument];
    if (spec === undefined) throw new Error(`unknown argument ${JSON.stringify(argument)} for lists; flags: ${Object.keys(flags).join(', ')}`);
    index += 1;
    const raw = argv[index];
    if (raw === undefined) throw new Error(`${argument} needs a value`);
    options[spec.key] = bounded(argument, raw, spec);
  }
  return options;
}
