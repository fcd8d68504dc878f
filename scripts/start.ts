// npm start: brings the whole stack up on this machine against local (or configured) PostgreSQL,
// RabbitMQ and Redis, one process per service, plus (in the sandbox) a local webhook receiver; seeds
// a sandbox partner whose webhooks go to that receiver and prints how to call the API, and the
// operator's back-office over HTTPS with the command that creates its first admin. Ctrl-C stops
// every process it started. Settings: README.md, "Configuration".
import fs from 'node:fs';
import path from 'node:path';
import { endProcess } from './lib/end-process';
import {
  ensureLocalhostCertificate,
  loadOrCreateAuthKeyEncryptionKey,
  loadOrCreateBackofficeSealingKey,
  loadOrCreateDashboardSealingKey,
  loadOrCreateWebhookSecretSealingKey,
  writePrivateJsonFile,
} from './lib/local-files';
import { cliEntry, cliIsBuilt, runOperatorCli } from './lib/operator-cli';
import { preflight as serverChecks } from './lib/preflight-module';
import { describeEnding, type ChildRecord } from './lib/process-group';
import { ensureSandboxPartner, ensureWebhookUrl, requestToken, rotateSandboxSecret, rotateSandboxWebhookSecret, type PartnerView } from './lib/sandbox-partner';
import { seedSandboxUsers, type TestUser } from './lib/sandbox-users';
import { SettingsError, displayUrl, readSettings, type Settings } from './lib/settings';
import { LocalStack, missingEntries } from './lib/stack';

const log = (line = ''): void => void process.stdout.write(`${line}\n`);
const warn = (line: string): void => void process.stderr.write(`${line}\n`);

let stack: LocalStack | undefined;
let failing = false;

/** The local webhook receiver runs in the sandbox only: production accepts https receivers only. */
function webhookReceiverActive(settings: Settings): boolean {
  return settings.webhookReceiver.enabled && settings.environment === 'sandbox';
}

function relative(settings: Settings, file: string): string {
  const relativePath = path.relative(settings.repoRoot, file);
  return relativePath.startsWith('..') ? file : relativePath;
}

/** Stops everything and exits non-zero, after saying why. Runs once. */
function fail(lines: readonly string[]): Promise<never> {
  // A second failure (or a signal during the first) waits for the first to finish the exit.
  if (failing) return new Promise<never>(() => undefined);
  failing = true;
  return failNow(lines);
}

async function failNow(lines: readonly string[]): Promise<never> {
  for (const line of lines) warn(line);
  if (stack) {
    const stopped = await stack.group.stopAll();
    if (stopped.length > 0) warn(`stopped ${stopped.map((record) => record.name).join(', ')}`);
  }
  return endProcess(1);
}

function describeChildDeath(settings: Settings, local: LocalStack, record: ChildRecord): string[] {
  const lines = [`\n${record.name} ${describeEnding(record)} unexpectedly; stopping the other processes.`];
  const tail = local.group.tail(record);
  if (tail.length > 0 && record.logFile) {
    lines.push(`Last lines of ${relative(settings, record.logFile)}:`);
    lines.push(...tail.map((line) => `  ${line}`));
  }
  return lines;
}

function installSignalHandlers(): void {
  let stopRequested = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopRequested) {
      warn(`\n${signal} again: killing every process now.`);
      stack?.group.killAll();
      endProcess(130);
    }
    stopRequested = true;
    if (failing) return;
    failing = true;
    const group = stack?.group;
    log(`\n${signal} received: stopping ${group ? group.children.filter((child) => group.isRunning(child)).length : 0} processes (Ctrl-C again to kill them)...`);
    const stopping = group ? group.stopAll() : Promise.resolve([]);
    stopping.then(
      (stopped) => {
        const unclean = stopped.filter((record) => record.exitSignal === 'SIGKILL' || (record.exitCode !== 0 && record.exitCode !== null));
        log(`stopped ${stopped.map((record) => record.name).join(', ') || 'nothing'}`);
        endProcess(unclean.length > 0 ? 1 : 0);
      },
      () => endProcess(1),
    );
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

