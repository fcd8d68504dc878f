#!/usr/bin/env node
// npm start: brings the whole stack up on this machine against local (or configured) PostgreSQL,
// RabbitMQ and Redis, one process per service, plus (in the sandbox) a local webhook receiver; seeds
// a sandbox partner whose webhooks go to that receiver and prints how to call the API. Ctrl-C stops
// every process it started. Settings: README.md, "Configuration".
'use strict';
const { endProcess } = require('./lib/end-process');
const path = require('node:path');
const { readSettings, SettingsError, displayUrl } = require('./lib/settings');
const { checkServers, describeUnreachable, canConnect } = require('./lib/preflight');
const { loadOrCreateAuthKeyEncryptionKey, loadOrCreateWebhookSecretSealingKey, ensureLocalhostCertificate, writePrivateJsonFile } = require('./lib/local-files');
const { ProcessGroup, tailOfFile, describeEnding } = require('./lib/process-group');
const { waitUntilReady } = require('./lib/http');
const stack = require('./lib/stack');
const { provisionLocalDatabaseRoles } = require('./lib/database-roles');
const { cliIsBuilt, cliEntry } = require('./lib/operator-cli');
const {
  ensureSandboxPartner,
  rotateSandboxSecret,
  rotateSandboxWebhookSecret,
  ensureWebhookUrl,
  requestToken,
} = require('./lib/sandbox-partner');
const { seedSandboxUsers } = require('./lib/sandbox-users');

const log = (line = '') => process.stdout.write(`${line}\n`);
const warn = (line) => process.stderr.write(`${line}\n`);

let group;
let failing = false;

/** The local webhook receiver runs in the sandbox only: production accepts https receivers only. */
function webhookReceiverActive(settings) {
  return settings.webhookReceiver.enabled && settings.environment === 'sandbox';
}

function relative(settings, file) {
  const relativePath = path.relative(settings.repoRoot, file);
  return relativePath.startsWith('..') ? file : relativePath;
}

/** Stops everything and exits non-zero, after saying why. Runs once. */
function fail(lines) {
  // A second failure (or a signal during the first) waits for the first to finish the exit.
  if (failing) return new Promise(() => undefined);
  failing = true;
  return failNow(lines);
}

async function failNow(lines) {
  for (const line of lines) warn(line);
  if (group) {
    const stopped = await group.stopAll();
    if (stopped.length > 0) warn(`stopped ${stopped.map((record) => record.name).join(', ')}`);
  }
  endProcess(1);
}

function describeChildDeath(settings, record) {
  const lines = [`\n${record.name} ${describeEnding(record)} unexpectedly; stopping the other processes.`];
  const tail = tailOfFile(record.logFile);
  if (tail.length > 0) {
    lines.push(`Last lines of ${relative(settings, record.logFile)}:`);
    lines.push(...tail.map((line) => `  ${line}`));
  }
  return lines;
}

