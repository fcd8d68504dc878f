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
import { describeEnding, type ChildRecord } from '../../scripts/lib/process-group';
import { internalServiceNames, repoRoot, type InternalServiceName, type ServiceName } from '../../scripts/lib/settings';
import { LocalStack, entryOf, settingsWithFreePorts, type StartedBackoffice, type StartedGateway } from '../../scripts/lib/stack';
import { ConsoleHttpsClient, HttpsJsonClient } from './https-client';
import { ReusedSessions } from './reused-sessions';
import { currentTotpStep, spkiSha256Of, totpCodeOfStep, totpCodes } from './totp-person';
import { dashboardProcess, type DashboardProcess } from './dashboard-process';
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
  /**
   * Gives the services' database roles passwords, kept in this file (made once, owner-only), as
   * `npm start` does; for a server that checks passwords. Default: roles without passwords.
   */
  databaseRolePasswordsFile?: string;
  /**
   * Starts the operator's back-office too (HTTPS on its own port with the stack's certificate, its
   * own database roles, the stack's Redis prefix, executing through the stack's auth, wallet and
   * quotes); `env` adds to its environment. Off by default; startBackofficeStack turns it on.
   */
  backoffice?: boolean | { env?: Record<string, string> };
  /** The partner dashboard on a free port (test/support/dashboard-process.ts); `env` adds to its environment. Off by default; startDashboardStack turns it on. */
  dashboard?: boolean | { env?: Record<string, string> };
}

export type OperatorRole = 'viewer' | 'maker' | 'checker' | 'admin';

/** The first admin's bootstrap as the set-up CLI printed it (--json). */
export interface BootstrappedAdmin {
  outcome: 'created' | 'renewed';
  operatorId: string;
  email: string;
  /** https://localhost:<port>/setup#token=...: open it once, before expiresAt. */
  setupLink: string;
  expiresAt: string;
}

/** An operator who finished set-up (password and TOTP), ready to sign in. */
export interface SeededOperator {
  operatorId: string;
  email: string;
  displayName: string;
  roles: OperatorRole[];
  password: string;
  /** The TOTP secret enrolled at set-up (base32, as an authenticator app takes it). */
  totpSecretBase32: string;
  /**
   * A TOTP code this operator has never used: the console accepts each 30 s step once, so this
   * moves to the next step when the current window is used up (and then waits for it if needed).
   */
  nextTotpCode(): Promise<string>;
  /** Signs in through the console API (password, then a fresh code); the client holds the session cookie and CSRF token. */
  signIn(): Promise<ConsoleHttpsClient>;
}

export interface BackofficeProcess {
  /** https://localhost:<port>: what a browser opens; the session cookie, same-origin checks and set-up links use it. */
  baseUrl: string;
  port: number;
  /** http://127.0.0.1:<port>: plain HTTP on the same port answers /healthz, /readyz and /metrics only (the rest is redirected or refused). */
  probeUrl: string;
  /** The certificate the back-office presents (the stack's; its own trust anchor): a browser's or client's CA. */
  certificatePem: string;
  /**
   * Chromium flags that make it trust exactly this certificate (its public key's SHA-256), so the
   * page is a secure context without a certificate error: WebAuthn (passkeys) refuses pages with
   * one, which ignoreHTTPSErrors would leave. Pass them as Playwright's chromium.launch({ args }).
   */
  chromiumArgs: string[];
  /** A new console client (its own cookie jar) over HTTPS. */
  client(): ConsoleHttpsClient;
  /** Runs the set-up CLI's bootstrap-admin against the stack's back-office database; rejects when it refuses. */
  bootstrapAdmin(email: string, name: string): Promise<BootstrappedAdmin>;
  /** Opens a set-up link through the console API as its person would: enrols TOTP and sets the password. */
  completeSetup(setupLink: string, person: { email: string; displayName: string; roles: OperatorRole[]; operatorId: string }): Promise<SeededOperator>;
  /**
   * An active operator with these roles. The first call bootstraps the stack's seed admin
   * (seed.admin@operator.example) unless `invitedBy` is given; every operator is then invited by
   * that admin through the console API and completes set-up as a person would.
   */
  seedOperator(request: { name: string; roles: OperatorRole[]; email?: string; invitedBy?: SeededOperator }): Promise<SeededOperator>;
  /**
   * The operator's kept API session (signed in once, then reused; see reused-sessions.ts): for
   * calls that are not about signing in, so a file's second look does not wait for the next TOTP step.
   */
  sessionOf(operator: SeededOperator): Promise<ConsoleHttpsClient>;
  /**
   * Another back-office process on the same database, Redis prefix and owners, on a free port, with
   * its environment changed by the overrides (TLS_MODE=proxy and BACKOFFICE_TRUSTED_PROXY_HOPS, say).
   */
  startExtra(envOverrides: Record<string, string>): Promise<{ port: number; baseUrl: string; probeUrl: string; stop(): Promise<void> }>;
  /** Runs the set-up CLI (bootstrap-admin ...) with --json against the stack; resolves its exit code and JSON. */
  setupCli(args: string[]): Promise<{ exitCode: number | null; json: Record<string, unknown> | undefined; output: string }>;
  stop(): Promise<void>;
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
  /** The back-office, when the stack was started with `backoffice` (startBackofficeStack). */
  backoffice: BackofficeProcess | undefined;
  /** The partner dashboard, when the stack was started with `dashboard` (startDashboardStack). */
  dashboard: DashboardProcess | undefined;
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
    databaseRoles: options.databaseRolePasswordsFile === undefined ? {} : { passwordsFile: options.databaseRolePasswordsFile },
    keys: { authKeyEncryptionKey: randomBytes(32).toString('base64'), webhookSecretSealingKey, backofficeSealingKey: randomBytes(32).toString('base64'), dashboardSealingKey: randomBytes(32).toString('base64') },
    serviceEnv: serviceEnvironments(options),
    backofficeEnv: { ...testStopSettings, BACKOFFICE_SWEEP_INTERVAL_MS: '1000', ...(typeof options.backoffice === 'object' ? options.backoffice.env : {}) },
    // The suites' teams make many calls a minute: the default limit is one no test reaches; a test of the limit sets its partner's own (set-rate-limit).
    dashboardEnv: { ...testStopSettings, DASHBOARD_RATE_LIMIT_PER_MINUTE: '1000000', ...(typeof options.dashboard === 'object' ? options.dashboard.env : {}) },
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
    // A process that ends by itself mid-test (not a drill's own stop) shows up in the suite's output with its last lines.
    onUnexpectedEnd: (record) => reportUnexpectedEnd(record, logLines),
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

