import type { RequestListener } from 'node:http';
import { connectBus, type Bus } from '@pwa/bus';
import { createApp, createHttpMetrics, listen, listenTlsDispatcher, servedCertificateObserver, type RunningServer } from '@pwa/http';
import { createLogger, type Logger } from '@pwa/logging';
import { Counter, type Registry } from 'prom-client';
import type { GatewayConfig } from './config';
import type { AdmissionPorts, AdmissionSettings } from './domain/admit-partner-request';
import type { TokenEndpointPorts } from './domain/guard-token-endpoint';
import { invalidateOnPartnerEvents } from './events/partner-events';
import { rejectPlainHttp } from './http/https-only';
import { withContractDocuments } from './http/openapi-route';
import { createPublicApp } from './http/public-app';
import { createRateLimitMetrics, registerRateLimitFallbackMetrics } from './http/rate-limit-metrics';
import { createAuthDirectory } from './upstream/auth-directory';
import { PartnerCache } from './partners/partner-cache';
import { SigningKeySet } from './partners/signing-keys';
import { closeRedis, connectRedis, redisSentinelOf } from '@pwa/redis';
import { followRedisConnection, RedisFallback } from '@pwa/redis';
import { createRedisPorts } from './redis/redis-ports';
import { createUpstreamClients, shutdownUpstreamClients } from './upstream/upstream-clients';
import { VerifiedTokenCache } from './domain/verified-token-cache';

export interface RunningGateway {
  /** The public port (HTTPS in terminate mode). */
  port: number;
  /** The admin port: /healthz, /readyz, /metrics over plain HTTP, for the cluster only. */
  adminPort: number;
  stop: () => Promise<void>;
}

/** Lookups on the request path (signing keys, partner status) must be quick or fail. */
const authLookupTimeoutMs = 2_000;

/**
 * Starts the gateway: upstream clients (each with its breaker), the JWKS and partner caches, Redis, the bus
 * subscription that invalidates partners, the public listener and the admin listener.
 */
