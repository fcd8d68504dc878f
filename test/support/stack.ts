/**
 * The end-to-end harness: boots a whole stack of built processes (node services/<name>/dist/main.js)
 * on free ports against the real Postgres, RabbitMQ and Redis, isolated from every other stack by
 * its own database, bus exchange and Redis key prefix, and drives it over HTTPS as a partner would.
 * It builds nothing (`npm test` runs `tsc -b` first) and stops only the processes it started. The
 * processes are launched by scripts/lib/stack.ts, as npm start's and the benchmarks' are.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalhostCertificate } from '../../scripts/lib/local-files';
import { OperatorBatch, isCommandOf } from '../../scripts/lib/operator-batch';
import { runOperatorCli, type OperatorService } from '../../scripts/lib/operator-cli';
import { internalServiceNames, repoRoot, type InternalServiceName, type ServiceName } from '../../scripts/lib/settings';
import { LocalStack, entryOf, settingsWithFreePorts, type StartedGateway } from '../../scripts/lib/stack';
import { HttpsJsonClient } from './https-client';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('./server-urls') as { serverUrls: () => ServerUrls };

export { entryOf, internalServiceNames, repoRoot, type InternalServiceName, type ServiceName };

const readinessTimeoutSeconds = 45;
const stopGraceMs = 5_000;
const operatorTimeoutMs = 30_000;

export interface StackOptions {
  environment?: 'sandbox' | 'production';
  /** Lifetime of issued tokens; the gateway's clock tolerance is 0 when it is set, so expiry is exact. */
  tokenTtlSeconds?: number;
  logLevel?: string;
  /** Extra environment for the gateway (limits, say). */
  gatewayEnv?: Record<string, string>;
  /** Extra environment for internal services (QUOTE_LIFETIME_SECONDS for quotes, say). */
  serviceEnv?: Partial<Record<InternalServiceName, Record<string, string>>>;
  /**
   * Servers to use instead of the shared ones (serverUrls()): a fault test's private PostgreSQL,
   * RabbitMQ or Redis, which it may stop and start without touching other tests.
   */
  servers?: Partial<ServerUrls>;
}

export interface ServerUrls {
  postgres: string;
  amqp: string;
  redis: string;
}

/** An operator CLI of the stack (auth, wallet or quotes), run with --json against the stack's database. */
export type OperatorCli = (args: string[]) => Promise<Record<string, unknown>>;

export interface ExtraServiceProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  stop(): Promise<void>;
  /** Kills the process with SIGKILL (no shutdown hooks run: a crash) and waits until it is gone. */
  kill(): Promise<void>;
}

export interface GatewayProcess {
  baseUrl: string;
  port: number;
  adminPort: number;
  client: HttpsJsonClient;
  stop(): Promise<void>;
}

