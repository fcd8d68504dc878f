// The bulk benchmark's options: `npm run bench -- bulk [flags]` (issue 20). Its own flags, since it
// measures bulks of items next to the single-transfer flow, the hot-row case and the reference.
import type { Environment } from '../lib/settings';
import { takeConfigurationArguments, type BenchConfiguration } from './configuration';

export interface BulkBenchOptions {
  /** Bulks of one partner, their transfers sent back to back. */
  bulks: number;
  /** Items per bulk (the API takes 1 to 1,000). */
  items: number;
  /** Seconds per single-transfer flow measurement (and per reference run). */
  durationSeconds: number;
  /** Connections of the single-transfer flow measurements (and of the reference runs). */
  connections: number;
  warmupSeconds: number;
  /** Users the items and flows are spread over (round-robin). */
  users: number;
  /** Runs the shared reference flow (off: no ratios to it). */
  reference: boolean;
  /** Measures the hot-row case (every single transfer debiting one account, group commit off and on). */
  hotRow: boolean;
  /** Samples pg_stat_activity while the bulks are processed (what Postgres sessions do; costs a little CPU). */
  pgWaits: boolean;
  /** How the stack is configured (configuration.ts: --config and its flags). */
  configuration: BenchConfiguration;
}

const defaults: Omit<BulkBenchOptions, 'configuration'> = { bulks: 10, items: 1_000, durationSeconds: 10, connections: 32, warmupSeconds: 3, users: 64, reference: true, hotRow: true, pgWaits: false };

type NumberKey = 'bulks' | 'items' | 'durationSeconds' | 'connections' | 'warmupSeconds' | 'users';

const numberFlags: Readonly<Record<string, { key: NumberKey; env: string; min: number; max: number; whole: boolean }>> = {
  '--bulks': { key: 'bulks', env: 'BENCH_BULK_BULKS', min: 1, max: 100, whole: true },
  '--items': { key: 'items', env: 'BENCH_BULK_ITEMS', min: 1, max: 1_000, whole: true },
  '--duration': { key: 'durationSeconds', env: 'BENCH_DURATION_SECONDS', min: 1, max: 600, whole: false },
  '--connections': { key: 'connections', env: 'BENCH_CONNECTIONS', min: 1, max: 256, whole: true },
  '--warmup': { key: 'warmupSeconds', env: 'BENCH_WARMUP_SECONDS', min: 1, max: 120, whole: false },
  '--users': { key: 'users', env: 'BENCH_USERS', min: 1, max: 1_000, whole: true },
};

/** Flags without a value: each sets its option to `value`, as its variable does when set to `when`. */
const booleanFlags: Readonly<Record<string, { key: 'reference' | 'hotRow' | 'pgWaits'; env: string; when: string; value: boolean }>> = {
  '--no-reference': { key: 'reference', env: 'BENCH_REFERENCE', when: 'off', value: false },
  '--no-hot-row': { key: 'hotRow', env: 'BENCH_BULK_HOT_ROW', when: 'off', value: false },
  '--pg-waits': { key: 'pgWaits', env: 'BENCH_PG_WAITS', when: 'on', value: true },
};

function bounded(name: string, raw: string, { min, max, whole }: { min: number; max: number; whole: boolean }): number {
  const value = Number(raw.replaceAll('_', ''));
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/** The options from the command line (after `bulk`), over the BENCH_* variables (BENCH_REFERENCE=off, BENCH_BULK_HOT_ROW=off, BENCH_PG_WAITS=on), over the defaults. */
export function parseBulkArguments(allArguments: readonly string[], env: Environment): BulkBenchOptions {
  const { configuration, rest: argv } = takeConfigurationArguments(allArguments, env);
  const options: BulkBenchOptions = { ...defaults, configuration };
  for (const spec of Object.values(numberFlags)) {
    const raw = env[spec.env];
    if (raw !== undefined && raw !== '') options[spec.key] = bounded(spec.env, raw, spec);
  }
  for (const spec of Object.values(booleanFlags)) if (env[spec.env] === spec.when) options[spec.key] = spec.value;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const flag = booleanFlags[argument];
    if (flag !== undefined) {
      options[flag.key] = flag.value;
      continue;
    }
    const spec = numberFlags[argument];
    if (spec === undefined) throw new Error(`unknown argument ${JSON.stringify(argument)} for bulk; flags: ${[...Object.keys(numberFlags), ...Object.keys(booleanFlags)].join(', ')}`);
    index += 1;
    const raw = argv[index];
    if (raw === undefined) throw new Error(`${argument} needs a value`);
    options[spec.key] = bounded(argument, raw, spec);
  }
  return options;
}