async function checkServersAndPorts(settings: Settings): Promise<void> {
  const results = await serverChecks.checkServers(settings);
  const problems = serverChecks.describeUnreachable(results);
  if (problems.length > 0) {
    await fail(['npm start needs PostgreSQL, RabbitMQ and Redis.', ...problems, 'Then run npm start again. README.md, "Running against other servers", explains the variables.']);
  }
  log(`servers: ${results.map((result) => `${result.name} ${result.host}:${result.port}`).join(', ')} (reachable)`);

  const ports = [
    ...settings.services.map((service) => ({ name: service.name, host: service.host, port: service.port, variable: service.portVariable })),
    { name: 'gateway', host: settings.gateway.host, port: settings.gateway.port, variable: 'GATEWAY_PORT' },
    { name: 'gateway admin', host: settings.gateway.adminHost, port: settings.gateway.adminPort, variable: 'GATEWAY_ADMIN_PORT' },
    { name: 'backoffice', host: settings.backoffice.host, port: settings.backoffice.port, variable: 'BACKOFFICE_PORT' },
    { name: 'dashboard', host: settings.dashboard.host, port: settings.dashboard.port, variable: 'DASHBOARD_PORT' },
    ...(webhookReceiverActive(settings)
      ? [{ name: 'webhook receiver', host: settings.webhookReceiver.host, port: settings.webhookReceiver.port, variable: 'WEBHOOK_RECEIVER_PORT' }]
      : []),
  ];
  const busy = [];
  for (const entry of ports) {
    const probeHost = entry.host === '0.0.0.0' || entry.host === '::' ? '127.0.0.1' : entry.host;
    if (await serverChecks.canConnect(probeHost, entry.port, 500)) busy.push(entry);
  }
  if (busy.length > 0) {
    await fail([
      ...busy.map((entry) => `Port ${entry.port} (${entry.name}) is already in use; set ${entry.variable} to move it.`),
      'Is another npm start still running? Stop it with Ctrl-C first.',
    ]);
  }
}

async function createDatabase(settings: Settings, local: LocalStack): Promise<void> {
  try {
    await local.createDatabase();
  } catch (error) {
    await fail([
      `PostgreSQL answered at ${displayUrl(settings.databaseUrl)} but the database could not be opened or created: ${(error as Error).message}`,
      'Check the user, password and database name in DATABASE_URL; the user needs the CREATEDB privilege for the first start.',
    ]);
  }
  log(`database: ${new URL(settings.databaseUrl).pathname.slice(1)} at ${displayUrl(settings.databaseUrl)} (migrations run as each service starts)`);
}

async function provisionDatabaseRoles(settings: Settings, local: LocalStack): Promise<void> {
  try {
    const urls = await local.provisionDatabaseRoles();
    log(
      urls
        ? 'database roles: each service runs as its own runtime role and migrates as its owner role (passwords in .local/secrets.json)'
        : 'database roles: off (PWA_DATABASE_ROLES=off): every service connects as DATABASE_URL',
    );
  } catch (error) {
    await fail([
      `The services' database roles could not be provisioned as ${displayUrl(settings.databaseUrl)}: ${(error as Error).message}`,
      'The DATABASE_URL user needs CREATEROLE and ownership of the database (docs/operations.md, "Database roles"),',
      'or run every service as that user with PWA_DATABASE_ROLES=off.',
    ]);
  }
}

/** The sandbox partner's webhook receiver (webhook-receiver.ts): started first, so it is stopped last. */
async function startWebhookReceiver(settings: Settings, local: LocalStack): Promise<void> {
  const receiver = settings.webhookReceiver;
  const env = {
    PATH: process.env.PATH ?? '',
    WEBHOOK_RECEIVER_HOST: receiver.host,
    WEBHOOK_RECEIVER_PORT: String(receiver.port),
    WEBHOOK_RECEIVER_PATH: receiver.path,
    SANDBOX_FILE: settings.files.sandbox,
  };
  const { tookMs } = await local.startProcess('webhook-receiver', path.join(__dirname, 'webhook-receiver.js'), env, {
    readyUrl: `http://${receiver.host}:${receiver.port}/healthz`,
    cwd: settings.repoRoot,
  });
  log(`  ${'webhook-rcvr'.padEnd(14)} ready  ${receiver.url}  (${(tookMs / 1000).toFixed(1)} s)`);
}