function installSignalHandlers() {
  let stopRequested = false;
  const onSignal = (signal) => {
    if (stopRequested) {
      warn(`\n${signal} again: killing every process now.`);
      group?.killAll();
      endProcess(130);
    }
    stopRequested = true;
    if (failing) return;
    failing = true;
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

async function preflight(settings) {
  const results = await checkServers(settings);
  const problems = describeUnreachable(results);
  if (problems.length > 0) {
    await fail(['npm start needs PostgreSQL, RabbitMQ and Redis.', ...problems, 'Then run npm start again. README.md, "Running against other servers", explains the variables.']);
  }
  log(`servers: ${results.map((result) => `${result.name} ${result.host}:${result.port}`).join(', ')} (reachable)`);

  const ports = [
    ...settings.services.map((service) => ({ name: service.name, host: service.host, port: service.port, variable: service.portVariable })),
    { name: 'gateway', host: settings.gateway.host, port: settings.gateway.port, variable: 'GATEWAY_PORT' },
    { name: 'gateway admin', host: settings.gateway.adminHost, port: settings.gateway.adminPort, variable: 'GATEWAY_ADMIN_PORT' },
    ...(webhookReceiverActive(settings)
      ? [{ name: 'webhook receiver', host: settings.webhookReceiver.host, port: settings.webhookReceiver.port, variable: 'WEBHOOK_RECEIVER_PORT' }]
      : []),
  ];
  const busy = [];
  for (const entry of ports) {
    const probeHost = entry.host === '0.0.0.0' || entry.host === '::' ? '127.0.0.1' : entry.host;
    if (await canConnect(probeHost, entry.port, 500)) busy.push(entry);
  }
  if (busy.length > 0) {
    await fail([
      ...busy.map((entry) => `Port ${entry.port} (${entry.name}) is already in use; set ${entry.variable} to move it.`),
      'Is another npm start still running? Stop it with Ctrl-C first.',
    ]);
  }
}

async function ensureDatabase(settings) {
  const { ensureDatabase: createIfMissing } = require('@pwa/db');
  try {
    await createIfMissing(settings.databaseUrl);
  } catch (error) {
    await fail([
      `PostgreSQL answered at ${displayUrl(settings.databaseUrl)} but the database could not be opened or created: ${error.message}`,
      'Check the user, password and database name in DATABASE_URL; the user needs the CREATEDB privilege for the first start.',
    ]);
  }
  log(`database: ${new URL(settings.databaseUrl).pathname.slice(1)} at ${displayUrl(settings.databaseUrl)} (migrations run as each service starts)`);
}

async function provisionDatabaseRoles(settings) {
  try {
    const urls = await provisionLocalDatabaseRoles(settings);
    log(
      urls
        ? 'database roles: each service runs as its own runtime role and migrates as its owner role (passwords in .local/secrets.json)'
        : 'database roles: off (PWA_DATABASE_ROLES=off): every service connects as DATABASE_URL',
    );
    return urls;
  } catch (error) {
    return fail([
      `The services' database roles could not be provisioned as ${displayUrl(settings.databaseUrl)}: ${error.message}`,
      'The DATABASE_URL user needs CREATEROLE and ownership of the database (docs/operations.md, "Database roles"),',
      'or run every service as that user with PWA_DATABASE_ROLES=off.',
    ]);
  }
}

async function startInternalServices(settings, keys) {
  log(`starting ${settings.services.map((service) => service.name).join(', ')}`);
  const starting = settings.services.map((service) => {
    const record = group.start(service.name, stack.entryOf(service.name), stack.internalServiceEnvironment(settings, service, keys), {
      cwd: path.join(settings.repoRoot, 'services', service.name),
    });
    return { service, record };
  });
  await Promise.all(
    starting.map(async ({ service, record }) => {
      const tookMs = await waitUntilReady(`${service.url}/readyz`, {
        timeoutMs: settings.readyTimeoutMs,
        gaveUp: () => (group.isRunning(record) ? undefined : `${service.name} ${describeEnding(record)} before it was ready`),
      });
      log(`  ${service.name.padEnd(14)} ready  ${service.url}  (${(tookMs / 1000).toFixed(1)} s)`);
    }),
  );
}

/** The sandbox partner's webhook receiver (scripts/webhook-receiver.js): started first, so it is stopped last. */
async function startWebhookReceiver(settings) {
  const receiver = settings.webhookReceiver;
  const record = group.start(
    'webhook-receiver',
    path.join(__dirname, 'webhook-receiver.js'),
    {
      PATH: process.env.PATH ?? '',
      WEBHOOK_RECEIVER_HOST: receiver.host,
      WEBHOOK_RECEIVER_PORT: String(receiver.port),
      WEBHOOK_RECEIVER_PATH: receiver.path,
      SANDBOX_FILE: settings.files.sandbox,
    },
    { cwd: settings.repoRoot },
  );
  const tookMs = await waitUntilReady(`http://${receiver.host}:${receiver.port}/healthz`, {
    timeoutMs: settings.readyTimeoutMs,
    gaveUp: () => (group.isRunning(record) ? undefined : `webhook-receiver ${describeEnding(record)} before it was ready`),
  });
  log(`  ${'webhook-rcvr'.padEnd(14)} ready  ${receiver.url}  (${(tookMs / 1000).toFixed(1)} s)`);
}

async function startGateway(settings) {
  log('starting gateway');
  const record = group.start('gateway', stack.entryOf('gateway'), stack.gatewayEnvironment(settings), {
    cwd: path.join(settings.repoRoot, 'services', 'gateway'),
  });
  const tookMs = await waitUntilReady(`${settings.gateway.adminUrl}/readyz`, {
    timeoutMs: settings.readyTimeoutMs,
    gaveUp: () => (group.isRunning(record) ? undefined : `gateway ${describeEnding(record)} before it was ready`),
  });
  log(`  ${'gateway'.padEnd(14)} ready  ${settings.baseUrl}  admin ${settings.gateway.adminUrl}  (${(tookMs / 1000).toFixed(1)} s)`);
}

/** Seeds the partner, then proves its credentials work through the gateway, as the curl line will. */
async function seedSandboxPartner(settings, cliEnv, ca) {
  const tokenUrl = `${settings.baseUrl}/partner/auth/token`;
  const receiverUrl = webhookReceiverActive(settings) ? settings.webhookReceiver.url : undefined;
  let { partner, clientSecret, webhookSecret, action } = await ensureSandboxPartner({
    sandboxFile: settings.files.sandbox,
    cliEnv,
    name: settings.sandboxPartnerName,
    webhookUrl: receiverUrl,
  });
  log(`sandbox partner: ${action} ${partner.clientId} (${partner.name}, ${partner.status}, permissions ${(partner.permissions || []).join(',') || 'none'})`);
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
    action = 'secret-rotated';
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
  return { partner, clientSecret, webhookSecret, tokenUrl };
}

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function writeSandboxFile(settings, { partner, clientSecret, webhookSecret, tokenUrl, testUsers = [] }) {
  const adminUrls = {
    gateway: settings.gateway.adminUrl,
    ...Object.fromEntries(settings.services.map((service) => [service.name, service.url])),
  };
  const facts = {
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
    environment: settings.environment,
    databaseUrl: settings.databaseUrl,
    testUsers,
    startedAt: new Date().toISOString(),
  };
  writePrivateJsonFile(settings.files.sandbox, facts);
  return facts;
}

function printSummary(settings, facts) {
  const body = JSON.stringify({ client_id: facts.clientId, client_secret: facts.clientSecret });
  const curl = `curl -s --cacert ${shellQuote(facts.caCertFile)} ${facts.tokenUrl} -H 'Content-Type: application/json' -d ${shellQuote(body)}`;
  const count = group.children.length;
  log('');
  log(`Partner Wallet API is running (${settings.environment}).`);
  log('');
  log(`  Base URL       ${facts.baseUrl}`);
  log(`  Client ID      ${facts.clientId}`);
  log(`  Client secret  ${facts.clientSecret}`);
  log(`  CA certificate ${facts.caCertFile}`);
  log(`  Webhook secret ${facts.webhookSecret}`);
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
    log('Keep the token in a shell variable, then quote a disbursement:');
    log(`  TOKEN=$(${curl} | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).access_token')`);
    const quote = JSON.stringify({ phone: happyUser.phone.replace('+231', '0'), amount: 100.5, currency: 'LRD' });
    log(`  curl -s --cacert ${shellQuote(facts.caCertFile)} ${facts.baseUrl}/partner/v1/disbursement/quote -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d ${shellQuote(quote)}`);
    log(`Test users: ${facts.testUsers.map((user) => user.phone).join(', ')} (their purposes are in the JSON file)`);
  }
  log('');
  log(`Same facts as JSON: ${settings.files.sandbox}`);
  log(`Health and metrics: ${settings.gateway.adminUrl}/{healthz,readyz,metrics} (gateway); /healthz, /readyz, /metrics on each internal URL in the JSON file`);
  if (settings.logOutput === 'files') log(`Logs: ${relative(settings, settings.files.logs)}/<service>.log (PWA_LOG_OUTPUT=console prints them here instead)`);
  log('Operator CLI: npm run operator -- list-partners');
  log(`Press Ctrl-C to stop all ${count} processes.`);
}

async function main() {
  let settings;
  try {
    settings = readSettings();
  } catch (error) {
    if (error instanceof SettingsError) {
      warn(`Configuration error: ${error.message}`);
      endProcess(2);
    }
    throw error;
  }
  const serviceNames = [...settings.services.map((service) => service.name), 'gateway'];
  const missing = stack.missingEntries(serviceNames);
  if (missing.length > 0 || !cliIsBuilt()) {
    await fail([...[...missing, ...(cliIsBuilt() ? [] : [cliEntry])].map((entry) => `missing ${relative(settings, entry)}`), 'Build first: npm run build (npm start does this for you).']);
  }
  installSignalHandlers();
  await preflight(settings);
  await ensureDatabase(settings);

  const secret = loadOrCreateAuthKeyEncryptionKey(settings.files.secrets);
  log(`AUTH_KEY_ENCRYPTION_KEY: from ${secret.source.startsWith('/') ? relative(settings, secret.source) : secret.source}`);
  const sealingKey = loadOrCreateWebhookSecretSealingKey(settings.files.secrets);
  log(`WEBHOOK_SECRET_SEALING_KEY: from ${sealingKey.source.startsWith('/') ? relative(settings, sealingKey.source) : sealingKey.source}`);
  const serviceDatabaseUrls = await provisionDatabaseRoles(settings);
  const keys = { authKeyEncryptionKey: secret.value, webhookSecretSealingKey: sealingKey.value, serviceDatabaseUrls };
  if (settings.tls.generated) {
    const certificate = await ensureLocalhostCertificate(settings.tls.certFile, settings.tls.keyFile);
    log(`TLS: ${relative(settings, settings.tls.certFile)} (${certificate.created ? 'generated, self-signed for localhost' : 'reused'})`);
  } else {
    log(`TLS: ${settings.tls.certFile} (from TLS_CERT_FILE)`);
  }
  const ca = require('node:fs').readFileSync(settings.caCertFile);

  group = new ProcessGroup({
    logOutput: settings.logOutput,
    logDirectory: settings.files.logs,
    onUnexpectedEnd: (record) => void fail(describeChildDeath(settings, record)),
  });
  if (settings.logOutput === 'files') log(`logs: ${relative(settings, settings.files.logs)}/<service>.log`);

  if (webhookReceiverActive(settings)) await startWebhookReceiver(settings);
  await startInternalServices(settings, keys);
  const cliEnv = stack.operatorCliEnvironment(settings, keys);
  await startGateway(settings);
  const seeded = await seedSandboxPartner(settings, cliEnv, ca);
  if (settings.environment === 'sandbox') {
    seeded.testUsers = (await seedSandboxUsers({ partnerId: seeded.partner.partnerId, cliEnv })).users;
    log(`sandbox data: ${seeded.testUsers.length} test users; the partner is funded (see testUsers in the JSON file)`);
  }
  const facts = writeSandboxFile(settings, seeded);
  printSummary(settings, facts);
}

main().catch((error) => {
  const settings = (() => {
    try {
      return readSettings();
    } catch {
      return undefined;
    }
  })();
  const hint = settings && settings.logOutput === 'files' ? [`Logs: ${relative(settings, settings.files.logs)}/<service>.log`] : [];
  void fail([`npm start failed: ${error.message}`, ...hint]);
});