  const consoleClients: ConsoleHttpsClient[] = [];
  const stopEverything = async (): Promise<void> => {
    for (const gateway of gateways) gateway.client.close();
    for (const client of consoleClients) client.close();
    await Promise.all([...batches.values()].map((batch) => batch.close()));
    await local.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  };

  // A production-mode stack's set-up (onboarding its test partners, funding them) is the CLIs' break-glass use (decision 0073).
  const setUpArgs = (args: string[]): string[] => (environment === 'production' && !args.includes('--break-glass') ? [...args, '--break-glass', 'test set-up of a production-mode stack (test/support/stack.ts)'] : args);
  const operatorOf =
    (service: OperatorService): OperatorCli =>
    async (typedArgs) => {
      // Only the service CLIs know --break-glass (libs/runtime operator-cli); the standalone ones are not asked.
      const args = isCommandOf(service, typedArgs) ? setUpArgs(typedArgs) : typedArgs;
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
    // The dashboard first: the back-office calls its internal listener (the onboarding's first-admin invitation).
    const startedDashboard = options.dashboard === undefined || options.dashboard === false ? undefined : await local.startDashboard({ ports: 'free' });
    const dashboard = startedDashboard === undefined ? undefined : dashboardProcess(local, startedDashboard, certificatePem, consoleClients, operatorTimeoutMs);
    const dashboardLink: Record<string, string> = startedDashboard?.internalUrl === undefined ? {} : { DASHBOARD_INTERNAL_URL: startedDashboard.internalUrl };
    const backoffice = options.backoffice === undefined || options.backoffice === false ? undefined : backofficeProcess(local, await local.startBackoffice({ ports: 'free', overrides: dashboardLink }), certificatePem, consoleClients);
    return {
      backoffice,
      dashboard,
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

/** The stack started with its back-office: wallet, auth and quotes behind the partner gateway, and the operator's console over HTTPS. */
export type DashboardStack = Stack & { dashboard: DashboardProcess };

/** startStack with the partner dashboard on (see StackOptions.dashboard). */
export async function startDashboardStack(options: StackOptions = {}): Promise<DashboardStack> {
  const stack = await startStack({ ...options, dashboard: options.dashboard === undefined || options.dashboard === false ? true : options.dashboard });
  const { dashboard } = stack;
  if (dashboard === undefined) throw new Error('the dashboard did not start');
  return { ...stack, dashboard };
}

export type BackofficeStack = Stack & { backoffice: BackofficeProcess };

/** startStack with the back-office on (see StackOptions.backoffice). */
export async function startBackofficeStack(options: StackOptions = {}): Promise<BackofficeStack> {
  const stack = await startStack({ ...options, backoffice: options.backoffice === undefined || options.backoffice === false ? true : options.backoffice });
  const { backoffice } = stack;
  if (backoffice === undefined) throw new Error('the back-office did not start');
  return { ...stack, backoffice };
}


function backofficeProcess(local: LocalStack, started: StartedBackoffice, certificatePem: string, clients: ConsoleHttpsClient[]): BackofficeProcess {
  const client = (): ConsoleHttpsClient => {
    const made = new ConsoleHttpsClient({ port: started.port, certificatePem, publicUrl: started.publicUrl });
    clients.push(made);
    return made;
  };
  let seedAdmin: Promise<SeededOperator> | undefined;
  let extraCount = 0;
  const keptSessions = new ReusedSessions<SeededOperator>();

  const setupCli = async (args: string[]): Promise<{ exitCode: number | null; json: Record<string, unknown> | undefined; output: string }> => {
    const result = await runOperatorCli(args, local.backofficeSetupEnvironment({ publicUrl: started.publicUrl }), { cwd: repoRoot, timeoutMs: operatorTimeoutMs });
    const json = typeof result.json === 'object' && result.json !== null && !Array.isArray(result.json) ? (result.json as Record<string, unknown>) : undefined;
    return { exitCode: result.exitCode, json, output: `${result.stdout}${result.stderr}` };
  };

  const bootstrapAdmin = async (email: string, name: string): Promise<BootstrappedAdmin> => {
    const result = await setupCli(['bootstrap-admin', '--email', email, '--name', name]);
    if (result.exitCode !== 0 || result.json === undefined) throw new Error(`bootstrap-admin failed (${String(result.exitCode)}): ${result.output}`);
    return result.json as unknown as BootstrappedAdmin;
  };

  const completeSetup: BackofficeProcess['completeSetup'] = async (setupLink, person) => {
    const token = new URL(setupLink).hash.replace(/^#token=/, '');
    const browser = client();
    const begun = await browser.post('/api/v1/setup/begin', { token });
    if (begun.status !== 200) throw new Error(`set-up begin answered ${begun.status}: ${begun.text}`);
    const data = begun.body.data as { secretBase32: string; enrolment: string };
    const password = `${person.displayName} keeps a long passphrase ${randomBytes(6).toString('hex')}`;
    // The current step: still accepted (one step of drift) if slow hashing under load carries the
    // server into the next step; a sign-in right after uses the next step's code, accepted at once.
    const enrolledStep = currentTotpStep();
    const completed = await browser.post('/api/v1/setup/complete', { token, password, enrolment: data.enrolment, code: totpCodeOfStep(data.secretBase32, enrolledStep) });
    if (completed.status !== 201) throw new Error(`set-up complete answered ${completed.status}: ${completed.text}`);
    const nextTotpCode = totpCodes(data.secretBase32, enrolledStep);
    const operator: SeededOperator = {
      ...person,
      password,
      totpSecretBase32: data.secretBase32,
      nextTotpCode,
      signIn: async () => {
        const session = client();
        const passwordStep = await session.post('/api/v1/session', { email: person.email, password });
        if (passwordStep.status !== 202) throw new Error(`sign-in of ${person.email} answered ${passwordStep.status}: ${passwordStep.text}`);
        const mfa = await session.post('/api/v1/session/mfa', { code: await nextTotpCode() });
        if (mfa.status !== 200) throw new Error(`sign-in code of ${person.email} answered ${mfa.status}: ${mfa.text}`);
        return session;
      },
    };
    return operator;
  };

  const seedOperator: BackofficeProcess['seedOperator'] = async ({ name, roles, email, invitedBy }) => {
    let inviter = invitedBy;
    if (inviter === undefined) {
      seedAdmin ??= bootstrapAdmin('seed.admin@operator.example', 'Seed Admin').then((admin) =>
        completeSetup(admin.setupLink, { operatorId: admin.operatorId, email: admin.email, displayName: 'Seed Admin', roles: ['admin'] }),
      );
      try {
        inviter = await seedAdmin;
      } catch (error) {
        seedAdmin = undefined;
        throw error;
      }
    }
    const address = email ?? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${randomBytes(4).toString('hex')}@operator.example`;
    const invited = await keptSessions.post(inviter, '/api/v1/operators', { email: address, displayName: name, roles });
    if (invited.status !== 201) throw new Error(`invitation of ${address} answered ${invited.status}: ${invited.text}`);
    const data = invited.body.data as { operator: { operatorId: string; email: string }; setupLink: string };
    return completeSetup(data.setupLink, { operatorId: data.operator.operatorId, email: data.operator.email, displayName: name, roles });
  };

  return {
    baseUrl: started.publicUrl,
    port: started.port,
    probeUrl: started.probeUrl,
    certificatePem,
    chromiumArgs: [`--ignore-certificate-errors-spki-list=${spkiSha256Of(certificatePem)}`],
    client,
    bootstrapAdmin,
    completeSetup,
    seedOperator,
    sessionOf: (operator) => keptSessions.session(operator),
    setupCli,
    startExtra: async (envOverrides) => {
      extraCount += 1;
      const extra = await local.startBackoffice({ ports: 'free', overrides: envOverrides, processName: `backoffice-${extraCount + 1}` });
      return { port: extra.port, baseUrl: extra.publicUrl, probeUrl: extra.probeUrl, stop: () => local.group.stop(extra.record) };
    },
    stop: () => local.group.stop(started.record),
  };
}

function reportUnexpectedEnd(record: ChildRecord, logLines: readonly string[]): void {
  const tail = logLines.filter((line) => line.startsWith(`[${record.name}] `)).slice(-15);
  process.stderr.write(`test stack: ${record.name} ${describeEnding(record)} unexpectedly; its last lines:\n${tail.map((line) => `  ${line}`).join('\n')}\n`);
}
