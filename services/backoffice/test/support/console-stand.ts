import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Secret } from 'otpauth';
import type { Logger } from '@pwa/logging';
import type { HostedService } from '@pwa/runtime';
import { seal } from '@pwa/sealing';
import { hashPassword, totpCodeAt } from '@pwa/web-auth';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { startAuthHarness, type AuthHarness } from '../../../auth/test/integration/auth-harness';
import { onboardPartner } from '../../../auth/src/use-cases/manage-partners';
import { readBackofficeConfig } from '../../src/config';
import type { OperatorRole } from '../../src/domain/operator-roles';
import { startBackofficeService } from '../../src/service';
import { createAdminClients, type AdminClients } from '../../src/wiring/admin-clients';
import { backofficeSchema } from '../../src/service-paths';
import { activateInvitedOperator, insertOperator } from '../../src/store/operator-store';
import { totpSecretBinding } from '../../src/use-cases/people-dependencies';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/**
 * The back-office booted in-process on its real routes against the real Postgres and Redis, for
 * tests that drive its console API as the page would: same-origin calls, the session in a
 * `__Host-` cookie, the CSRF token on every state change.
 */
export const consoleOrigin = 'https://backoffice.internal.example';

export interface ConsoleCall {
  status: number;
  body: { success: boolean; code?: string; message?: string; data?: Record<string, unknown> };
  headers: Headers;
  /** The answer as text (a CSV export, say). */
  text: string;
  /** The first Set-Cookie's name=value, if the answer set one. */
  cookie: string | undefined;
}

export interface CallOptions {
  body?: unknown;
  cookie?: string;
  csrf?: string;
  /** The Origin header; the console's own unless given, none when null. */
  origin?: string | null;
  /** More request headers (an Idempotency-Key, say). */
  headers?: Record<string, string>;
}

export interface SignedInOperator {
  operatorId: string;
  email: string;
  cookie: string;
  csrf: string;
}

export interface ConsoleStand {
  database: TestDatabase;
  service: HostedService;
  call(method: string, path: string, options?: CallOptions): Promise<ConsoleCall>;
  /** An active operator with these roles (password and TOTP set), signed in through the API. */
  signedInOperator(name: string, roles: OperatorRole[]): Promise<SignedInOperator>;
  /** The auth service the back-office checks partners with and changes them through: a given one or the stand's own. */
  auth: AuthHarness;
  /** A new partner, onboarded in that auth (active, both permissions), by its partner id. */
  newPartnerId(name?: string): Promise<string>;
  stop(): Promise<void>;
}

/** A partner onboarded in a running auth as the CLI's onboard does it; its partner id. */
export async function onboardTestPartner(auth: AuthHarness, name = 'Test Partner'): Promise<string> {
  const partner = await onboardPartner(auth.service.pool, auth.config.ENVIRONMENT, auth.webhookSecretSealingKey, {
    name,
    permissions: ['collection', 'disbursement'],
    status: 'active',
    rateLimitPerMinute: null,
    webhookUrl: null,
  });
  return partner.partnerId;
}

/**
 * The owners the back-office executes approvals with: a given wallet and quotes, or a closed port
 * (nothing executes; requests stay approved); a given auth, or the stand's own real auth (partners
 * are checked with it when a request is made).
 */
