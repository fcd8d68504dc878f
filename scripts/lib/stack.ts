// The one way to start the local stack: npm start, the e2e harness (test/support/stack.ts) and the
// benchmarks all launch the built services (node services/<name>/dist/main.js) through LocalStack,
// so process spawning, readiness waiting, environments, database roles and cleaning up are written
// once. What differs between them is an option:
//
//   ports        the settings' (npm start: AUTH_PORT ... or the defaults) or free ones (withFreePorts)
//   isolation    the settings' database, exchange and key prefix, left as they are (npm start); or
//                a database, bus exchange and Redis key prefix of the stack's own, made fresh and
//                removed by stop() (the e2e harness, the benchmarks)
//   databaseRoles  every service as the stack's database URL (the benchmarks), or its own runtime
//                role migrating as its owner role, with passwords kept in a file (npm start) or none
//   baseEnvironment  the children inherit the caller's environment (npm start, the benchmarks) or
//                start from PATH alone (the e2e harness)
//   serviceEnv, gatewayEnv, backofficeEnv  per-process overrides; output: log files, the console, or memory
//   backoffice   started by startBackoffice when the caller wants it (npm start does; the e2e harness
//                on request): HTTPS with the stack's certificate, its own database roles and sealing key
import fs from 'node:fs';
import path from 'node:path';
import { deadLetterNames, durableQueueNames } from '@pwa/bus';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import { provisionDatabaseRoles, type ServiceDatabaseUrls } from './database-roles';
import { waitUntilReady } from './http';
import { freePorts } from './ports';
import { ProcessGroup, describeEnding, type ChildRecord, type ProcessOutput } from './process-group';
import {
  internalServices,
  perProcessVariables,
  portVariables,
  readSettings,
  repoRoot,
  serviceSettings,
  type DatabaseServiceName,
  type Environment,
  type InternalServiceName,
  type ServiceName,
  type Settings,
} from './settings';

/** The built entry of a service. */
export function entryOf(name: ServiceName): string {
  return path.join(repoRoot, 'services', name, 'dist', 'main.js');
}

/** Entries that `npm run build` should have produced but did not. */
export function missingEntries(names: readonly ServiceName[]): string[] {
  return names.map(entryOf).filter((entry) => !fs.existsSync(entry));
}

/** Settings read from env with every port of the stack moved to a free one. */
export async function settingsWithFreePorts(env: Environment): Promise<Settings> {
  const ports = await freePorts(portVariables.length);
  return readSettings({ ...env, ...Object.fromEntries(portVariables.map((variable, index) => [variable, String(ports[index])])) });
}

/** A database, bus exchange and Redis key prefix of the stack's own. */
export interface StackIsolation {
  /** Dropped and created again before the services start, dropped by stop(). */
  databaseUrl: string;
  busExchange: string;
  redisKeyPrefix: string;
}

export interface StackKeys {
  /** AUTH_KEY_ENCRYPTION_KEY: auth and the operator CLI. */
  authKeyEncryptionKey: string;
  /** WEBHOOK_SECRET_SEALING_KEY: auth, webhooks and the operator CLI; left out when not given (webhooks then refuses to start). */
  webhookSecretSealingKey?: string;
  /** BACKOFFICE_SEALING_KEY: the back-office only (seals operators' TOTP secrets); startBackoffice needs it. */
  backofficeSealingKey?: string;
  /** DASHBOARD_SEALING_KEY: the dashboard only (seals members' TOTP secrets); startDashboard needs it. */
  dashboardSealingKey?: string;
}

export interface LaunchOptions {
  settings: Settings;
  isolation?: StackIsolation;
  /** 'off', or each service's own roles (passwords kept in passwordsFile, or none). */
  databaseRoles: 'off' | { passwordsFile?: string };
  keys: StackKeys;
  /** What every child inherits (without the per-process variables and the keys); PATH alone when not given. */
  baseEnvironment?: Environment;
  serviceEnv?: Partial<Record<InternalServiceName, Record<string, string>>>;
  gatewayEnv?: Record<string, string>;
  backofficeEnv?: Record<string, string>;
  dashboardEnv?: Record<string, string>;
  output: ProcessOutput;
  stopGraceMs?: number;
  onUnexpectedEnd?: (record: ChildRecord) => void;
  /** Processes to start under --cpu-prof; profiles are written to `directory` as they stop. */
  cpuProfile?: { names: readonly string[]; directory: string; runId: string };
}

