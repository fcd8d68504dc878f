import { connectBus } from '@pwa/bus';
import { createLogger, type Logger } from '@pwa/logging';
import {
  flushAndStopRelay,
  prepareService,
  startServiceOutboxRelay,
  stopInOrder,
  type HostedService,
  type PreparedService,
  type ServiceHostParts,
  type ShutdownSequence,
} from '@pwa/runtime';
import type { AuthConfig } from './config';
import { mountAdminRoutes } from './http/admin-routes';
import { mountInternalRoutes } from './http/internal-routes';
import { mountTokenRoutes, tokenPath } from './http/token-routes';
import { authMigrationDirectories, authSchema } from './service-paths';
import type { TokenSettings } from './use-cases/issue-access-token';
import { SigningKeyring } from './use-cases/signing-keyring';

export interface AuthService extends HostedService {
  keyring: SigningKeyring;
}

/** Starts auth: migrations, the signing keyring, the token and internal routes, and the outbox relay. */
export async function startAuthService(config: Readonly<AuthConfig>, options: { logger?: Logger } = {}): Promise<AuthService> {
  const logger = options.logger ?? createLogger({ service: 'auth', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const bus = await connectBus({ url: config.AMQP_URL, hosts: config.AMQP_HOSTS, exchange: config.BUS_EXCHANGE, serviceName: 'auth', logger });
  const settings: TokenSettings = {
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    ttlSeconds: config.TOKEN_TTL_SECONDS,
    environment: config.ENVIRONMENT,
  };
  const encryptionKeys = {
    current: Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY, 'base64'),
    previous: config.AUTH_KEY_ENCRYPTION_KEY_PREVIOUS === undefined ? undefined : Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY_PREVIOUS, 'base64'),
  };
  let prepared: PreparedService | undefined;
  let keyring: SigningKeyring;
  let hosted: HostedService & ServiceHostParts;
  try {
    prepared = await prepareService({ name: 'auth', schema: authSchema, migrationDirectories: authMigrationDirectories, env: config, port: config.PORT, logger });
    const { pool } = prepared;
    keyring = new SigningKeyring(pool, encryptionKeys, settings.ttlSeconds);
    hosted = await prepared.listen({
      malformedBodyCodeFor: (req) => (req.path === tokenPath ? 'PKC_1001' : undefined),
      routes: (app) => {
        mountTokenRoutes(app, pool, keyring, settings);
        mountInternalRoutes(app, pool, keyring, settings);
        mountAdminRoutes(app, pool, { environment: config.ENVIRONMENT, webhookSecretSealingKey: Buffer.from(config.WEBHOOK_SECRET_SEALING_KEY, 'base64') });
      },
      // The first signing key exists before the first request, so the gateway never caches an empty key set.
      beforeListen: () => keyring.ensureActiveKey(),
      // Ready on PostgreSQL alone: tokens and partner lookups never touch the broker, and partner
      // events wait in the outbox while it is away (bus_connected says so).
    });
  } catch (error) {
    await prepared?.closePool();
    await bus.close();
    throw error;
  }
  const relay = startServiceOutboxRelay({ context: hosted, bus, config });
  // Requests in flight finish first (an operator's partner change, say); their events then go out in the relay's last pass.
  const shutdownSteps: ShutdownSequence = [
    { name: 'http listener', run: hosted.closeListener },
    { name: 'outbox relay: last pass', run: () => flushAndStopRelay(relay) },
    { name: 'rabbitmq', run: () => bus.close() },
    { name: 'postgres pool', run: hosted.closePool },
  ];
  return { ...hosted, keyring, shutdownSteps, stop: stopInOrder(shutdownSteps, logger) };
}
