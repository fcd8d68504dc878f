// The benchmarks' stack: a LocalStack (lib/stack.ts) on free ports with a database, bus exchange
// and Redis key prefix of its own (dropped and removed when it stops), configured as npm start
// configures its stack (configuration.ts: each service as its own database role, LOG_LEVEL) or as
// the benchmarks used to (every service as the database's administrator), a throw-away key for auth
// and one for sealing webhook secrets, logs in .local/logs/bench/, and a partner whose rate limit
// never trips. Each benchmark starts the processes it needs on it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { asRecord, request } from '../lib/http';
import { ensureLocalhostCertificate, writePrivateJsonFile } from '../lib/local-files';
import { cliEntryOf, runOperatorCliOrThrow } from '../lib/operator-cli';
import { freePorts } from '../lib/ports';
import { preflight } from '../lib/preflight-module';
import { describeEnding, type ChildRecord } from '../lib/process-group';
import { readSettings, type Environment, type InternalServiceName, type ServiceName, type Settings } from '../lib/settings';
import { LocalStack, missingEntries, settingsWithFreePorts } from '../lib/stack';
import type { BenchConfiguration } from './configuration';
import { cpuMeter, databaseBackendPids, type CpuMeter } from './cpu';

const partnerRateLimitPerMinute = 1_000_000_000;

export type Log = (line: string) => void;

export interface BenchStack {
  local: LocalStack;
  settings: Settings;
  configuration: BenchConfiguration;
  /** The bench database, as its administrator. */
  databaseUrl: string;
  runId: string;
  /** Where the processes' logs go, and (profiles/) their CPU profiles. */
  logDirectory: string;
  profileDirectory: string;
  /** The generated certificate the gateway presents. */
  ca: Buffer;
  /** The environment the benchmark was started with (BENCH_*, DATABASE_POOL_MAX, WEBHOOK_* and the like). */
  env: Environment;
  /** The first process that ended on its own, if any. */
  died(): ChildRecord | undefined;
  /**
   * Per-service environment overrides the stack's LocalStack reads whenever it starts a service
   * (its serviceEnv): restartService changes them, so a restarted service runs with the new ones.
   */
  serviceOverrides: Partial<Record<InternalServiceName, Record<string, string>>>;
}

export interface BenchStackOptions {
  log: Log;
  /** The database's name (BENCH_DATABASE_URL, when set, names the whole URL instead). */
  databaseName: string;
  /** What must be built: these entries and the auth and wallet CLIs. */
  needs: readonly ServiceName[];
  configuration: BenchConfiguration;
  env?: Environment;
  environment?: 'sandbox' | 'production';
  cpuProfile?: readonly string[];
}

/**
 * Checks the build and the servers, then makes the stack's database, the services' roles (with
 * database roles on) and the certificate; no process runs yet.
 */