export interface StartedGateway {
  record: ChildRecord;
  port: number;
  adminPort: number;
  /** https://127.0.0.1:<port>/api/v1 */
  baseUrl: string;
  /** http://127.0.0.1:<adminPort> */
  adminUrl: string;
  tookMs: number;
}

export interface GatewayStartOptions {
  overrides?: Record<string, string>;
  /** /readyz (the default) or only /healthz, for a gateway whose dependencies are meant to be unreachable. */
  waitFor?: 'ready' | 'alive';
  /** The settings' ports (the default) or free ones (another gateway beside the first). */
  ports?: 'settings' | 'free';
  processName?: string;
}

export interface StartedBackoffice {
  record: ChildRecord;
  port: number;
  /** The address people open and the set-up links point at: https://localhost:<port> by default. */
  publicUrl: string;
  /** Plain HTTP on the same port, for /healthz, /readyz and /metrics only: http://127.0.0.1:<port>. */
  probeUrl: string;
  tookMs: number;
  /** The dashboard's internal listener (plain HTTP on loopback); the back-office's onboarding calls it. */
  internalUrl?: string;
}

/** Every service with its own database roles: the internal ones, then the back-office. */
export const databaseServiceNames: readonly DatabaseServiceName[] = [...internalServices.map((service) => service.name), 'backoffice', 'dashboard'];

export class LocalStack {
  readonly group: ProcessGroup;
  readonly settings: Settings;
  /** The stack's database, as the administrator. */
  readonly databaseUrl: string;
  /** What each service connects as, once provisionDatabaseRoles ran with roles on. */
  serviceDatabaseUrls: Partial<Record<DatabaseServiceName, ServiceDatabaseUrls>> | undefined;

  constructor(private readonly options: LaunchOptions) {
    this.settings = options.settings;
    this.databaseUrl = options.isolation?.databaseUrl ?? options.settings.databaseUrl;
    this.group = new ProcessGroup({
      output: options.output,
      ...(options.stopGraceMs === undefined ? {} : { stopGraceMs: options.stopGraceMs }),
      ...(options.onUnexpectedEnd ? { onUnexpectedEnd: options.onUnexpectedEnd } : {}),
    });
  }

  /** Creates the stack's database when missing; an own database is dropped first, so it starts empty. */
  async createDatabase(): Promise<void> {
    if (this.options.isolation) await dropDatabase(this.databaseUrl);
    await ensureDatabase(this.databaseUrl);
  }

  /** Provisions the services' roles (unless 'off') and resolves what each service connects as. */
  async provisionDatabaseRoles(): Promise<Record<DatabaseServiceName, ServiceDatabaseUrls> | undefined> {
    const roles = this.options.databaseRoles;
    if (roles === 'off') return undefined;
    const urls = await provisionDatabaseRoles(this.databaseUrl, databaseServiceNames, roles.passwordsFile === undefined ? {} : { passwordsFile: roles.passwordsFile });
    this.serviceDatabaseUrls = urls;
    return urls as Record<DatabaseServiceName, ServiceDatabaseUrls>;
  }

  /**
   * The environment every child shares: the base (the caller's, so OTEL_*, TOKEN_*, RATE_LIMIT_*
   * and the like pass through, without the per-process variables and the keys; or PATH alone),
   * the stack's environment name, log level and servers, and its exchange and key prefix.
   */
  private sharedEnvironment(): NodeJS.ProcessEnv {
    const { settings, isolation, baseEnvironment } = this.options;
    const base: NodeJS.ProcessEnv = baseEnvironment ? { ...baseEnvironment } : { PATH: process.env.PATH ?? '' };
    for (const name of [...perProcessVariables, 'AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY', 'BACKOFFICE_SEALING_KEY', 'DASHBOARD_SEALING_KEY', 'MIGRATION_DATABASE_URL']) delete base[name];
    return {
      ...base,
      ENVIRONMENT: settings.environment,
      LOG_LEVEL: settings.logLevel,
      DATABASE_URL: this.databaseUrl,
      AMQP_URL: settings.amqpUrl,
      REDIS_URL: settings.redisUrl,
      ...(isolation ? { BUS_EXCHANGE: isolation.busExchange, REDIS_KEY_PREFIX: isolation.redisKeyPrefix } : {}),
    };
  }

