// Settings of the local stack (npm start, npm run operator, npm run bench, the e2e harness): read
// once from an environment, with the defaults a newcomer needs. Every value can be overridden by a
// variable; README.md lists them.
import path from 'node:path';
import { preflight } from './preflight-module';
import { repoRoot } from './repo-root';

export { repoRoot };

export const internalServiceNames = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks'] as const;
export type InternalServiceName = (typeof internalServiceNames)[number];
export type ServiceName = InternalServiceName | 'gateway' | 'backoffice' | 'dashboard';
/** The services with a database schema and roles of their own: the internal ones, the back-office and the dashboard. */
export type DatabaseServiceName = InternalServiceName | 'backoffice' | 'dashboard';

export interface InternalServiceDefinition {
  name: InternalServiceName;
  portVariable: string;
  defaultPort: number;
  urlVariable: string;
}

/** The internal services in start order, with the variable that moves each one's port. */
export const internalServices: readonly InternalServiceDefinition[] = [
  { name: 'auth', portVariable: 'AUTH_PORT', defaultPort: 4101, urlVariable: 'AUTH_URL' },
  { name: 'wallet', portVariable: 'WALLET_PORT', defaultPort: 4102, urlVariable: 'WALLET_URL' },
  { name: 'quotes', portVariable: 'QUOTES_PORT', defaultPort: 4103, urlVariable: 'QUOTES_URL' },
  { name: 'collections', portVariable: 'COLLECTIONS_PORT', defaultPort: 4104, urlVariable: 'COLLECTIONS_URL' },
  { name: 'disbursements', portVariable: 'DISBURSEMENTS_PORT', defaultPort: 4105, urlVariable: 'DISBURSEMENTS_URL' },
  { name: 'webhooks', portVariable: 'WEBHOOKS_PORT', defaultPort: 4106, urlVariable: 'WEBHOOKS_URL' },
];

/** The variables that move the stack's ports: the internal services', the gateway's and its admin port's, the back-office's. */
export const portVariables: readonly string[] = [...internalServices.map((service) => service.portVariable), 'GATEWAY_PORT', 'GATEWAY_ADMIN_PORT', 'BACKOFFICE_PORT', 'DASHBOARD_PORT', 'DASHBOARD_INTERNAL_PORT'];

/**
 * Variables that mean something different for each child process. They are never inherited from
 * the shell that runs npm start (a stray PORT=3000 would otherwise move every service), only set
 * per child.
 */
export const perProcessVariables: readonly string[] = ['HOST', 'PORT', 'ADMIN_PORT', ...internalServices.map((service) => service.urlVariable)];

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ServiceSettings extends InternalServiceDefinition {
  host: string;
  port: number;
  url: string;
}

export interface GatewaySettings {
  name: 'gateway';
  host: string;
  port: number;
  adminPort: number;
  adminHost: string;
  adminUrl: string;
}

/**
 * The operator's back-office: HTTPS on its own port (TLS_MODE terminate, the stack's certificate),
 * bound to loopback unless BACKOFFICE_HOST says otherwise: it is for the operator's staff, never
 * behind the partner gateway. publicUrl is the address people open (BACKOFFICE_PUBLIC_URL): its
 * cookies, same-origin checks and set-up links use it.
 */
export interface BackofficeSettings {
  name: 'backoffice';
  host: string;
  port: number;
  /** https://localhost:<port> unless BACKOFFICE_PUBLIC_URL says otherwise. */
  publicUrl: string;
  /** Plain HTTP on the same port answers only /healthz, /readyz and /metrics: http://127.0.0.1:<port>. */
  probeUrl: string;
}

/** The partner dashboard: HTTPS on its own port, like the back-office but for partners' teams (public beside the gateway in a deployment). */
export interface DashboardSettings {
  name: 'dashboard';
  host: string;
  port: number;
  /** https://localhost:<port> unless DASHBOARD_PUBLIC_URL says otherwise. */
  publicUrl: string;
  /** The probes and /metrics: its internal listener (the public port serves people only). */
  probeUrl: string;
  /** Its internal listener (plain HTTP on loopback, DASHBOARD_INTERNAL_PORT): the back-office invites a partner's first admin there; the probes and /metrics. */
  internalPort: number;
  internalUrl: string;
}

export interface TlsSettings {
  certFile: string;
  keyFile: string;
  generated: boolean;
}

export interface WebhookReceiverSettings {
  enabled: boolean;
  host: string;
  port: number;
  path: string;
  url: string;
}

export interface Settings {
  repoRoot: string;
  localDir: string;
  environment: 'sandbox' | 'production';
  logLevel: string;
  logOutput: 'files' | 'console';
  readyTimeoutMs: number;
  databaseUrl: string;
  amqpUrl: string;
  redisUrl: string;
  services: readonly ServiceSettings[];
  gateway: GatewaySettings;
  backoffice: BackofficeSettings;
  dashboard: DashboardSettings;
  baseUrl: string;
  tls: TlsSettings;
  caCertFile: string;
  sandboxPartnerName: string;
  webhookReceiver: WebhookReceiverSettings;
  files: { secrets: string; sandbox: string; logs: string };
}

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

function readPort(env: Environment, variable: string, fallback: number): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SettingsError(`${variable} must be a port number between 1 and 65535 (got ${JSON.stringify(raw)})`);
  }
  return port;
}

function readUrl(env: Environment, variable: string, fallback: string): string {
  const raw = env[variable] || fallback;
  if (!URL.canParse(raw)) throw new SettingsError(`${variable} is not a valid URL`);
  return raw;
}