export async function startBenchStack({ log, databaseName, needs, configuration, env = process.env, environment, cpuProfile = [] }: BenchStackOptions): Promise<BenchStack> {
  const baseSettings = readSettings(env);
  const notBuilt = [...missingEntries(needs), ...(['auth', 'wallet'] as const).map(cliEntryOf).filter((entry) => !fs.existsSync(entry))];
  if (notBuilt.length > 0) throw new Error(`not built: ${notBuilt.join(', ')}; run npm run build`);
  const unreachable = preflight.describeUnreachable(await preflight.checkServers(baseSettings));
  if (unreachable.length > 0) throw new Error(unreachable.join('\n'));

  const runId = `${Date.now().toString(36)}-${process.pid}`;
  const databaseUrl = env.BENCH_DATABASE_URL || withDatabase(baseSettings.databaseUrl, databaseName);
  const settings = await settingsWithFreePorts({
    ...env,
    DATABASE_URL: databaseUrl,
    GATEWAY_HOST: '127.0.0.1',
    INTERNAL_HOST: '127.0.0.1',
    LOG_LEVEL: configuration.logLevel,
    ...(environment ? { ENVIRONMENT: environment } : {}),
  });
  const logDirectory = path.join(settings.localDir, 'logs', 'bench');
  const profileDirectory = path.join(logDirectory, 'profiles');
  let died: ChildRecord | undefined;
  const serviceOverrides: BenchStack['serviceOverrides'] = {};
  const local = new LocalStack({
    settings,
    isolation: { databaseUrl, busExchange: `pwa.bench.${runId}`, redisKeyPrefix: `pwa-bench:${runId}:` },
    // As npm start: the roles' passwords are the ones it keeps (roles are cluster-wide, so other
    // passwords would lock a running npm start out on a server that checks them).
    databaseRoles: configuration.databaseRoles === 'on' ? { passwordsFile: settings.files.secrets } : 'off',
    // Auth seals partners' webhook signing secrets with the second key (issue 5); both are throw-away keys per run.
    keys: { authKeyEncryptionKey: crypto.randomBytes(32).toString('base64'), webhookSecretSealingKey: crypto.randomBytes(32).toString('base64') },
    baseEnvironment: env,
    serviceEnv: serviceOverrides,
    output: { kind: 'files', directory: logDirectory },
    onUnexpectedEnd: (record) => {
      died ??= record;
    },
    cpuProfile: { names: cpuProfile, directory: profileDirectory, runId },
  });
  await local.createDatabase();
  log(`bench database ${new URL(databaseUrl).pathname.slice(1)} created`);
  if (await local.provisionDatabaseRoles()) log('database roles: each service runs as its own runtime role and migrates as its owner role');
  if (settings.tls.generated) await ensureLocalhostCertificate(settings.tls.certFile, settings.tls.keyFile);
  const ca = fs.readFileSync(settings.caCertFile);
  return { local, settings, configuration, databaseUrl, runId, logDirectory, profileDirectory, ca, env, died: () => died, serviceOverrides };
}

/** The bench database's URL: the administrator's URL with another database name. */
function withDatabase(databaseUrl: string, databaseName: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/** Stops the processes and removes what the run created (database, Redis keys, bus exchange). */
export async function stopBenchStack(stack: BenchStack, { log }: { log: Log }): Promise<void> {
  await stack.local.stop({ onProblem: log });
}

/**
 * Stops a running internal service (as asked: not a death) and starts it again on its port with
 * these environment overrides in place of any earlier ones (the bulk benchmark runs the wallet with
 * and without group commit); resolves once it is ready. Callers that hold keep-alive connections to
 * it (the other services) reconnect; a warm-up after the restart keeps their first errors out of a
 * measurement.
 */
export async function restartService(stack: BenchStack, name: InternalServiceName, overrides: Record<string, string>): Promise<void> {
  const { group } = stack.local;
  for (const record of group.running(name)) await group.stop(record);
  stack.serviceOverrides[name] = { ...overrides };
  await stack.local.startServices([name]);
}

/** Which process died and the end of its log. */
export function describeDeath(stack: BenchStack, record: ChildRecord): string {
  const tail = stack.local.group.tail(record, 15);
  return [`${record.name} ${describeEnding(record)}. Last lines of ${record.logFile ?? '(no log file)'}:`, ...tail.map((line) => `  ${line}`)].join('\n');
}

/** Throws, with the end of its log, when a process of the stack has died. */
export function guardAgainstDeath(stack: BenchStack): void {
  const died = stack.died();
  if (died) throw new Error(describeDeath(stack, died));
}

/** A partner as onboarding printed it. */
export interface BenchPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  /** Set when onboarding printed one (it does since issue 5). */
  webhookSecret: string | undefined;
}

/** Onboards an active partner whose rate limit never trips, with its webhooks going to webhookUrl when given. */
export async function onboardBenchPartner(stack: BenchStack, { webhookUrl }: { webhookUrl?: string } = {}): Promise<BenchPartner> {
  const onboarded = await runOperatorCliOrThrow(
    [
      'onboard', '--name', `Bench ${stack.runId}`, '--permissions', 'collection,disbursement', '--status', 'active',
      '--rate-limit', String(partnerRateLimitPerMinute), ...(webhookUrl ? ['--webhook-url', webhookUrl] : []),
    ],
    stack.local.operatorEnvironment(),
  );
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    partnerId: text(onboarded.partnerId),
    clientId: text(onboarded.clientId),
    clientSecret: text(onboarded.clientSecret),
    webhookSecret: typeof onboarded.webhookSecret === 'string' ? onboarded.webhookSecret : undefined,
  };
}

