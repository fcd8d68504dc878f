/**
 * The end-to-end harness: boots a whole stack of built processes (node services/<name>/dist/main.js)
 * on free ports against the real Postgres, RabbitMQ and Redis, isolated from every other stack by
 * its own database, bus exchange and Redis key prefix, and drives it over HTTPS as a partner would.
 * It builds nothing (`npm test` runs `tsc -b` first) and stops only the processes it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate as generateCertificate } from 'selfsigned';
import { databaseUrlForRole, dropDatabase, ensureDatabase, provisionServiceRoles, serviceRoleNames } from '@pwa/db';
import { deleteExchange, deleteRedisKeys } from './cleanup';
import { HttpsJsonClient } from './https-client';
import { probeHttp } from './process-probe';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('./server-urls') as { serverUrls: () => ServerUrls };

export const repoRoot = path.resolve(__dirname, '..', '..');

export const internalServiceNames = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'] as const;
export type InternalServiceName = (typeof internalServiceNames)[number];
export type ServiceName = InternalServiceName | 'gateway';

const urlVariableOf: Record<InternalServiceName, string> = {
  auth: 'AUTH_URL',
  wallet: 'WALLET_URL',
  quotes: 'QUOTES_URL',
  collections: 'COLLECTIONS_URL',
  disbursements: 'DISBURSEMENTS_URL',
  webhooks: 'WEBHOOKS_URL',
};

const readinessTimeoutMs = 45_000;
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

interface RunningProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
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
  /** Runs the auth operator CLI with --json and returns the JSON object it printed. */
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
  const databaseUrl = withDatabase(servers.postgres, `pwa_e2e_${runId}`);
  const busExchange = `pwa.e2e.${runId}`;
  const redisKeyPrefix = `pwa-e2e:${runId}:`;
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), `pwa-e2e-${runId}-`));
  const certificate = await createCertificate(workDirectory);
  const authKeyEncryptionKey = randomBytes(32).toString('base64');
  const webhookSecretSealingKey = randomBytes(32).toString('base64');
  const logLines: string[] = [];
  const processes: RunningProcess[] = [];
  const gateways: GatewayProcess[] = [];

  const common = {
    ENVIRONMENT: environment,
    LOG_LEVEL: options.logLevel ?? 'info',
    AMQP_URL: servers.amqp,
    BUS_EXCHANGE: busExchange,
  };
  const ports = await freePorts(internalServiceNames.length);
  const internalUrls = Object.fromEntries(
    internalServiceNames.map((name, index) => [name, `http://127.0.0.1:${ports[index]}`]),
  ) as Record<InternalServiceName, string>;

  const launch = (name: string, entry: string, env: Record<string, string>): RunningProcess => {
    const running = spawnService(name, entry, env, logLines);
    processes.push(running);
    return running;
  };

  const startGatewayProcess = async (envOverrides: Record<string, string>, waitFor: 'ready' | 'alive'): Promise<GatewayProcess> => {
    const [port, adminPort] = await freePorts(2);
    const env: Record<string, string> = {
      ...common,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_HOST: '127.0.0.1',
      ADMIN_PORT: String(adminPort),
      TLS_MODE: 'terminate',
      TLS_CERT_FILE: certificate.certFile,
      TLS_KEY_FILE: certificate.keyFile,
      REDIS_URL: servers.redis,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      // Every test mints tokens from 127.0.0.1; the per-address limit has its own test.
      TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: '1000',
      ...(options.tokenTtlSeconds === undefined ? {} : { TOKEN_CLOCK_TOLERANCE_SECONDS: '0' }),
      ...Object.fromEntries(internalServiceNames.map((name) => [urlVariableOf[name], internalUrls[name]])),
      ...options.gatewayEnv,
      ...envOverrides,
    };
    const name = gateways.length === 0 ? 'gateway' : `gateway-${gateways.length + 1}`;
    const running = launch(name, entryOf('gateway'), env);
    await waitUntilReady(running, Number(env.ADMIN_PORT), logLines, waitFor === 'ready' ? '/readyz' : '/healthz');
    const client = new HttpsJsonClient({ port: Number(env.PORT), certificatePem: certificate.certPem });
    const gateway: GatewayProcess = {
      baseUrl: `https://127.0.0.1:${env.PORT}/api/v1`,
      port: Number(env.PORT),
      adminPort: Number(env.ADMIN_PORT),
      client,
      stop: async () => {
        client.close();
        await stopProcess(running);
      },
    };
    gateways.push(gateway);
    return gateway;
  };

  const stopEverything = async (): Promise<void> => {
    for (const gateway of gateways) gateway.client.close();
    await Promise.all(processes.map(stopProcess));
    await Promise.allSettled([
      dropDatabase(databaseUrl),
      deleteRedisKeys(servers.redis, redisKeyPrefix),
      deleteExchange(servers.amqp, busExchange),
    ]);
    rmSync(workDirectory, { recursive: true, force: true });
  };

  // Every internal service learns where the others are (quotes asks wallet, say); unknown keys are ignored.
  const upstreamUrls = Object.fromEntries(internalServiceNames.map((name) => [urlVariableOf[name], internalUrls[name]]));
  const serviceDatabaseUrls = Object.fromEntries(
    internalServiceNames.map((name) => {
      const roles = serviceRoleNames(name);
      return [name, { runtime: databaseUrlForRole(databaseUrl, roles.runtime), owner: databaseUrlForRole(databaseUrl, roles.owner) }];
    }),
  ) as Stack['serviceDatabaseUrls'];
  const internalServiceEnv = (name: InternalServiceName, port: number): Record<string, string> => ({
    ...common,
    ...upstreamUrls,
    HOST: '127.0.0.1',
    PORT: String(port),
    // Least privilege as deployed: the service runs as its runtime role and migrates as its owner role.
    DATABASE_URL: serviceDatabaseUrls[name].runtime,
    MIGRATION_DATABASE_URL: serviceDatabaseUrls[name].owner,
    ...(name === 'auth'
      ? {
          AUTH_KEY_ENCRYPTION_KEY: authKeyEncryptionKey,
          OUTBOX_POLL_INTERVAL_MS: '100',
          ...(options.tokenTtlSeconds === undefined ? {} : { TOKEN_TTL_SECONDS: String(options.tokenTtlSeconds) }),
        }
      : {}),
    ...(name === 'auth' || name === 'webhooks' ? { WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKey } : {}),
    ...options.serviceEnv?.[name],
  });
  const cliEnv = {
    ENVIRONMENT: environment,
    AUTH_KEY_ENCRYPTION_KEY: authKeyEncryptionKey,
    WEBHOOK_SECRET_SEALING_KEY: webhookSecretSealingKey,
    // fund-partner checks the partner id with auth before it posts anything.
    AUTH_URL: internalUrls.auth,
  };
  let extraServiceCount = 0;

  try {
    await ensureDatabase(databaseUrl);
    await provisionServiceRoles({ adminUrl: databaseUrl, services: internalServiceNames.map((name) => ({ service: name, schema: name })) });
    const started = internalServiceNames.map((name, index) => launch(name, entryOf(name), internalServiceEnv(name, ports[index] ?? 0)));
    const [gateway] = await Promise.all([
      startGatewayProcess({}, 'ready'),
      ...started.map((running, index) => waitUntilReady(running, ports[index] ?? 0, logLines)),
    ]);
    return {
      environment,
      baseUrl: gateway.baseUrl,
      gateway,
      client: gateway.client,
      certificatePem: certificate.certPem,
      internalUrls,
      redisKeyPrefix,
      busExchange,
      amqpUrl: servers.amqp,
      databaseUrl,
      serviceDatabaseUrls,
      webhookSecretSealingKey,
      operator: (args) => runOperator('auth', args, { ...cliEnv, DATABASE_URL: serviceDatabaseUrls.auth.runtime }),
      walletOperator: (args) => runOperator('wallet', args, { ...cliEnv, DATABASE_URL: serviceDatabaseUrls.wallet.runtime }),
      quotesOperator: (args) => runOperator('quotes', args, { ...cliEnv, DATABASE_URL: serviceDatabaseUrls.quotes.runtime }),
      startExtraService: async (name, envOverrides) => {
        extraServiceCount += 1;
        const [port] = await freePorts(1);
        const running = launch(`${name}-${extraServiceCount + 1}`, entryOf(name), { ...internalServiceEnv(name, port ?? 0), ...envOverrides });
        await waitUntilReady(running, port ?? 0, logLines);
        return { url: `http://127.0.0.1:${String(port)}`, stop: () => stopProcess(running), kill: () => killProcess(running) };
      },
      stopService: async (name) => {
        const running = processes.find((candidate) => candidate.name === name);
        if (running) await stopProcess(running);
      },
      startExtraGateway: (envOverrides = {}, waitFor = 'ready') => startGatewayProcess(envOverrides, waitFor),
      logs: () => logLines.join('\n'),
      stop: stopEverything,
    };
  } catch (error) {
    await stopEverything();
    throw error;
  }
}