export interface Stack {
  environment: 'sandbox' | 'production';
  /** https://127.0.0.1:<port>/api/v1 */
  baseUrl: string;
  gateway: GatewayProcess;
  /** A JSON client for the stack's gateway that trusts the stack's certificate. */
  client: HttpsJsonClient;
  /** The certificate the gateway presents (its own trust anchor). */
  certificatePem: string;
  internalUrls: Record<InternalServiceName, string>;
  /** Every Redis key of the stack starts with it (and is deleted by stop()). */
  redisKeyPrefix: string;
  /** The stack's own bus exchange (BUS_EXCHANGE of every service; deleted by stop()). */
  busExchange: string;
  /** The broker every process of the stack uses. */
  amqpUrl: string;
  /**
   * The stack's own database (every service's schema is in it), as the administrator that
   * provisioned the services' roles; tests read it to prove nothing changed.
   */
  databaseUrl: string;
  /**
   * What each service connects as: its runtime role (DML on its own schema only), and the owner
   * role its migrations run as (libs/db service-roles). The operator CLIs use the runtime URL of
   * the service that owns them.
   */
  serviceDatabaseUrls: Record<InternalServiceName, { runtime: string; owner: string }>;
  /**
   * WEBHOOK_SECRET_SEALING_KEY of the stack (base64 of 32 bytes, new for every stack): auth seals
   * partners' webhook signing secrets with it, webhooks opens them; the auth CLI has it too.
   */
  webhookSecretSealingKey: string;
  /**
   * Runs a command of the auth operator CLI and returns the JSON object it printed (--json); the
   * three service CLIs run their commands in one `batch` process each per stack.
   */
  operator: OperatorCli;
  /** The wallet operator CLI (users, balances, limits, ledger check); rejects when it exits non-zero. */
  walletOperator: OperatorCli;
  /** The quotes operator CLI (fees). */
  quotesOperator: OperatorCli;
  /**
   * Another process of an internal service on the stack's database, bus and upstreams, with its
   * environment changed by the overrides (pair it with startExtraGateway and its *_URL variable).
   */
  startExtraService(name: InternalServiceName, envOverrides: Record<string, string>): Promise<ExtraServiceProcess>;
  /** Stops one service of the stack (SIGTERM, then SIGKILL) to simulate an outage. */
  stopService(name: InternalServiceName): Promise<void>;
  /**
   * Another gateway process on the same bus, Redis prefix and upstreams; overrides change its
   * environment. It is awaited until ready, or only until alive (/healthz) for a gateway whose
   * dependencies are meant to be unreachable.
   */
  startExtraGateway(envOverrides?: Record<string, string>, waitFor?: 'ready' | 'alive'): Promise<GatewayProcess>;
  /** Everything every process of the stack wrote to stdout and stderr so far. */
  logs(): string;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const environment = options.environment ?? 'sandbox';
  const runId = randomBytes(6).toString('hex');
  const servers: ServerUrls = { ...serverUrls(), ...options.servers };
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), `pwa-e2e-${runId}-`));
  const settingsEnv = {
    DATABASE_URL: servers.postgres,
    AMQP_URL: servers.amqp,
    REDIS_URL: servers.redis,
    ENVIRONMENT: environment,
    LOG_LEVEL: options.logLevel ?? 'info',
    PWA_LOCAL_DIR: workDirectory,
    PWA_READY_TIMEOUT_SECONDS: String(readinessTimeoutSeconds),
  };
  const settings = await settingsWithFreePorts(settingsEnv);
  const certificatePem = await createLocalhostCertificate(settings.tls.certFile, settings.tls.keyFile, { authority: true, validityDays: 1 });
  const busExchange = `pwa.e2e.${runId}`;
  const redisKeyPrefix = `pwa-e2e:${runId}:`;
  const webhookSecretSealingKey = randomBytes(32).toString('base64');
  const logLines: string[] = [];
  const local = new LocalStack({
    settings,
    isolation: { databaseUrl: withDatabase(servers.postgres, `pwa_e2e_${runId}`), busExchange, redisKeyPrefix },
    databaseRoles: {},
    keys: { authKeyEncryptionKey: randomBytes(32).toString('base64'), webhookSecretSealingKey },
    serviceEnv: serviceEnvironments(options),
    gatewayEnv: {
      ...testStopSettings,
      TLS_MODE: 'terminate',
      // Every test mints tokens from 127.0.0.1; the per-address limit has its own test.
      TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: '1000',
      ...(options.tokenTtlSeconds === undefined ? {} : { TOKEN_CLOCK_TOLERANCE_SECONDS: '0' }),
      ...options.gatewayEnv,
    },
    output: { kind: 'memory', lines: logLines },
    stopGraceMs,
  });
  const gateways: GatewayProcess[] = [];

  const gatewayProcess = (started: StartedGateway): GatewayProcess => {
    const client = new HttpsJsonClient({ port: started.port, certificatePem });
    const gateway: GatewayProcess = {
      baseUrl: started.baseUrl,
      port: started.port,
      adminPort: started.adminPort,
      client,
      stop: async () => {
        client.close();
        await local.group.stop(started.record);
      },
    };
    gateways.push(gateway);
    return gateway;
  };

  // One batch process per operator CLI, started at its first command: a test seeds dozens of users,
  // partners and fundings, and one CLI process each cost about 0.3 s of CPU (scripts/lib/operator-batch.ts).
  const batches = new Map<OperatorService, OperatorBatch>();
  const batchOf = (service: OperatorService): OperatorBatch => {
    let batch = batches.get(service);
    if (!batch) {
      batch = new OperatorBatch(service, local.operatorEnvironment({ service, logLevel: 'warn' }), { cwd: repoRoot, timeoutMs: operatorTimeoutMs });
      batches.set(service, batch);
    }
    return batch;
  };

  const stopEverything = async (): Promise<void> => {
    for (const gateway of gateways) gateway.client.close();
    await Promise.all([...batches.values()].map((batch) => batch.close()));
    await local.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  };

  const operatorOf =
    (service: OperatorService): OperatorCli =>
    async (args) => {
      const result = isCommandOf(service, args)
        ? await batchOf(service).run(args)
        : await runOperatorCli(args, local.operatorEnvironment({ service, logLevel: 'warn' }), { cwd: repoRoot, timeoutMs: operatorTimeoutMs });
      if (result.json === undefined) throw new Error(`operator ${args.join(' ')} printed no JSON (exit ${String(result.exitCode)}): ${result.stdout}${result.stderr}`);
      if (result.exitCode !== 0) throw new Error(`operator ${args.join(' ')} failed (${String(result.exitCode)}): ${result.stdout}${result.stderr}`);
      return result.json as Record<string, unknown>;
    };

  let extraServiceCount = 0;
  try {
    await local.createDatabase();
    const serviceDatabaseUrls = await local.provisionDatabaseRoles();
    if (!serviceDatabaseUrls) throw new Error('the e2e stack provisions its database roles');
    const [gateway] = await Promise.all([local.startGateway().then(gatewayProcess), local.startServices(internalServiceNames)]);
    return {
      environment,
      baseUrl: gateway.baseUrl,
      gateway,
      client: gateway.client,
      certificatePem,
      internalUrls: Object.fromEntries(settings.services.map((service) => [service.name, service.url])) as Record<InternalServiceName, string>,
      redisKeyPrefix,
      busExchange,
      amqpUrl: servers.amqp,
      databaseUrl: local.databaseUrl,
      serviceDatabaseUrls,
      webhookSecretSealingKey,
      operator: operatorOf('auth'),
      walletOperator: operatorOf('wallet'),
      quotesOperator: operatorOf('quotes'),
      startExtraService: async (name, envOverrides) => {
        extraServiceCount += 1;
        const extra = await local.startExtraService(name, `${name}-${extraServiceCount + 1}`, envOverrides);
        return { url: extra.url, stop: () => local.group.stop(extra.record), kill: () => local.group.kill(extra.record) };
      },
      stopService: async (name) => {
        const running = local.group.children.find((record) => record.name === name);
        if (running) await local.group.stop(running);
      },
      startExtraGateway: async (envOverrides = {}, waitFor = 'ready') =>
        gatewayProcess(await local.startGateway({ overrides: envOverrides, waitFor, ports: 'free', processName: `gateway-${gateways.length + 1}` })),
      logs: () => logLines.join('\n'),
      stop: stopEverything,
    };
  } catch (error) {
    await stopEverything();
    throw error;
  }
}