/** npm start's local webhook receiver, started by startWebhookReceiver. */
export interface BenchWebhookReceiver {
  url: string;
  /** Gives the receiver the partner's webhook secret, as npm start's sandbox file gives it the sandbox partner's. */
  recordPartner(partner: BenchPartner): void;
}

/** The process name of npm start's webhook receiver in the stack (its CPU is metered under it). */
export const webhookReceiverProcessName = 'webhook-receiver';

/**
 * Starts npm start's local webhook receiver (scripts/webhook-receiver.ts, which logs every
 * delivery and checks its signature against the secret in a sandbox file it reads per delivery)
 * on a free loopback port, in the stack's process group; resolves once it answers.
 */
export async function startWebhookReceiver(stack: BenchStack): Promise<BenchWebhookReceiver> {
  const [port = 0] = await freePorts(1);
  const host = '127.0.0.1';
  const receiverPath = '/webhooks';
  const partnerFile = path.join(stack.logDirectory, 'webhook-receiver-partner.json');
  const env = { PATH: process.env.PATH ?? '', WEBHOOK_RECEIVER_HOST: host, WEBHOOK_RECEIVER_PORT: String(port), WEBHOOK_RECEIVER_PATH: receiverPath, SANDBOX_FILE: partnerFile };
  await stack.local.startProcess(webhookReceiverProcessName, path.join(__dirname, '..', 'webhook-receiver.js'), env, {
    readyUrl: `http://${host}:${port}/healthz`,
    cwd: stack.settings.repoRoot,
  });
  return {
    url: `http://${host}:${port}${receiverPath}`,
    recordPartner: (partner) => writePrivateJsonFile(partnerFile, { clientId: partner.clientId, partnerId: partner.partnerId, webhookSecret: partner.webhookSecret }),
  };
}

/** A bearer token for the partner from the gateway's token endpoint; resolves the authorization header's value. */
export async function bearerToken(stack: BenchStack, gatewayBaseUrl: string, partner: BenchPartner): Promise<string> {
  const response = await request(`${gatewayBaseUrl}/partner/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: { client_id: partner.clientId, client_secret: partner.clientSecret },
    ca: stack.ca,
    timeoutMs: 10_000,
  });
  const token = asRecord(response.json)?.access_token;
  if (response.status !== 200 || typeof token !== 'string') {
    throw new Error(`token request through the gateway failed: HTTP ${response.status} ${response.text.slice(0, 300)}`);
  }
  return `Bearer ${token}`;
}

/** Stops the stack when starting it failed, and says which process died, if one did. */
export async function failedStart(stack: BenchStack, error: unknown, { log }: { log: Log }): Promise<never> {
  await stopBenchStack(stack, { log });
  const died = stack.died();
  if (error instanceof Error && died) error.message += `\n${describeDeath(stack, died)}`;
  throw error;
}

/**
 * A CPU meter over the stack's processes of these names, this process (the load generator), the
 * Postgres backends of the stack's database (or of `databaseName`), and any other pids given.
 */
export function benchCpuMeter(stack: BenchStack, monitor: Pool, names: readonly string[], { others = {}, databaseName }: { others?: Record<string, readonly number[]>; databaseName?: string } = {}): CpuMeter {
  const { group } = stack.local;
  const pidsOf = (name: string): number[] => group.running(name).flatMap((record) => (record.process.pid === undefined ? [] : [record.process.pid]));
  return cpuMeter(async () => ({
    ...Object.fromEntries(names.map((name) => [name, pidsOf(name)])),
    ...others,
    'load generator': [process.pid],
    postgres: await databaseBackendPids(monitor, databaseName ?? new URL(stack.databaseUrl).pathname.slice(1)),
  }));
}
