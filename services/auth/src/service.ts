import { authMigrationsDirectory, authSchema } from './service-paths';
import { connectBus, startOutboxRelay, type Bus } from '@pwa/bus';
import { flushAndStopRelay, hostService, stopInOrder, type HostedService, type ServiceHostParts, type ShutdownSequence } from '@pwa/runtime';
import { createLogger } from '@pwa/logging';
import type { AuthConfig } from './config';
import { mountTokenRoutes, tokenPath } from './http/token-routes';
import { mountInternalRoutes } from './http/internal-routes';
import { SigningKeyring } from './use-cases/signing-keyring';
import type { TokenSettings } from './use-cases/issue-access-token';


export interface AuthService extends HostedService {
  keyring: SigningKeyring;
}

/** Starts auth: migrations, the signing keyring, the token and internal routes, and the outbox relay. */
export async function startAuthService(config: Readonly<AuthConfig>): Promise<AuthService> {
  const logger = createLogger({ service: 'auth', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const bus = await connectBus({ url: config.AMQP_URL, exchange: config.BUS_EXCHANGE, serviceName: 'auth', logger });
  const settings: TokenSettings = {
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    ttlSeconds: config.TOKEN_TTL_SECONDS,
    environment: config.ENVIRONMENT,
  };
  const encryptionKey = Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY, 'base64');
  let keyring: SigningKeyring | undefined;
  const hosted = await hostServiceOrCloseBus(bus, {
    name: 'auth',
    schema: authSchema,
    migrationsDirectory: authMigrationsDirectory,
    env: config,
    port: config.PORT,
    logger,
    malformedBodyCodeFor: (req) => (req.path === tokenPath ? 'PKC_1001' : undefined),
    routes: (app, context) => {
      keyring = new SigningKeyring(context.pool, encryptionKey, settings.ttlSeconds);
      mountTokenRoutes(app, context.pool, keyring, settings);
      mountInternalRoutes(app, context.pool, keyring, settings);
    },
    // The first signing key exists before the first request, so the gateway never caches an empty key set.
    beforeListen: () => keyring?.ensureActiveKey() ?? Promise.reject(new Error('auth routes were not mounted')),
    // Ready on PostgreSQL alone: tokens and partner lookups never touch the broker, and partner
    // events wait in the outbox while it is away (bus_connected says so).
  });
  if (!keyring) throw new Error('auth routes were not mounted');
  const relay = startOutboxRelay({ pool: hosted.pool, bus, logger, pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS, publishAttemptsMax: config.OUTBOX_PUBLISH_ATTEMPTS_MAX, registry: hosted.registry });
  // Requests in flight finish first (an operator's partner change, say); their events then go out in the relay's last pass.
  const shutdownSteps: ShutdownSequence = [
    { name: 'http listener', run: hosted.closeListener },
    { name: 'outbox relay: last pass', run: () => flushAndStopRelay(relay) },
    { name: 'rabbitmq', run: () => bus.close() },
    { name: 'postgres pool', run: hosted.closePool },
  ];
  return { ...hosted, keyring, shutdownSteps, stop: stopInOrder(shutdownSteps, logger) };
}

async function hostServiceOrCloseBus(bus: Bus, options: Parameters<typeof hostService>[0]): Promise<HostedService & ServiceHostParts> {
  try {
    return await hostService(options);
  } catch (error) {
    await bus.close();
    throw error;
  }
}
