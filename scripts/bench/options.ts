// The benchmarks' options: `npm run bench -- [names] [flags]`, each flag also a BENCH_* variable
// (docs/operations.md, "Benchmarks", lists them); the stack's configuration (--config and the
// flags that change one setting of it) is configuration.ts's.
import type { Environment } from '../lib/settings';
import { takeConfigurationArguments, type BenchConfiguration } from './configuration';

export const benchmarkNames = ['gateway', 'quote', 'flows', 'webhooks', 'reference'] as const;
export type BenchmarkName = (typeof benchmarkNames)[number];
const profilable = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'gateway', 'raw'];

export interface BenchOptions {
  names: BenchmarkName[];
  durationSeconds: number;
  connections: number;
  rounds: number;
  latencyConnections: number;
  warmupSeconds: number;
  reference: boolean;
  pgWaits: boolean;
  openLoop: boolean;
  /** Offered flows per second of the open-loop mode. */
  rates: number[];
  /** Undefined: each benchmark's own default. */
  users: number | undefined;
  cpuProfile: string[];
  /** How the stack is configured: as npm start's (the default) or as the benchmarks' before issue 26. */
  configuration: BenchConfiguration;
}

type NumberOption = 'durationSeconds' | 'connections' | 'rounds' | 'latencyConnections' | 'warmupSeconds' | 'users';

const numberFlags: Readonly<Record<string, NumberOption>> = {
  '--duration': 'durationSeconds',
  '--connections': 'connections',
  '--rounds': 'rounds',
  '--latency-connections': 'latencyConnections',
  '--warmup': 'warmupSeconds',
  '--users': 'users',
};

function positiveNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got ${JSON.stringify(raw)})`);
  return value;
}

/** "40,80" as [40, 80]: offered flows per second of the open-loop mode. */
function rateList(raw: string | undefined): number[] {
  const rates = (raw ?? '')
    .split(',')
    .map((rate) => rate.trim())
    .filter(Boolean)
    .map(Number);
  if (rates.length === 0 || rates.some((rate) => !Number.isFinite(rate) || rate <= 0)) throw new Error(`--rates takes a comma-separated list of flows per second (got ${JSON.stringify(raw)})`);
  return rates;
}

function profileList(raw: string | undefined): string[] {
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !profilable.includes(name));
  if (names.length === 0 || unknown.length > 0) throw new Error(`--cpu-prof takes a comma-separated list of ${profilable.join(', ')} (got ${JSON.stringify(raw)})`);
  return names;
}

function isBenchmarkName(argument: string): argument is BenchmarkName {
  return (benchmarkNames as readonly string[]).includes(argument);
}

/** The options from the command line, over the BENCH_* variables, over the defaults. */
export function parseArguments(allArguments: readonly string[], env: Environment): BenchOptions {
  const { configuration, rest: argv } = takeConfigurationArguments(allArguments, env);
  const options: BenchOptions = {
    names: [],
    durationSeconds: positiveNumber('BENCH_DURATION_SECONDS', env.BENCH_DURATION_SECONDS) ?? 10,
    connections: positiveNumber('BENCH_CONNECTIONS', env.BENCH_CONNECTIONS) ?? 32,
    rounds: positiveNumber('BENCH_ROUNDS', env.BENCH_ROUNDS) ?? 2,
    latencyConnections: positiveNumber('BENCH_LATENCY_CONNECTIONS', env.BENCH_LATENCY_CONNECTIONS) ?? 1,
    warmupSeconds: positiveNumber('BENCH_WARMUP_SECONDS', env.BENCH_WARMUP_SECONDS) ?? 3,
    reference: env.BENCH_REFERENCE !== 'off',
    pgWaits: env.BENCH_PG_WAITS === 'on',
    openLoop: env.BENCH_OPEN_LOOP === 'on',
    rates: env.BENCH_RATES ? rateList(env.BENCH_RATES) : [40, 80],
    users: positiveNumber('BENCH_USERS', env.BENCH_USERS),
    cpuProfile: env.BENCH_CPU_PROF ? profileList(env.BENCH_CPU_PROF) : [],
    configuration,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const numberOption = numberFlags[argument];
    if (argument === '--no-reference') options.reference = false;
    else if (argument === '--pg-waits') options.pgWaits = true;
    else if (argument === '--open-loop') options.openLoop = true;
    else if (argument === '--rates') {
      index += 1;
      options.rates = rateList(argv[index]);
    } else if (argument === '--cpu-prof') {
      index += 1;
      options.cpuProfile = profileList(argv[index]);
    } else if (numberOption !== undefined) {
      index += 1;
      const value = positiveNumber(argument, argv[index]);
      if (value === undefined) throw new Error(`${argument} needs a value`);
      options[numberOption] = value;
    } else if (isBenchmarkName(argument)) options.names.push(argument);
    else throw new Error(`unknown argument ${JSON.stringify(argument)}; benchmarks: ${benchmarkNames.join(', ')}`);
  }
  if (options.names.length === 0) options.names = [...benchmarkNames];
  options.rounds = Math.round(options.rounds);
  options.connections = Math.round(options.connections);
  options.latencyConnections = Math.round(options.latencyConnections);
  if (options.users !== undefined) options.users = Math.round(options.users);
  return options;
}