  /** Every service's URL by its variable (AUTH_URL, WALLET_URL, ...): services call each other by these. */
  serviceUrls(): Record<string, string> {
    return Object.fromEntries(this.settings.services.map((service) => [service.urlVariable, service.url]));
  }

  /**
   * An internal service's environment. Only auth (and the operator CLI) receive the key encryption
   * key; only auth (which seals webhook signing secrets) and webhooks (which opens them to sign
   * deliveries) receive the webhook secret sealing key. With the services' own roles, it runs as its
   * runtime role and migrates as its owner role.
   */
  serviceEnvironment(name: InternalServiceName, { port = serviceSettings(this.settings, name).port, overrides = {} }: { port?: number; overrides?: Record<string, string> } = {}): NodeJS.ProcessEnv {
    const { keys, serviceEnv } = this.options;
    const database = this.serviceDatabaseUrls?.[name];
    return {
      ...this.sharedEnvironment(),
      ...this.serviceUrls(),
      ...(database ? { DATABASE_URL: database.runtime, MIGRATION_DATABASE_URL: database.owner } : {}),
      HOST: serviceSettings(this.settings, name).host,
      PORT: String(port),
      ...(name === 'auth' ? { AUTH_KEY_ENCRYPTION_KEY: keys.authKeyEncryptionKey } : {}),
      ...((name === 'auth' || name === 'webhooks') && keys.webhookSecretSealingKey !== undefined ? { WEBHOOK_SECRET_SEALING_KEY: keys.webhookSecretSealingKey } : {}),
      ...serviceEnv?.[name],
      ...overrides,
    };
  }

  gatewayEnvironment({ port, adminPort, overrides = {} }: { port: number; adminPort: number; overrides?: Record<string, string> }): NodeJS.ProcessEnv {
    const { gateway, tls } = this.settings;
    return {
      ...this.sharedEnvironment(),
      HOST: gateway.host,
      PORT: String(port),
      ADMIN_HOST: gateway.adminHost,
      ADMIN_PORT: String(adminPort),
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
      ...this.serviceUrls(),
      ...this.options.gatewayEnv,
      ...overrides,
    };
  }

  /**
   * The back-office's environment: HTTPS itself with the stack's certificate (TLS_MODE terminate;
   * plain HTTP on the same port serves only the probes and metrics), the address people open, the
   * sealing key of operators' TOTP secrets, the owners it executes approved changes through (auth,
   * wallet, quotes) and, with the services' own roles, its runtime and owner roles.
   */
  backofficeEnvironment({ port = this.settings.backoffice.port, publicUrl = this.settings.backoffice.publicUrl, overrides = {} }: { port?: number; publicUrl?: string; overrides?: Record<string, string> } = {}): NodeJS.ProcessEnv {
    const { keys } = this.options;
    if (keys.backofficeSealingKey === undefined) throw new Error('the back-office needs keys.backofficeSealingKey (BACKOFFICE_SEALING_KEY)');
    const database = this.serviceDatabaseUrls?.backoffice;
    const { tls, backoffice } = this.settings;
    return {
      ...this.sharedEnvironment(),
      ...this.serviceUrls(),
      ...(database ? { DATABASE_URL: database.runtime, MIGRATION_DATABASE_URL: database.owner } : {}),
      HOST: backoffice.host,
      PORT: String(port),
      TLS_MODE: 'terminate',
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
      BACKOFFICE_PUBLIC_URL: publicUrl,
      BACKOFFICE_SEALING_KEY: keys.backofficeSealingKey,
      ...this.options.backofficeEnv,
      ...overrides,
    };
  }