export async function startGateway(config: Readonly<GatewayConfig>, options: { logger?: Logger } = {}): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger({ service: 'gateway', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const metrics = createHttpMetrics('gateway');
  const plainHttpRejections = new Counter({
    name: 'gateway_plain_http_rejected_total',
    help: 'Requests refused because they did not arrive over HTTPS',
    registers: [metrics.registry],
  });

  const upstreams = createUpstreamClients(
    {
      baseUrls: {
        auth: config.AUTH_URL,
        wallet: config.WALLET_URL,
        quotes: config.QUOTES_URL,
        collections: config.COLLECTIONS_URL,
        disbursements: config.DISBURSEMENTS_URL,
        webhooks: config.WEBHOOKS_URL,
      },
      maxSockets: config.UPSTREAM_MAX_SOCKETS,
      breaker: {
        errorThresholdPercent: config.BREAKER_ERROR_THRESHOLD_PERCENT,
        volumeThreshold: config.BREAKER_VOLUME_THRESHOLD,
        resetTimeoutMs: config.BREAKER_RESET_TIMEOUT_MS,
        rollingWindowMs: config.BREAKER_ROLLING_WINDOW_MS,
      },
    },
    metrics.registry,
    logger,
  );
  const authDirectory = createAuthDirectory(upstreams.auth, Math.min(authLookupTimeoutMs, config.UPSTREAM_TIMEOUT_MS));
  const signingKeys = new SigningKeySet({
    fetchKeys: () => authDirectory.fetchSigningKeys(),
    refreshMinIntervalMs: config.JWKS_REFRESH_MIN_INTERVAL_MS,
    maxAgeMs: config.JWKS_MAX_AGE_MS,
    nowMs: Date.now,
    onBackgroundRefreshFailed: (error) => logger.warn({ err: error }, 'background refresh of signing keys failed; keeping the known keys'),
  });
  let bus: Bus | undefined;
  // While the broker is away no partner event can invalidate an entry, so entries live shorter.
  const partnerCacheTtlMs = (): number => (bus?.isConnected() === true ? config.PARTNER_CACHE_TTL_MS : Math.min(config.PARTNER_CACHE_TTL_MS, config.PARTNER_CACHE_TTL_WITHOUT_BUS_MS));
  const partners = new PartnerCache({
    load: (partnerId) => authDirectory.fetchPartner(partnerId),
    ttlMs: partnerCacheTtlMs,
    maxEntries: config.PARTNER_CACHE_MAX_ENTRIES,
    nowMs: Date.now,
  });
  const redis = connectRedis({ url: config.REDIS_URL, sentinel: redisSentinelOf(config), commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger });
  const redisFallback = new RedisFallback({
    nowMs: Date.now,
    onEnter: () => logger.warn({ dependency: 'redis' }, "redis unavailable; rate limits are counted in this instance's memory until it answers again"),
    onLeave: (fallbackSeconds) => logger.info({ dependency: 'redis', fallbackSeconds }, 'redis answers again; rate limits are counted in redis'),
  });
  followRedisConnection(redis, redisFallback);
  registerRateLimitFallbackMetrics(metrics.registry, redisFallback);

  let stopping = false;
  const listeners: { close: () => Promise<void> }[] = [];
  /** Stops whatever has started, in reverse order; also undoes a start that failed halfway. */
  const stop = async (): Promise<void> => {
    stopping = true;
    await Promise.all(listeners.map((listener) => listener.close()));
    await bus?.close();
    redisFallback.stop();
    await closeRedis(redis);
    shutdownUpstreamClients(upstreams);
  };
  try {
    // The bus only invalidates partner cache entries: the gateway starts and serves without it.
    bus = await connectBus({
      url: config.AMQP_URL,
      hosts: config.AMQP_HOSTS,
      exchange: config.BUS_EXCHANGE,
      serviceName: 'gateway',
      logger,
      registry: metrics.registry,
      startWithoutBroker: true,
    });
    await invalidateOnPartnerEvents(bus, config.BUS_EXCHANGE, partners, logger);
  } catch (error) {
    await stop();
    throw error;
  }
  // Auth may start after the gateway; the keys then load on the first token instead.
  signingKeys.refresh().catch((error: unknown) => logger.warn({ err: error }, 'signing keys not loaded yet; will retry on the first token'));

  const ports: AdmissionPorts & TokenEndpointPorts = {
    signingKeyFor: (keyId) => signingKeys.keyFor(keyId),
    partnerById: (partnerId) => partners.get(partnerId),
    nowSeconds: () => Math.floor(Date.now() / 1000),
    verifiedTokens: new VerifiedTokenCache(config.VERIFIED_TOKEN_CACHE_ENTRIES),
    ...createRedisPorts(redis, {
      keyPrefix: config.REDIS_KEY_PREFIX,
      partnerWindowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      tokenEndpointSourceLimitPerMinute: config.TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE,
      clientLockoutSeconds: config.TOKEN_ENDPOINT_CLIENT_LOCKOUT_SECONDS,
      trustedSourceSeconds: config.TOKEN_ENDPOINT_TRUSTED_SOURCE_TTL_SECONDS,
    }, redisFallback),
  };
  const admissionSettings: AdmissionSettings = {
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    clockToleranceSeconds: config.TOKEN_CLOCK_TOLERANCE_SECONDS,
    defaultRateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
  };

  const onPlainHttpRejected = (): void => plainHttpRejections.inc();
  const partnerApp = createPublicApp({
    logger,
    environment: config.ENVIRONMENT,
    metrics,
    rateLimitMetrics: createRateLimitMetrics(metrics.registry),
    tlsMode: config.TLS_MODE,
    trustedProxies: config.TRUSTED_PROXIES,
    hstsMaxAgeSeconds: config.HSTS_MAX_AGE_SECONDS,
    ports,
    admissionSettings,
    forwarding: {
      upstreams,
      timeoutsMs: { standard: config.UPSTREAM_TIMEOUT_MS, transfer: config.TRANSFER_UPSTREAM_TIMEOUT_MS },
      tokenEndpoint: { ports, clientFailuresMax: config.TOKEN_ENDPOINT_CLIENT_FAILURES_MAX },
      logger,
    },
    onPlainHttpRejected,
    isStopping: () => stopping,
  });
  // GET /api/v1/openapi.json, /docs (and its script) and /postman.json, without a token, beside the partner app (same order: HTTPS, request id, a per-address limit).
  const publicApp = withContractDocuments(partnerApp, {
    logger,
    metrics,
    tlsMode: config.TLS_MODE,
    trustedProxies: config.TRUSTED_PROXIES,
    hstsMaxAgeSeconds: config.HSTS_MAX_AGE_SECONDS,
    onPlainHttpRejected,
    isStopping: () => stopping,
    sourceLimitPerMinute: config.TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE,
    redis,
    redisFallback,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
  });
  const { app: adminApp } = createApp({
    serviceName: 'gateway',
    logger,
    metrics,
    // Ready means this instance can serve now. Neither Redis (rate limits fall back to memory) nor
    // the broker (partner entries then live PARTNER_CACHE_TTL_WITHOUT_BUS_MS) is needed for that,
    // and auth or an upstream being down is the same for every replica: taking them all out of the
    // Service would turn a partial outage into a whole one. So: ready unless draining.
    readinessChecks: [],
    routes: () => undefined,
  });
  try {
    const publicListener = await listenPublic(config, publicApp, onPlainHttpRejected, { logger, registry: metrics.registry });
    listeners.push(publicListener);
    const adminListener = await listen(adminApp, config.ADMIN_PORT, config.ADMIN_HOST);
    listeners.push(adminListener);
    logger.info({ port: publicListener.port, adminPort: adminListener.port, tlsMode: config.TLS_MODE }, 'listening');
    return { port: publicListener.port, adminPort: adminListener.port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function listenPublic(
  config: Readonly<GatewayConfig>,
  app: RequestListener,
  onPlainHttpRejected: () => void,
  observe: { logger: Logger; registry: Registry },
): Promise<Pick<RunningServer, 'port' | 'close'>> {
  if (config.TLS_MODE === 'proxy') return listen(app, config.PORT, config.HOST);
  const certificates = servedCertificateObserver(observe.registry, observe.logger);
  const dispatcher = await listenTlsDispatcher(
    {
      tls: {
        files: { certFile: requiredSetting('TLS_CERT_FILE', config.TLS_CERT_FILE), keyFile: requiredSetting('TLS_KEY_FILE', config.TLS_KEY_FILE) },
        intervalMs: config.TLS_RELOAD_INTERVAL_SECONDS * 1_000,
        onReloaded: (facts) => {
          certificates.served(facts);
          certificates.onReloaded(facts);
        },
        onRefused: certificates.onRefused,
      },
      secureHandler: app,
      plainHandler: rejectPlainHttp(onPlainHttpRejected),
      requestTimeoutMs: config.TRANSFER_UPSTREAM_TIMEOUT_MS + 15_000,
      // In-flight requests (a transfer may use its whole budget) may finish within the shutdown
      // bound; a second before it, whatever is left is cut so the process still exits in time.
      stopGraceMs: Math.max(1_000, config.SHUTDOWN_TIMEOUT_MS - 1_000),
    },
    config.PORT,
    config.HOST,
  );
  certificates.served(dispatcher.certificate);
  return { port: dispatcher.port, close: dispatcher.stop };
}

/** The config schema requires both files in terminate mode; this keeps the types honest. */
function requiredSetting(name: string, path: string | undefined): string {
  if (path === undefined) throw new Error(`${name} is required when TLS_MODE is terminate`);
  return path;
}