async function startInternalServices(settings: Settings, local: LocalStack): Promise<void> {
  log(`starting ${settings.services.map((service) => service.name).join(', ')}`);
  await local.startServices(
    settings.services.map((service) => service.name),
    {
      onReady: (name, tookMs) => {
        const service = settings.services.find((candidate) => candidate.name === name);
        log(`  ${name.padEnd(14)} ready  ${service?.url ?? ''}  (${(tookMs / 1000).toFixed(1)} s)`);
      },
    },
  );
}

async function startGatewayAndBackoffice(settings: Settings, local: LocalStack): Promise<void> {
  log('starting gateway, backoffice, dashboard');
  await Promise.all([
    local.startDashboard().then(({ tookMs }) => log(`  ${'dashboard'.padEnd(14)} ready  ${settings.dashboard.publicUrl}  (HTTPS; probes ${settings.dashboard.probeUrl})  (${(tookMs / 1000).toFixed(1)} s)`)),
    local.startGateway().then(({ tookMs }) => log(`  ${'gateway'.padEnd(14)} ready  ${settings.baseUrl}  admin ${settings.gateway.adminUrl}  (${(tookMs / 1000).toFixed(1)} s)`)),
    // The back-office invites a newly onboarded partner's first dashboard admin on the dashboard's internal port.
    local.startBackoffice({ overrides: { DASHBOARD_INTERNAL_URL: settings.dashboard.internalUrl } }).then(({ tookMs }) => log(`  ${'backoffice'.padEnd(14)} ready  ${settings.backoffice.publicUrl}  (HTTPS; probes ${settings.backoffice.probeUrl})  (${(tookMs / 1000).toFixed(1)} s)`)),
  ]);
}

interface Seeded {
  partner: PartnerView;
  clientSecret: string;
  webhookSecret: string | undefined;
  tokenUrl: string;
  testUsers: TestUser[];
}