  /**
   * The back-office's set-up CLI's environment (bootstrap-admin): its database (its runtime role
   * when the services have their own) and the console's address, which the set-up link points at.
   */
  backofficeSetupEnvironment({ publicUrl = this.settings.backoffice.publicUrl, logLevel = 'warn' }: { publicUrl?: string; logLevel?: string } = {}): NodeJS.ProcessEnv {
    const database = this.serviceDatabaseUrls?.backoffice;
    return {
      ...this.sharedEnvironment(),
      DATABASE_URL: database?.runtime ?? this.databaseUrl,
      BACKOFFICE_PUBLIC_URL: publicUrl,
      LOG_LEVEL: logLevel,
    };
  }

  /** The partner dashboard's environment: its database, the services it reads through, HTTPS with the stack's certificate. */
  dashboardEnvironment({ port = this.settings.dashboard.port, internalPort = this.settings.dashboard.internalPort, publicUrl = this.settings.dashboard.publicUrl, overrides = {} }: { port?: number; internalPort?: number; publicUrl?: string; overrides?: Record<string, string> } = {}): NodeJS.ProcessEnv {
    const { keys } = this.options;
    if (keys.dashboardSealingKey === undefined) throw new Error('the dashboard needs keys.dashboardSealingKey (DASHBOARD_SEALING_KEY)');
    const database = this.serviceDatabaseUrls?.dashboard;
    const { tls, dashboard } = this.settings;
    return {
      ...this.sharedEnvironment(),
      ...this.serviceUrls(),
      ...(database ? { DATABASE_URL: database.runtime, MIGRATION_DATABASE_URL: database.owner } : {}),
      HOST: dashboard.host,
      PORT: String(port),
      TLS_MODE: 'terminate',
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
      DASHBOARD_PUBLIC_URL: publicUrl,
      DASHBOARD_SEALING_KEY: keys.dashboardSealingKey,
      DASHBOARD_INTERNAL_PORT: String(internalPort),
      DASHBOARD_INTERNAL_HOST: '127.0.0.1',
      ...this.options.dashboardEnv,
      ...overrides,
    };
  }

  /** The dashboard's set-up CLI's environment (invite-admin): its database, auth (the partner must exist) and the address invitation links point at. */
  dashboardSetupEnvironment({ publicUrl = this.settings.dashboard.publicUrl, logLevel = 'warn' }: { publicUrl?: string; logLevel?: string } = {}): NodeJS.ProcessEnv {
    const database = this.serviceDatabaseUrls?.dashboard;
    return {
      ...this.sharedEnvironment(),
      ...this.serviceUrls(),
      DATABASE_URL: database?.runtime ?? this.databaseUrl,
      DASHBOARD_PUBLIC_URL: publicUrl,
      LOG_LEVEL: logLevel,
      // The dashboard's e-mail relay, when it has one: the first admin's invitation is mailed too.
      ...Object.fromEntries(Object.entries(this.options.dashboardEnv ?? {}).filter(([name]) => name.startsWith('DASHBOARD_SMTP_'))),
    };
  }

  /**
   * The operator CLIs' environment: both keys (onboarding and rotate-webhook-secret seal new
   * secrets) and the services' URLs (fund-partner checks the partner id with auth). With `service`
   * and the services' own roles, the CLI connects as that service's runtime role.
   */
  operatorEnvironment({ service, logLevel }: { service?: InternalServiceName; logLevel?: string } = {}): NodeJS.ProcessEnv {
    const { keys } = this.options;
    const database = service ? this.serviceDatabaseUrls?.[service] : undefined;
    return {
      ...this.sharedEnvironment(),
      ...this.serviceUrls(),
      ...(database ? { DATABASE_URL: database.runtime } : {}),
      ...(logLevel ? { LOG_LEVEL: logLevel } : {}),
      AUTH_KEY_ENCRYPTION_KEY: keys.authKeyEncryptionKey,
      ...(keys.webhookSecretSealingKey === undefined ? {} : { WEBHOOK_SECRET_SEALING_KEY: keys.webhookSecretSealingKey }),
    };
  }