export async function startConsoleStand(
  label: string,
  options: { walletUrl?: string; quotesUrl?: string; webhooksUrl?: string; auth?: AuthHarness; authLogger?: Logger; sweepIntervalMs?: number; logger?: Logger } = {},
): Promise<ConsoleStand> {
  const ownsAuth = options.auth === undefined;
  const auth = options.auth ?? (await startAuthHarness({}, options.authLogger === undefined ? {} : { logger: options.authLogger }));
  const database = await openTestDatabase({ label, schema: backofficeSchema });
  const redisKeyPrefix = `pwa-test:${label}:${randomBytes(6).toString('hex')}:`;
  const sealingKey = randomBytes(32);
  const config = readBackofficeConfig({
    DATABASE_URL: database.databaseUrl,
    REDIS_URL: serverUrls().redis,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    BACKOFFICE_PUBLIC_URL: consoleOrigin,
    BACKOFFICE_SEALING_KEY: sealingKey.toString('base64'),
    PORT: '0',
    LOG_LEVEL: 'silent',
    SHUTDOWN_DRAIN_DELAY_MS: '0',
    WALLET_URL: options.walletUrl ?? 'http://127.0.0.1:9',
    WALLET_TIMEOUT_MS: '2000',
    AUTH_URL: auth.baseUrl,
    AUTH_TIMEOUT_MS: '2000',
    QUOTES_URL: options.quotesUrl ?? 'http://127.0.0.1:9',
    QUOTES_TIMEOUT_MS: '2000',
    WEBHOOKS_URL: options.webhooksUrl ?? 'http://127.0.0.1:9',
    WEBHOOKS_TIMEOUT_MS: '2000',
    BACKOFFICE_SWEEP_INTERVAL_MS: String(options.sweepIntervalMs ?? 60_000),
  });
  const service = await startBackofficeService(config, options.logger === undefined ? {} : { logger: options.logger });
  const baseUrl = `http://127.0.0.1:${service.port}`;

  const call = async (method: string, path: string, options: CallOptions = {}): Promise<ConsoleCall> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.origin !== null) headers.origin = options.origin ?? consoleOrigin;
    if (options.cookie) headers.cookie = options.cookie;
    if (options.csrf) headers['x-csrf-token'] = options.csrf;
    const body = options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) };
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...body });
    const text = await response.text();
    const json = text !== '' && (response.headers.get('content-type') ?? '').includes('application/json');
    const parsed = json ? (JSON.parse(text) as ConsoleCall['body']) : { success: response.ok };
    return { status: response.status, body: parsed, text, headers: response.headers, cookie: response.headers.getSetCookie()[0]?.split(';')[0] };
  };

  const signedInOperator = async (name: string, roles: OperatorRole[]): Promise<SignedInOperator> => {
    const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${randomUUID().slice(0, 8)}@operator.example`;
    const password = `${name} has a long enough passphrase`;
    const totpSecret = randomBytes(20);
    const operator = await insertOperator(database.pool, { operatorId: randomUUID(), email, displayName: name, roles, createdBy: null });
    const sealedTotpSecret = seal(totpSecret, sealingKey, totpSecretBinding(operator.operatorId)).toString('base64');
    await activateInvitedOperator(database.pool, { operatorId: operator.operatorId, passwordHash: await hashPassword(password), sealedTotpSecret });
    const passwordStep = await call('POST', '/api/v1/session', { body: { email, password } });
    const pendingCsrf = String(passwordStep.body.data?.csrfToken);
    const mfa = await call('POST', '/api/v1/session/mfa', { cookie: passwordStep.cookie ?? '', csrf: pendingCsrf, body: { code: totpCodeAt(totpSecret, Date.now()) } });
    if (mfa.status !== 200 || mfa.cookie === undefined) throw new Error(`sign-in of ${name} answered ${mfa.status} ${JSON.stringify(mfa.body)}`);
    return { operatorId: operator.operatorId, email, cookie: mfa.cookie, csrf: String(mfa.body.data?.csrfToken) };
  };

  return {
    database,
    service,
    call,
    signedInOperator,
    auth,
    newPartnerId: (name) => onboardTestPartner(auth, name),
    stop: async () => {
      await service.stop();
      if (ownsAuth) await auth.stop();
      const redis = new Redis(serverUrls().redis);
      const keys = await redis.keys(`${redisKeyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    },
  };
}

/**
 * The admin clients the running back-office makes (one executor per action), for a second executor
 * or a sweep run by the test itself; a closed port for an owner not given.
 */
export function adminClientsFor(owners: { walletUrl?: string; authUrl?: string; quotesUrl?: string }, logger: Logger): AdminClients {
  const closed = 'http://127.0.0.1:9';
  const config = readBackofficeConfig({
    DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
    REDIS_URL: serverUrls().redis,
    BACKOFFICE_PUBLIC_URL: consoleOrigin,
    BACKOFFICE_SEALING_KEY: randomBytes(32).toString('base64'),
    WALLET_URL: owners.walletUrl ?? closed,
    AUTH_URL: owners.authUrl ?? closed,
    QUOTES_URL: owners.quotesUrl ?? closed,
    WEBHOOKS_URL: closed,
    WALLET_TIMEOUT_MS: '2000',
    AUTH_TIMEOUT_MS: '2000',
    QUOTES_TIMEOUT_MS: '2000',
  });
  return createAdminClients(config, logger);
}

/** The current TOTP code of a base32 secret (as an authenticator app shows it), at a time. */
export function totpCodeOf(secretBase32: string, atMs: number): string {
  return totpCodeAt(Secret.fromBase32(secretBase32).bytes, atMs);
}
