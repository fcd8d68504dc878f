import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '@pwa/logging';
import type { HostedService } from '@pwa/runtime';
import { seal } from '@pwa/sealing';
import { hashPassword, totpCodeAt } from '@pwa/web-auth';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { readBackofficeConfig } from '../../src/config';
import type { OperatorRole } from '../../src/domain/operator-roles';
import { startBackofficeService } from '../../src/service';
import { backofficeSchema } from '../../src/service-paths';
import { activateInvitedOperator, insertOperator } from '../../src/store/operator-store';
import { totpSecretBinding } from '../../src/use-cases/people-dependencies';
import { consoleOrigin } from './console-stand';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { redis: string } };

/**
 * The back-office booted in-process on its real routes (real Postgres and Redis) for the passkey
 * and OpenID Connect tests, with settings of their own (the identity provider's) and no upstream
 * services: sign-in needs none. Calls are made as the console's page or the browser makes them;
 * every answer gives its cookies and Location so a test can follow redirects itself.
 */
export { consoleOrigin };

export interface PeopleCall {
  status: number;
  body: { success: boolean; code?: string; message?: string; data?: Record<string, unknown> };
  /** Every Set-Cookie's name=value (a deletion gives `name=`). */
  cookies: string[];
  /** The session cookie's name=value, if the answer set a live one. */
  session: string | undefined;
  location: string | null;
  retryAfter: string | null;
}

export interface PeopleCallOptions {
  body?: unknown;
  cookie?: string;
  csrf?: string;
  /** The Origin header; the console's own unless given, none when null. */
  origin?: string | null;
}

export interface StandOperator {
  operatorId: string;
  email: string;
  displayName: string;
  password: string;
  totpSecret: Buffer;
}

export interface SignedIn {
  cookie: string;
  csrf: string;
}

export interface PeopleStand {
  database: TestDatabase;
  service: HostedService;
  redisKeyPrefix: string;
  call(method: string, path: string, options?: PeopleCallOptions): Promise<PeopleCall>;
  /** An active operator (password and TOTP set), not signed in. */
  newOperator(name: string, roles?: OperatorRole[]): Promise<StandOperator>;
  /** The password step: the half-signed-in session's cookie and CSRF token. */
  passwordStep(operator: StandOperator): Promise<SignedIn>;
  /** Password then TOTP (the factor's last step forgotten first, so a person can sign in many times a minute). */
  signInWithTotp(operator: StandOperator): Promise<SignedIn>;
  stop(): Promise<void>;
}

const sessionCookiePrefix = '__Host-backoffice-session=';

export async function startPeopleStand(label: string, options: { env?: Record<string, string>; logger?: Logger } = {}): Promise<PeopleStand> {
  const database = await openTestDatabase({ label, schema: backofficeSchema });
  const redisKeyPrefix = `pwa-test:${label}:${randomBytes(6).toString('hex')}:`;
  const sealingKey = randomBytes(32);
  const closed = 'http://127.0.0.1:9';
  const service = await startBackofficeService(
    readBackofficeConfig({
      DATABASE_URL: database.databaseUrl,
      REDIS_URL: serverUrls().redis,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      BACKOFFICE_PUBLIC_URL: consoleOrigin,
      BACKOFFICE_SEALING_KEY: sealingKey.toString('base64'),
      PORT: '0',
      // STAND_LOG_LEVEL=error shows a failing test's server errors on the console.
      LOG_LEVEL: options.logger === undefined ? (process.env.STAND_LOG_LEVEL ?? 'silent') : 'info',
      SHUTDOWN_DRAIN_DELAY_MS: '0',
      WALLET_URL: closed,
      AUTH_URL: closed,
      QUOTES_URL: closed,
      BACKOFFICE_SWEEP_INTERVAL_MS: '60000',
      ...options.env,
    }),
    options.logger === undefined ? {} : { logger: options.logger },
  );
  const baseUrl = `http://127.0.0.1:${service.port}`;

  const call = async (method: string, path: string, callOptions: PeopleCallOptions = {}): Promise<PeopleCall> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (callOptions.origin !== null) headers.origin = callOptions.origin ?? consoleOrigin;
    if (callOptions.cookie) headers.cookie = callOptions.cookie;
    if (callOptions.csrf) headers['x-csrf-token'] = callOptions.csrf;
    const body = callOptions.body === undefined || method === 'GET' ? {} : { body: JSON.stringify(callOptions.body) };
    const response = await fetch(`${baseUrl}${path}`, { method, headers, redirect: 'manual', ...body });
    const text = await response.text();
    const json = text !== '' && (response.headers.get('content-type') ?? '').includes('application/json');
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
    const session = cookies.find((cookie) => cookie.startsWith(sessionCookiePrefix) && cookie.length > sessionCookiePrefix.length);
    return { status: response.status, body: json ? (JSON.parse(text) as PeopleCall['body']) : { success: response.ok }, cookies, session, location: response.headers.get('location'), retryAfter: response.headers.get('retry-after') };
  };

  const passwordStep = async (operator: StandOperator): Promise<SignedIn> => {
    const step = await call('POST', '/api/v1/session', { body: { email: operator.email, password: operator.password } });
    if (step.status !== 202 || step.session === undefined) throw new Error(`password step answered ${step.status} ${JSON.stringify(step.body)}`);
    return { cookie: step.session, csrf: String(step.body.data?.csrfToken) };
  };

  return {
    database,
    service,
    redisKeyPrefix,
    call,
    newOperator: async (name, roles = ['viewer']) => {
      const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${randomUUID().slice(0, 8)}@operator.example`;
      const password = `${name} keeps a long enough passphrase`;
      const totpSecret = randomBytes(20);
      const operator = await insertOperator(database.pool, { operatorId: randomUUID(), email, displayName: name, roles, createdBy: null });
      const sealedTotpSecret = seal(totpSecret, sealingKey, totpSecretBinding(operator.operatorId)).toString('base64');
      await activateInvitedOperator(database.pool, { operatorId: operator.operatorId, passwordHash: await hashPassword(password), sealedTotpSecret });
      return { operatorId: operator.operatorId, email, displayName: name, password, totpSecret };
    },
    passwordStep,
    signInWithTotp: async (operator) => {
      const pending = await passwordStep(operator);
      // Each code works once per time step (tested elsewhere); these tests sign the same person in many times a minute.
      await database.pool.query(`UPDATE operator_totp_factors SET last_accepted_step = NULL WHERE operator_id = $1`, [operator.operatorId]);
      const code = totpCodeAt(operator.totpSecret, Date.now());
      const mfa = await call('POST', '/api/v1/session/mfa', { cookie: pending.cookie, csrf: pending.csrf, body: { code } });
      if (mfa.status !== 200 || mfa.session === undefined) throw new Error(`TOTP step answered ${mfa.status} ${JSON.stringify(mfa.body)}`);
      return { cookie: mfa.session, csrf: String(mfa.body.data?.csrfToken) };
    },
    stop: async () => {
      await service.stop();
      const redis = new Redis(serverUrls().redis);
      const keys = await redis.keys(`${redisKeyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    },
  };
}
