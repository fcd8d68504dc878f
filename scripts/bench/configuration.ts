// Which configuration of the stack a benchmark runs (issue 26, "Benchmark what users run").
//
//   npm-start      (the default) the stack as `npm start` runs it: every service as its own runtime
//                  role, migrating as its owner role (passwords kept in .local/secrets.json, as npm
//                  start keeps them); the webhooks service running; in the sandbox, npm start's
//                  local webhook receiver with the partner's webhooks going to it; LOG_LEVEL as npm
//                  start reads it. The variables npm start reads to change these (PWA_DATABASE_ROLES,
//                  PWA_WEBHOOK_RECEIVER, LOG_LEVEL) change them here too.
//   bench-legacy   what the benchmarks ran before: every service as the database's administrator,
//                  no webhooks service, no receiver, BENCH_LOG_LEVEL or info.
//
// Flags change one setting of either, to find what a difference costs: --database-roles on|off,
// --webhooks-service on|off, --webhook-receiver on|off, --log-level LEVEL. Everything else the two
// share, and shares with npm start: the gateway on HTTPS with the generated certificate, the
// environment's pool sizes, group commit, telemetry (OTEL_*) and rate limit settings (the children
// inherit the caller's environment, as npm start's do), log files. What the benchmarks do
// differently from npm start whatever the configuration: a database, bus exchange and Redis key
// prefix of their own, free ports, and a partner whose rate limit never trips (npm start's sandbox
// partner has the default 60 requests a minute, which a load of one flow a second would exceed).
import type { Environment } from '../lib/settings';

export const benchConfigurationNames = ['npm-start', 'bench-legacy'] as const;
export type BenchConfigurationName = (typeof benchConfigurationNames)[number];

export type Switch = 'on' | 'off';

export interface BenchConfiguration {
  /** The preset the settings started from. */
  name: BenchConfigurationName;
  /** on: each service connects as its own runtime role and migrates as its owner role; off: every service as the administrator. */
  databaseRoles: Switch;
  /** The webhooks service runs beside the others (npm start always runs it). */
  webhooksService: Switch;
  /** npm start's local webhook receiver runs and the partner's webhooks go to it (npm start: in the sandbox). */
  webhookReceiver: Switch;
  logLevel: string;
}

type Setting = Exclude<keyof BenchConfiguration, 'name'>;

/** What npm start runs, read from the variables npm start reads. */
function npmStartPreset(env: Environment): BenchConfiguration {
  return {
    name: 'npm-start',
    databaseRoles: env.PWA_DATABASE_ROLES === 'off' ? 'off' : 'on',
    webhooksService: 'on',
    webhookReceiver: env.PWA_WEBHOOK_RECEIVER === 'off' ? 'off' : 'on',
    logLevel: env.LOG_LEVEL || 'info',
  };
}

/** What the benchmarks ran before issue 26. */
function legacyPreset(env: Environment): BenchConfiguration {
  return { name: 'bench-legacy', databaseRoles: 'off', webhooksService: 'off', webhookReceiver: 'off', logLevel: env.BENCH_LOG_LEVEL || 'info' };
}

export function presetConfiguration(name: BenchConfigurationName, env: Environment): BenchConfiguration {
  return name === 'npm-start' ? npmStartPreset(env) : legacyPreset(env);
}

const switchFlags: Readonly<Record<string, Exclude<Setting, 'logLevel'>>> = {
  '--database-roles': 'databaseRoles',
  '--webhooks-service': 'webhooksService',
  '--webhook-receiver': 'webhookReceiver',
};

function readSwitch(flag: string, raw: string | undefined): Switch {
  if (raw === 'on' || raw === 'off') return raw;
  throw new Error(`${flag} takes on or off (got ${JSON.stringify(raw)})`);
}

function readConfigurationName(flag: string, raw: string | undefined): BenchConfigurationName {
  const name = benchConfigurationNames.find((candidate) => candidate === raw);
  if (name === undefined) throw new Error(`${flag} takes ${benchConfigurationNames.join(' or ')} (got ${JSON.stringify(raw)})`);
  return name;
}

/**
 * Takes the configuration's flags out of a benchmark's arguments (every benchmark takes them):
 * --config NAME (or BENCH_CONFIG) chooses the preset, then the other flags change single settings.
 * Resolves the configuration and the arguments left for the benchmark's own parser.
 */