  /** Starts a built service or the gateway as `processName`, under --cpu-prof when asked. */
  private launch(name: ServiceName, processName: string, env: NodeJS.ProcessEnv): ChildRecord {
    const profile = this.options.cpuProfile;
    const nodeArgs = profile?.names.includes(name) ? ['--cpu-prof', '--cpu-prof-dir', profile.directory, '--cpu-prof-name', `${processName}-${profile.runId}.cpuprofile`] : [];
    if (nodeArgs.length > 0 && profile) fs.mkdirSync(profile.directory, { recursive: true });
    return this.group.start(processName, entryOf(name), env, { nodeArgs, cwd: path.join(repoRoot, 'services', name) });
  }

  /**
   * Waits until url answers 200, giving up when the process ends first or after the settings'
   * readiness timeout; resolves the milliseconds it took. With output in memory, the error carries
   * the process's last lines.
   */
  async waitUntilReady(record: ChildRecord, url: string): Promise<number> {
    try {
      return await waitUntilReady(url, {
        timeoutMs: this.settings.readyTimeoutMs,
        gaveUp: () => (this.group.isRunning(record) ? undefined : `${record.name} ${describeEnding(record)} before it was ready`),
      });
    } catch (error) {
      if (this.options.output.kind !== 'memory') throw error;
      throw new Error(`${(error as Error).message}:\n${this.group.tail(record).join('\n')}`);
    }
  }

  /** Starts the internal services at once and waits until each is ready; onReady hears of each as it is. */
  async startServices(names: readonly InternalServiceName[], { onReady }: { onReady?: (name: InternalServiceName, tookMs: number) => void } = {}): Promise<ChildRecord[]> {
    const started = names.map((name) => ({ name, record: this.launch(name, name, this.serviceEnvironment(name)) }));
    await Promise.all(
      started.map(async ({ name, record }) => {
        const tookMs = await this.waitUntilReady(record, `${serviceSettings(this.settings, name).url}/readyz`);
        onReady?.(name, tookMs);
      }),
    );
    return started.map(({ record }) => record);
  }

  /** Another process of an internal service, on a free port, with its environment changed by the overrides. */
  async startExtraService(name: InternalServiceName, processName: string, overrides: Record<string, string>): Promise<{ record: ChildRecord; url: string }> {
    const [port = 0] = await freePorts(1);
    const host = serviceSettings(this.settings, name).host;
    const record = this.launch(name, processName, this.serviceEnvironment(name, { port, overrides }));
    const url = `http://${host}:${port}`;
    await this.waitUntilReady(record, `${url}/readyz`);
    return { record, url };
  }

  /** Starts a gateway (the settings' ports, or free ones) and waits until it is ready (or alive). */
  async startGateway({ overrides = {}, waitFor = 'ready', ports = 'settings', processName = 'gateway' }: GatewayStartOptions = {}): Promise<StartedGateway> {
    const { gateway } = this.settings;
    return onAnotherFreePortIfTaken(ports, async () => {
      const [port = 0, adminPort = 0] = ports === 'free' ? await freePorts(2) : [gateway.port, gateway.adminPort];
      const adminUrl = ports === 'free' ? `http://127.0.0.1:${adminPort}` : gateway.adminUrl;
      const record = this.launch('gateway', processName, this.gatewayEnvironment({ port, adminPort, overrides }));
      const tookMs = await this.waitUntilReady(record, `${adminUrl}${waitFor === 'ready' ? '/readyz' : '/healthz'}`);
      return { record, port, adminPort, baseUrl: `https://127.0.0.1:${port}/api/v1`, adminUrl, tookMs };
    });
  }

  /**
   * Starts the back-office (the settings' port, or a free one) and waits until /readyz answers on
   * the plain side of its port; its console is then at publicUrl over HTTPS.
   */
  async startBackoffice({ overrides = {}, ports = 'settings', processName = 'backoffice' }: { overrides?: Record<string, string>; ports?: 'settings' | 'free'; processName?: string } = {}): Promise<StartedBackoffice> {
    const { backoffice } = this.settings;
    return onAnotherFreePortIfTaken(ports, async () => {
      const [port = 0] = ports === 'free' ? await freePorts(1) : [backoffice.port];
      const publicUrl = ports === 'free' ? `https://localhost:${port}` : backoffice.publicUrl;
      const probeUrl = ports === 'free' ? `http://127.0.0.1:${port}` : backoffice.probeUrl;
      const record = this.launch('backoffice', processName, this.backofficeEnvironment({ port, publicUrl, overrides }));
      const tookMs = await this.waitUntilReady(record, `${probeUrl}/readyz`);
      return { record, port, publicUrl, probeUrl, tookMs };
    });
  }