function readPositiveNumber(env: Environment, variable: string, fallback: number): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new SettingsError(`${variable} must be a positive number (got ${JSON.stringify(raw)})`);
  return value;
}

function readChoice<Choice extends string>(env: Environment, variable: string, choices: readonly Choice[], fallback: Choice): Choice {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined) throw new SettingsError(`${variable} must be one of ${choices.join(', ')} (got ${JSON.stringify(raw)})`);
  return choice;
}

/** Reads the stack's settings from an environment (process.env by default). Throws SettingsError. */
export function readSettings(env: Environment = process.env): Settings {
  const localDir = path.resolve(repoRoot, env.PWA_LOCAL_DIR || '.local');
  const internalHost = env.INTERNAL_HOST || '127.0.0.1';
  const services = internalServices.map((service) => {
    const port = readPort(env, service.portVariable, service.defaultPort);
    return { ...service, host: internalHost, port, url: `http://${urlHost(internalHost)}:${port}` };
  });
  const gatewayPort = readPort(env, 'GATEWAY_PORT', 8443);
  const gatewayAdminPort = readPort(env, 'GATEWAY_ADMIN_PORT', 9400);
  // The admin port (health, readiness, metrics) stays on loopback unless ADMIN_HOST says otherwise.
  const adminHost = env.ADMIN_HOST || '127.0.0.1';
  const publicHost = env.PUBLIC_HOST || 'localhost';
  const certFile = env.TLS_CERT_FILE;
  const keyFile = env.TLS_KEY_FILE;
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new SettingsError('TLS_CERT_FILE and TLS_KEY_FILE must be set together (or neither, to use a generated pair)');
  }
  const tls: TlsSettings =
    certFile && keyFile
      ? { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile), generated: false }
      : { certFile: path.join(localDir, 'tls', 'cert.pem'), keyFile: path.join(localDir, 'tls', 'key.pem'), generated: true };
  const { defaultServerUrls } = preflight;
  return Object.freeze<Settings>({
    repoRoot,
    localDir,
    environment: readChoice(env, 'ENVIRONMENT', ['sandbox', 'production'], 'sandbox'),
    logLevel: env.LOG_LEVEL || 'info',
    logOutput: readChoice(env, 'PWA_LOG_OUTPUT', ['files', 'console'], 'files'),
    readyTimeoutMs: readPositiveNumber(env, 'PWA_READY_TIMEOUT_SECONDS', 90) * 1000,
    databaseUrl: readUrl(env, 'DATABASE_URL', defaultServerUrls.databaseUrl),
    amqpUrl: readUrl(env, 'AMQP_URL', defaultServerUrls.amqpUrl),
    redisUrl: readUrl(env, 'REDIS_URL', defaultServerUrls.redisUrl),
    services,
    gateway: {
      name: 'gateway',
      host: env.GATEWAY_HOST || '127.0.0.1',
      port: gatewayPort,
      adminPort: gatewayAdminPort,
      adminHost,
      adminUrl: `http://${urlHost(adminHost === '0.0.0.0' || adminHost === '::' ? '127.0.0.1' : adminHost)}:${gatewayAdminPort}`,
    },
    backoffice: backofficeSettings(env),
    dashboard: dashboardSettings(env),
    baseUrl: `https://${urlHost(publicHost)}:${gatewayPort}/api/v1`,
    tls,
    caCertFile: path.resolve(env.TLS_CA_FILE || tls.certFile),
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

function backofficeSettings(env: Environment): BackofficeSettings {
  const port = readPort(env, 'BACKOFFICE_PORT', 4107);
  const host = env.BACKOFFICE_HOST || '127.0.0.1';
  // localhost, not 127.0.0.1: passkeys need a host name as their relying party, and the certificate names both.
  const publicUrl = readUrl(env, 'BACKOFFICE_PUBLIC_URL', `https://localhost:${port}`).replace(/\/+$/, '');
  if (!publicUrl.startsWith('https://')) throw new SettingsError(`BACKOFFICE_PUBLIC_URL must be an https:// address (got ${JSON.stringify(publicUrl)})`);
  const probeHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return Object.freeze({ name: 'backoffice', host, port, publicUrl, probeUrl: `http://${urlHost(probeHost)}:${port}` });
}

function dashboardSettings(env: Environment): DashboardSettings {
  const port = readPort(env, 'DASHBOARD_PORT', 4108);
  const host = env.DASHBOARD_HOST || '127.0.0.1';
  const publicUrl = readUrl(env, 'DASHBOARD_PUBLIC_URL', `https://localhost:${port}`).replace(/\/+$/, '');
  if (!publicUrl.startsWith('https://')) throw new SettingsError(`DASHBOARD_PUBLIC_URL must be an https:// address (got ${JSON.stringify(publicUrl)})`);
  const internalPort = readPort(env, 'DASHBOARD_INTERNAL_PORT', 4118);
  const internalUrl = `http://127.0.0.1:${internalPort}`;
  return Object.freeze({ name: 'dashboard', host, port, publicUrl, probeUrl: internalUrl, internalPort, internalUrl });
}

function webhookReceiverSettings(env: Environment): WebhookReceiverSettings {
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

/** The settings of one internal service. */
export function serviceSettings(settings: Settings, name: InternalServiceName): ServiceSettings {
  const service = settings.services.find((candidate) => candidate.name === name);
  if (service === undefined) throw new Error(`unknown service ${name}`);
  return service;
}

/** IPv6 literals need brackets inside a URL. */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Redacts the password of a server URL before it is printed. */
export const displayUrl = (raw: string): string => preflight.displayUrl(raw);
