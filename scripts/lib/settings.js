// Settings of the local stack (npm start, npm run operator, npm run bench): read once from the
// environment, with the defaults a newcomer needs. Every value can be overridden by a variable;
// README.md lists them.
'use strict';
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');

/** The internal services in start order, with the variable that moves each one's port. */
const internalServices = [
  { name: 'auth', portVariable: 'AUTH_PORT', defaultPort: 4101, urlVariable: 'AUTH_URL' },
  { name: 'wallet', portVariable: 'WALLET_PORT', defaultPort: 4102, urlVariable: 'WALLET_URL' },
  { name: 'quotes', portVariable: 'QUOTES_PORT', defaultPort: 4103, urlVariable: 'QUOTES_URL' },
  { name: 'collections', portVariable: 'COLLECTIONS_PORT', defaultPort: 4104, urlVariable: 'COLLECTIONS_URL' },
  { name: 'disbursements', portVariable: 'DISBURSEMENTS_PORT', defaultPort: 4105, urlVariable: 'DISBURSEMENTS_URL' },
  { name: 'webhooks', portVariable: 'WEBHOOKS_PORT', defaultPort: 4106, urlVariable: 'WEBHOOKS_URL' },
];

/**
 * Variables that mean something different for each child process. They are never inherited from
 * the shell that runs npm start (a stray PORT=3000 would otherwise move every service), only set
 * per child.
 */
const perProcessVariables = ['HOST', 'PORT', 'ADMIN_PORT', ...internalServices.map((service) => service.urlVariable)];

class SettingsError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SettingsError';
  }
}

function readPort(env, variable, fallback) {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SettingsError(`${variable} must be a port number between 1 and 65535 (got ${JSON.stringify(raw)})`);
  }
  return port;
}

function readUrl(env, variable, fallback) {
  const raw = env[variable] || fallback;
  try {
    new URL(raw);
    return raw;
  } catch {
    throw new SettingsError(`${variable} is not a valid URL`);
  }
}

function readPositiveNumber(env, variable, fallback) {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new SettingsError(`${variable} must be a positive number (got ${JSON.stringify(raw)})`);
  return value;
}

function readChoice(env, variable, choices, fallback) {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  if (!choices.includes(raw)) throw new SettingsError(`${variable} must be one of ${choices.join(', ')} (got ${JSON.stringify(raw)})`);
  return raw;
}

/** Reads the stack's settings from an environment (process.env by default). Throws SettingsError. */
function readSettings(env = process.env) {
  const localDir = path.resolve(repoRoot, env.PWA_LOCAL_DIR || '.local');
  const internalHost = env.INTERNAL_HOST || '127.0.0.1';
  const services = internalServices.map((service) => {
    const port = readPort(env, service.portVariable, service.defaultPort);
    return { ...service, host: internalHost, port, url: `http://${urlHost(internalHost)}:${port}` };
  });
  const gatewayHost = env.GATEWAY_HOST || '127.0.0.1';
  const gatewayPort = readPort(env, 'GATEWAY_PORT', 8443);
  const gatewayAdminPort = readPort(env, 'GATEWAY_ADMIN_PORT', 9400);
  // The admin port (health, readiness, metrics) stays on loopback unless ADMIN_HOST says otherwise.
  const adminHost = env.ADMIN_HOST || '127.0.0.1';
  const publicHost = env.PUBLIC_HOST || 'localhost';
  const providedCert = env.TLS_CERT_FILE && env.TLS_KEY_FILE;
  if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
    throw new SettingsError('TLS_CERT_FILE and TLS_KEY_FILE must be set together (or neither, to use a generated pair)');
  }
  return Object.freeze({
    repoRoot,
    localDir,
    environment: readChoice(env, 'ENVIRONMENT', ['sandbox', 'production'], 'sandbox'),
    logLevel: env.LOG_LEVEL || 'info',
    logOutput: readChoice(env, 'PWA_LOG_OUTPUT', ['files', 'console'], 'files'),
    readyTimeoutMs: readPositiveNumber(env, 'PWA_READY_TIMEOUT_SECONDS', 90) * 1000,
    databaseUrl: readUrl(env, 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/partner_wallet'),
    amqpUrl: readUrl(env, 'AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672'),
    redisUrl: readUrl(env, 'REDIS_URL', 'redis://127.0.0.1:6379'),
    services,
    gateway: {
      name: 'gateway',
      host: gatewayHost,
      port: gatewayPort,
      adminPort: gatewayAdminPort,
      adminHost,
      adminUrl: `http://${urlHost(adminHost === '0.0.0.0' || adminHost === '::' ? '127.0.0.1' : adminHost)}:${gatewayAdminPort}`,
    },
    baseUrl: `https://${urlHost(publicHost)}:${gatewayPort}/api/v1`,
    tls: providedCert
      ? { certFile: path.resolve(env.TLS_CERT_FILE), keyFile: path.resolve(env.TLS_KEY_FILE), generated: false }
      : { certFile: path.join(localDir, 'tls', 'cert.pem'), keyFile: path.join(localDir, 'tls', 'key.pem'), generated: true },
    caCertFile: path.resolve(env.TLS_CA_FILE || (providedCert ? env.TLS_CERT_FILE : path.join(localDir, 'tls', 'cert.pem'))),
    sandboxPartnerName: env.SANDBOX_PARTNER_NAME || 'Sandbox Partner',
    // A plain-HTTP receiver on loopback for the sandbox partner's webhooks (sandbox only: production
    // accepts https receivers only). PWA_WEBHOOK_RECEIVER=off leaves the partner's URL alone.
    webhookReceiver: webhookReceiverSettings(env),
    files: {
      secrets: path.join(localDir, 'secrets.json'),
      sandbox: path.join(localDir, 'sandbox.json'),
      logs: path.join(localDir, 'logs'),
    },
  });
}

function webhookReceiverSettings(env) {
  const port = readPort(env, 'WEBHOOK_RECEIVER_PORT', 8088);
  const host = '127.0.0.1';
  const receiverPath = '/webhooks';
  return Object.freeze({
    enabled: readChoice(env, 'PWA_WEBHOOK_RECEIVER', ['on', 'off'], 'on') === 'on',
    host,
    port,
    path: receiverPath,
    url: `http://${host}:${port}${receiverPath}`,
  });
}

/** IPv6 literals need brackets inside a URL. */
function urlHost(host) {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Redacts the password of a server URL before it is printed. */
function displayUrl(raw) {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(invalid URL)';
  }
}

module.exports = { readSettings, SettingsError, internalServices, perProcessVariables, displayUrl, repoRoot };