  /** Starts the partner dashboard (the settings' ports, or free ones) and waits until /readyz answers on its internal listener. */
  async startDashboard({ overrides = {}, ports = 'settings', processName = 'dashboard' }: { overrides?: Record<string, string>; ports?: 'settings' | 'free'; processName?: string } = {}): Promise<StartedBackoffice> {
    const { dashboard } = this.settings;
    return onAnotherFreePortIfTaken(ports, async () => {
      const [port = 0, internalPort = 0] = ports === 'free' ? await freePorts(2) : [dashboard.port, dashboard.internalPort];
      const publicUrl = ports === 'free' ? `https://localhost:${port}` : dashboard.publicUrl;
      // The probes are on the internal listener: the public port serves people only.
      const internalUrl = `http://127.0.0.1:${internalPort}`;
      const record = this.launch('dashboard', processName, this.dashboardEnvironment({ port, internalPort, publicUrl, overrides }));
      const tookMs = await this.waitUntilReady(record, `${internalUrl}/readyz`);
      return { record, port, publicUrl, probeUrl: internalUrl, tookMs, internalUrl };
    });
  }

  /** Starts any other node script of the stack (the webhook receiver, a benchmark's upstream) and waits for readyUrl. */
  async startProcess(name: string, entry: string, env: NodeJS.ProcessEnv, { readyUrl, args, cwd }: { readyUrl: string; args?: readonly string[]; cwd?: string }): Promise<{ record: ChildRecord; tookMs: number }> {
    const record = this.group.start(name, entry, env, { ...(args ? { args } : {}), ...(cwd ? { cwd } : {}) });
    return { record, tookMs: await this.waitUntilReady(record, readyUrl) };
  }

  /**
   * Stops every process, then removes what the stack owns (its database, Redis keys and bus
   * exchange) when it was isolated. A removal that fails is reported to onProblem and skipped.
   */
  async stop({ onProblem = () => undefined }: { onProblem?: (message: string) => void } = {}): Promise<ChildRecord[]> {
    const stopped = await this.group.stopAll();
    const { isolation, settings } = this.options;
    if (!isolation) return stopped;
    const removals: [string, () => Promise<void>][] = [
      ['database', () => dropDatabase(isolation.databaseUrl)],
      ['Redis keys', () => deleteRedisKeys(settings.redisUrl, isolation.redisKeyPrefix)],
      ['bus exchanges', () => deleteExchange(settings.amqpUrl, isolation.busExchange)],
    ];
    for (const [what, remove] of removals) {
      try {
        await remove();
      } catch (error) {
        onProblem(`could not remove the ${what}: ${(error as Error).message}`);
      }
    }
    return stopped;
  }
}

const freePortAttempts = 3;

/**
 * A free port is released before the child binds it (ports.ts), so another process (an outgoing
 * connection's ephemeral port, a parallel test's stack) may take it first: the child then exits
 * with EADDRINUSE, and the start is tried again on other free ports, at most three times in all.
 */
async function onAnotherFreePortIfTaken<T>(ports: 'settings' | 'free', start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (ports !== 'free' || attempt >= freePortAttempts || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

/** Deletes every key under a stack's prefix, so runs leave nothing behind in a shared Redis. */
async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    let cursor = '0';
    for (let page = 0; page < 10_000; page += 1) {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    client.disconnect();
  }
}

/** Removes a stack's exchange, the dead-letter exchange, and every durable queue the bus and the services declared for it. */
async function deleteExchange(amqpUrl: string, exchange: string): Promise<void> {
  const amqp = await import('amqplib');
  const deadLetter = deadLetterNames(exchange);
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    // Every durable queue of the topology, the services' and the dead-letter one (deleting a queue that does not exist is a no-op).
    for (const queue of durableQueueNames(exchange)) await channel.deleteQueue(queue);
    await channel.deleteExchange(deadLetter.exchange);
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}