/**
 * Every process of a test stack stops without the drain delay (SHUTDOWN_DRAIN_DELAY_MS, 2 s by
 * default: /readyz answers 503 that long so load balancers stop sending first). No load balancer
 * is in front of a test stack, and the delay made every stop of a stack, of an extra service and of
 * an extra gateway 2 s longer. The drain itself has its own test (graceful-shutdown.test.ts, which
 * sets it on the process it starts); a test can still set it through serviceEnv or gatewayEnv.
 */
const testStopSettings: Readonly<Record<string, string>> = { SHUTDOWN_DRAIN_DELAY_MS: '0' };

/** Each internal service's environment: the stop settings, auth's test defaults, then the caller's. */
function serviceEnvironments(options: StackOptions): Record<InternalServiceName, Record<string, string>> {
  const defaults: Partial<Record<InternalServiceName, Record<string, string>>> = {
    auth: {
      OUTBOX_POLL_INTERVAL_MS: '100',
      ...(options.tokenTtlSeconds === undefined ? {} : { TOKEN_TTL_SECONDS: String(options.tokenTtlSeconds) }),
    },
  };
  const environments = {} as Record<InternalServiceName, Record<string, string>>;
  for (const name of internalServiceNames) environments[name] = { ...testStopSettings, ...defaults[name], ...options.serviceEnv?.[name] };
  return environments;
}

function withDatabase(postgresUrl: string, database: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