export function entryOf(name: ServiceName): string {
  return path.join(repoRoot, 'services', name, 'dist', 'main.js');
}

function spawnService(name: string, entry: string, env: Record<string, string>, logLines: string[]): RunningProcess {
  const child = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    // Only what the service needs: nothing of the test runner's environment leaks in.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const capture = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.length > 0) logLines.push(`[${name}] ${line}`);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { name, child, exited };
}

async function stopProcess(running: RunningProcess): Promise<void> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
  await running.exited;
  clearTimeout(killer);
}

async function killProcess(running: RunningProcess): Promise<void> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await running.exited;
}

async function waitUntilReady(running: RunningProcess, port: number, logLines: string[], probePath = '/readyz'): Promise<void> {
  const deadline = Date.now() + readinessTimeoutMs;
  let exitedEarly = false;
  void running.exited.then(() => {
    exitedEarly = true;
  });
  while (Date.now() < deadline) {
    if (exitedEarly) break;
    if ((await probeHttp(`http://127.0.0.1:${port}${probePath}`)) === 200) return;
    await sleep(100);
  }
  const tail = logLines.filter((line) => line.startsWith(`[${running.name}]`)).slice(-20);
  const why = exitedEarly ? `exited with code ${String(running.child.exitCode)}` : `was not ready within ${readinessTimeoutMs} ms`;
  throw new Error(`${running.name} ${why}:\n${tail.join('\n')}`);
}

/** Runs a service's operator CLI with --json; resolves its JSON object, rejects with what it said when it fails. */
function runOperator(service: 'auth' | 'wallet' | 'quotes', args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'services', service, 'dist', 'cli', 'main.js'), ...args, '--json'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: operatorTimeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        const result = JSON.parse(stdout) as Record<string, unknown>;
        if (code !== 0) reject(new Error(`operator ${args.join(' ')} failed (${String(code)}): ${stdout}${stderr}`));
        else resolve(result);
      } catch {
        reject(new Error(`operator ${args.join(' ')} printed no JSON (exit ${String(code)}): ${stdout}${stderr}`));
      }
    });
  });
}

async function createCertificate(directory: string): Promise<{ certPem: string; certFile: string; keyFile: string }> {
  const pems = await generateCertificate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const certFile = path.join(directory, 'gateway.crt');
  const keyFile = path.join(directory, 'gateway.key');
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { certPem: pems.cert, certFile, keyFile };
}

/** Free ports, held open together until all are chosen so that no two are the same. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function withDatabase(postgresUrl: string, database: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