/** Seeds the partner, then proves its credentials work through the gateway, as the curl line will. */
async function seedSandboxPartner(settings: Settings, cliEnv: NodeJS.ProcessEnv, ca: Buffer): Promise<Seeded> {
  const tokenUrl = `${settings.baseUrl}/partner/auth/token`;
  const receiverUrl = webhookReceiverActive(settings) ? settings.webhookReceiver.url : undefined;
  const ensured = await ensureSandboxPartner({ sandboxFile: settings.files.sandbox, cliEnv, name: settings.sandboxPartnerName, webhookUrl: receiverUrl });
  let { partner, clientSecret, webhookSecret } = ensured;
  const { action } = ensured;
  log(`sandbox partner: ${action} ${partner.clientId} (${partner.name}, ${partner.status}, permissions ${partner.permissions.join(',') || 'none'})`);
  if (webhookSecret === undefined) {
    // Onboarded before webhook secrets existed (or its secret was never recorded): issue one, once.
    webhookSecret = await rotateSandboxWebhookSecret({ clientId: partner.clientId, cliEnv });
    log('sandbox partner: no webhook secret was recorded; issued one with rotate-webhook-secret');
  }
  if (receiverUrl !== undefined) {
    const pointed = await ensureWebhookUrl({ partner, url: receiverUrl, cliEnv });
    partner = pointed.partner;
    log(`sandbox partner: webhook URL ${receiverUrl}${pointed.changed ? ' (set)' : ''}`);
  }
  let check = await requestToken({ tokenUrl, clientId: partner.clientId, clientSecret, ca });
  if (!check.ok && check.code === 'PKC_1002' && action === 'reused') {
    // The recorded secret was rotated outside npm start; issue a new one so the printed line works.
    clientSecret = await rotateSandboxSecret({ clientId: partner.clientId, cliEnv });
    log('sandbox partner: the recorded secret no longer matched; issued a new one');
    check = await requestToken({ tokenUrl, clientId: partner.clientId, clientSecret, ca });
  }
  if (check.ok) {
    log('token check: POST /partner/auth/token through the gateway answered 200');
  } else {
    warn(`WARNING: the token request through the gateway failed: HTTP ${check.status} ${check.code ?? check.text.slice(0, 200)}`);
    if (partner.status !== 'active') warn(`  The sandbox partner is ${partner.status}; activate it with: npm run operator -- set-status ${partner.clientId} active`);
    warn('  The stack keeps running so you can look at the logs.');
  }
  return { partner, clientSecret, webhookSecret, tokenUrl, testUsers: [] };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

interface SandboxFacts {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  partnerId: string;
  webhookSecret: string | undefined;
  webhookUrl: string | null;
  caCertFile: string;
  adminUrls: Record<string, string>;
  /** The operator's back-office (HTTPS, the same CA certificate) and the command that creates its first admin. */
  backofficeUrl: string;
  backofficeBootstrapCommand: string;
  /** The partner dashboard (HTTPS, the same CA certificate) and the sandbox partner's first admin's invitation, when one was made. */
  dashboardUrl: string;
  dashboardInvitation: DashboardInvitation;
  environment: string;
  databaseUrl: string;
  testUsers: TestUser[];
  startedAt: string;
}

/** The one command that creates the back-office's first admin against this stack (npm run operator passes DATABASE_URL and BACKOFFICE_PUBLIC_URL). */
const bootstrapCommand = "npm run operator -- bootstrap-admin --email you@example.com --name 'Your Name'";

/** The sandbox partner's first dashboard admin: a fresh invitation link, or why none was made (an admin signed up already). */
type DashboardInvitation = { email: string; invitationLink: string; expiresAt: string } | { email: string; note: string };

const sandboxAdmin = { email: 'admin@sandbox-partner.example', name: 'Sandbox Admin' };

/** Invites (or re-invites, while unused) the sandbox partner's first admin through the dashboard's set-up CLI. */
async function inviteSandboxAdmin(settings: Settings, local: LocalStack, partnerId: string): Promise<DashboardInvitation> {
  const result = await runOperatorCli(['invite-admin', '--partner-id', partnerId, '--email', sandboxAdmin.email, '--name', sandboxAdmin.name], local.dashboardSetupEnvironment(), { cwd: settings.repoRoot });
  const json = result.json as { invitationLink?: unknown; expiresAt?: unknown; error?: unknown } | undefined;
  if (result.exitCode === 0 && typeof json?.invitationLink === 'string' && typeof json.expiresAt === 'string') return { email: sandboxAdmin.email, invitationLink: json.invitationLink, expiresAt: json.expiresAt };
  return { email: sandboxAdmin.email, note: typeof json?.error === 'string' ? json.error : `the invitation was not made (exit ${String(result.exitCode)})` };
}

function writeSandboxFile(settings: Settings, { partner, clientSecret, webhookSecret, tokenUrl, testUsers }: Seeded, dashboardInvitation: DashboardInvitation): SandboxFacts {
  const adminUrls = {
    gateway: settings.gateway.adminUrl,
    ...Object.fromEntries(settings.services.map((service) => [service.name, service.url])),
    backoffice: settings.backoffice.probeUrl,
    // The dashboard's probes and /metrics are on its internal listener.
    dashboard: settings.dashboard.probeUrl,
  };
  const facts: SandboxFacts = {
    baseUrl: settings.baseUrl,
    tokenUrl,
    clientId: partner.clientId,
    clientSecret,
    partnerId: partner.partnerId,
    // The key of X-Service-Signature on the partner's webhooks (the receiver verifies with it).
    webhookSecret,
    webhookUrl: partner.webhookUrl ?? null,
    caCertFile: settings.caCertFile,
    adminUrls,
    backofficeUrl: settings.backoffice.publicUrl,
    backofficeBootstrapCommand: bootstrapCommand,
    dashboardUrl: settings.dashboard.publicUrl,
    dashboardInvitation,
    environment: settings.environment,
    databaseUrl: settings.databaseUrl,
    testUsers,
    startedAt: new Date().toISOString(),
  };
  writePrivateJsonFile(settings.files.sandbox, facts);
  return facts;
}

function printSummary(settings: Settings, local: LocalStack, facts: SandboxFacts): void {
  const body = JSON.stringify({ client_id: facts.clientId, client_secret: facts.clientSecret });
  const curl = `curl -s --cacert ${shellQuote(facts.caCertFile)} ${facts.tokenUrl} -H 'Content-Type: application/json' -d ${shellQuote(body)}`;
  const count = local.group.children.length;
  log('');
  log(`Partner Wallet API is running (${settings.environment}).`);
  log('');
  log(`  Base URL       ${facts.baseUrl}`);
  log(`  Client ID      ${facts.clientId}`);
  log(`  Client secret  ${facts.clientSecret}`);
  log(`  CA certificate ${facts.caCertFile}`);
  log(`  Webhook secret ${String(facts.webhookSecret)}`);
  log('');
  log(`API reference  ${facts.baseUrl}/docs (in a browser: trust the CA certificate above, or accept the self-signed certificate once)`);
  log(`Contract       ${facts.baseUrl}/openapi.json, Postman collection ${facts.baseUrl}/postman.json; TypeScript SDK in sdk/ (sdk/README.md)`);
  log('');
  if (webhookReceiverActive(settings)) {
    const where = settings.logOutput === 'files' ? relative(settings, path.join(settings.files.logs, 'webhook-receiver.log')) : 'this console (webhook-receiver lines)';
    log(`Webhooks: the sandbox partner's deliveries go to ${settings.webhookReceiver.url}`);
    log(`  each appears in ${where} with its event, referenceId, status and whether X-Service-Signature verified`);
    log('');
  }
  log('Get a token:');
  log(`  ${curl}`);
  log('');
  const happyUser = facts.testUsers.find((user) => user.phone === '+231770000001') ?? facts.testUsers[0];
  if (happyUser) {
    log('');
    log('Keep the token in a shell variable, then quote a disbursement (5,000 LRD: its fee is 100 LRD, 2 %; GET /partner/v1/pricing lists every fee):');
    log(`  TOKEN=$(${curl} | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).access_token')`);
    const quote = JSON.stringify({ phone: happyUser.phone.replace('+231', '0'), amount: 5000, currency: 'LRD' });
    log(`  curl -s --cacert ${shellQuote(facts.caCertFile)} ${facts.baseUrl}/partner/v1/disbursement/quote -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d ${shellQuote(quote)}`);
    log(`Test users: ${facts.testUsers.map((user) => user.phone).join(', ')} (their purposes are in the JSON file)`);
  }
  log('');
  log(`Same facts as JSON: ${settings.files.sandbox}`);
  log(`Health and metrics: ${settings.gateway.adminUrl}/{healthz,readyz,metrics} (gateway); /healthz, /readyz, /metrics on each internal URL in the JSON file`);
  if (settings.logOutput === 'files') log(`Logs: ${relative(settings, settings.files.logs)}/<service>.log (PWA_LOG_OUTPUT=console prints them here instead)`);
  log('Operator CLI: npm run operator -- list-partners');
  log('');
  log(`Back-office (operators' console, HTTPS, same CA certificate)  ${facts.backofficeUrl}`);
  log('  Create the first admin; it prints a one-time set-up link (24 h) to set the password and enrol MFA:');
  log(`    ${facts.backofficeBootstrapCommand}`);
  log('  docs/operations.md, "Back-office", explains roles, approvals and the audit log.');
  log('');
  log(`Partner dashboard (the sandbox partner's team, HTTPS, same CA certificate)  ${facts.dashboardUrl}`);
  const invitation = facts.dashboardInvitation;
  if ('invitationLink' in invitation) {
    log(`  The sandbox partner's first admin (${invitation.email}) is invited; open this one-time link before ${invitation.expiresAt} to set a password and enrol MFA:`);
    log(`    ${invitation.invitationLink}`);
  } else {
    log(`  No new invitation for ${invitation.email}: ${invitation.note}`);
  }
  log('  The partner guide, "Dashboard", explains roles, statements and the team.');
  log('');
  log(`Press Ctrl-C to stop all ${count} processes.`);
}

function readSettingsOrEnd(): Settings {
  try {
    return readSettings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    warn(`Configuration error: ${error.message}`);
    return endProcess(2);
  }
}

async function main(): Promise<void> {
  const settings = readSettingsOrEnd();
  const missing = missingEntries([...settings.services.map((service) => service.name), 'gateway', 'backoffice', 'dashboard']);
  if (missing.length > 0 || !cliIsBuilt()) {
    await fail([...[...missing, ...(cliIsBuilt() ? [] : [cliEntry])].map((entry) => `missing ${relative(settings, entry)}`), 'Build first: npm run build (npm start does this for you).']);
  }
  installSignalHandlers();
  await checkServersAndPorts(settings);

  const secret = loadOrCreateAuthKeyEncryptionKey(settings.files.secrets);
  const sealingKey = loadOrCreateWebhookSecretSealingKey(settings.files.secrets);
  const backofficeKey = loadOrCreateBackofficeSealingKey(settings.files.secrets);
  const dashboardKey = loadOrCreateDashboardSealingKey(settings.files.secrets);
  const local = new LocalStack({
    settings,
    databaseRoles: process.env.PWA_DATABASE_ROLES === 'off' ? 'off' : { passwordsFile: settings.files.secrets },
    keys: { authKeyEncryptionKey: secret.value, webhookSecretSealingKey: sealingKey.value, backofficeSealingKey: backofficeKey.value, dashboardSealingKey: dashboardKey.value },
    baseEnvironment: process.env,
    output: settings.logOutput === 'files' ? { kind: 'files', directory: settings.files.logs } : { kind: 'console' },
    onUnexpectedEnd: (record) => void fail(describeChildDeath(settings, local, record)),
  });
  await createDatabase(settings, local);
  log(`AUTH_KEY_ENCRYPTION_KEY: from ${secret.source.startsWith('/') ? relative(settings, secret.source) : secret.source}`);
  log(`WEBHOOK_SECRET_SEALING_KEY: from ${sealingKey.source.startsWith('/') ? relative(settings, sealingKey.source) : sealingKey.source}`);
  log(`BACKOFFICE_SEALING_KEY: from ${backofficeKey.source.startsWith('/') ? relative(settings, backofficeKey.source) : backofficeKey.source}`);
  log(`DASHBOARD_SEALING_KEY: from ${dashboardKey.source.startsWith('/') ? relative(settings, dashboardKey.source) : dashboardKey.source}`);
  await provisionDatabaseRoles(settings, local);
  if (settings.tls.generated) {
    const certificate = await ensureLocalhostCertificate(settings.tls.certFile, settings.tls.keyFile);
    log(`TLS: ${relative(settings, settings.tls.certFile)} (${certificate.created ? 'generated, self-signed for localhost' : 'reused'})`);
  } else {
    log(`TLS: ${settings.tls.certFile} (from TLS_CERT_FILE)`);
  }
  const ca = fs.readFileSync(settings.caCertFile);

  stack = local;
  if (settings.logOutput === 'files') log(`logs: ${relative(settings, settings.files.logs)}/<service>.log`);

  if (webhookReceiverActive(settings)) await startWebhookReceiver(settings, local);
  await startInternalServices(settings, local);
  const cliEnv = local.operatorEnvironment();
  await startGatewayAndBackoffice(settings, local);
  const seeded = await seedSandboxPartner(settings, cliEnv, ca);
  if (settings.environment === 'sandbox') {
    seeded.testUsers = (await seedSandboxUsers({ partnerId: seeded.partner.partnerId, cliEnv })).users;
    log(`sandbox data: ${seeded.testUsers.length} test users; the partner is funded (see testUsers in the JSON file)`);
  }
  const facts = writeSandboxFile(settings, seeded, await inviteSandboxAdmin(settings, local, seeded.partner.partnerId));
  printSummary(settings, local, facts);
}

main().catch((error: unknown) => {
  let settings: Settings | undefined;
  try {
    settings = readSettings();
  } catch {
    settings = undefined;
  }
  const hint = settings && settings.logOutput === 'files' ? [`Logs: ${relative(settings, settings.files.logs)}/<service>.log`] : [];
  void fail([`npm start failed: ${(error as Error).message}`, ...hint]);
});