export function takeConfigurationArguments(argv: readonly string[], env: Environment): { configuration: BenchConfiguration; rest: string[] } {
  let name: BenchConfigurationName = env.BENCH_CONFIG ? readConfigurationName('BENCH_CONFIG', env.BENCH_CONFIG) : 'npm-start';
  const changes: Partial<Omit<BenchConfiguration, 'name'>> = {};
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const setting = switchFlags[argument];
    if (argument === '--config') {
      index += 1;
      name = readConfigurationName(argument, argv[index]);
    } else if (setting !== undefined) {
      index += 1;
      changes[setting] = readSwitch(argument, argv[index]);
    } else if (argument === '--log-level') {
      index += 1;
      const level = argv[index];
      if (!level) throw new Error('--log-level needs a value');
      changes.logLevel = level;
    } else {
      rest.push(argument);
    }
  }
  const configuration = { ...presetConfiguration(name, env), ...changes };
  if (configuration.webhookReceiver === 'on' && configuration.webhooksService === 'off') {
    throw new Error('--webhook-receiver on needs the webhooks service (--webhooks-service on): nothing else delivers to it');
  }
  return { configuration, rest };
}

/** The settings that differ from the preset's, by name. */
export function changedSettings(configuration: BenchConfiguration, env: Environment): Setting[] {
  const preset = presetConfiguration(configuration.name, env);
  return (Object.keys(preset) as (keyof BenchConfiguration)[]).filter((key): key is Setting => key !== 'name' && preset[key] !== configuration[key]);
}

/**
 * How a benchmark's report names the stack's environment and reads the presets: `environment` when
 * the benchmark sets it (the flows run in the sandbox), else ENVIRONMENT as npm start reads it.
 */
export interface ReportContext {
  environment?: 'sandbox' | 'production';
  env?: Environment;
  /**
   * Whether the benchmark's stack runs the webhooks service and receiver as configured (the flows
   * stack), leaves them out (the gateway, quote and lists stacks: nothing of theirs delivers), or
   * runs the service with a receiver of its own (the webhooks benchmark).
   */
  webhooks?: 'as configured' | 'not started' | 'own receiver';
}

function resolved({ environment, env = process.env, webhooks = 'as configured' }: ReportContext): { environment: string; env: Environment; webhooks: NonNullable<ReportContext['webhooks']> } {
  return { environment: environment ?? (env.ENVIRONMENT || 'sandbox'), env, webhooks };
}

/** How a JSON line names the configuration that ran. */
export interface ConfigurationFields {
  name: BenchConfigurationName;
  changed_from_preset: Setting[];
  database_roles: Switch;
  webhooks_service: Switch | 'not started';
  webhook_receiver: Switch | 'not started' | "the benchmark's own";
  environment: string;
  log_level: string;
}

/** The configuration's part of a benchmark's JSON line. */
export function configurationFields(configuration: BenchConfiguration, context: ReportContext = {}): { configuration: ConfigurationFields } {
  const { environment, env, webhooks } = resolved(context);
  return {
    configuration: {
      name: configuration.name,
      changed_from_preset: changedSettings(configuration, env),
      database_roles: configuration.databaseRoles,
      webhooks_service: { 'as configured': configuration.webhooksService, 'not started': 'not started' as const, 'own receiver': 'on' as const }[webhooks],
      webhook_receiver: { 'as configured': configuration.webhookReceiver, 'not started': 'not started' as const, 'own receiver': "the benchmark's own" as const }[webhooks],
      environment,
      log_level: configuration.logLevel,
    },
  };
}

const settingFields: Readonly<Record<Setting, { label: string; field: Exclude<keyof ConfigurationFields, 'name' | 'changed_from_preset' | 'environment'> }>> = {
  databaseRoles: { label: 'database roles', field: 'database_roles' },
  webhooksService: { label: 'webhooks service', field: 'webhooks_service' },
  webhookReceiver: { label: 'webhook receiver', field: 'webhook_receiver' },
  logLevel: { label: 'LOG_LEVEL', field: 'log_level' },
};

/** One line for a benchmark's table: which configuration ran, and what was changed from its preset. */
export function describeConfiguration(fields: ConfigurationFields): string {
  const changed = fields.changed_from_preset.map((setting) => `${settingFields[setting].label} ${fields[settingFields[setting].field]}`);
  const roles = fields.database_roles === 'on' ? 'on (each service its own runtime role)' : 'off (every service as the administrator)';
  const receiver = fields.webhook_receiver === 'on' ? "on (the partner's webhooks go to it)" : fields.webhook_receiver;
  return (
    `Configuration: ${fields.name}${changed.length > 0 ? ` changed (${changed.join(', ')})` : ''}: database roles ${roles}, ` +
    `webhooks service ${fields.webhooks_service}, npm start's webhook receiver ${receiver}, ENVIRONMENT ${fields.environment}, LOG_LEVEL ${fields.log_level}.`
  );
}
