import { amqpConfigFields, breakerConfigFields, defineTestHooks, fields, loadConfig, shutdownConfigFields, telemetryConfigFields, tlsReloadIntervalField, z } from '@pwa/config';
import { redisSentinelConfigFields } from '@pwa/redis';

/**
 * The gateway's whole configuration, parsed once at boot. Nothing else reads process.env.
 * Token issuer and audience default from ENVIRONMENT exactly as the auth service derives them, so a
 * sandbox gateway refuses production tokens (and the other way round) without extra settings.
 */
export const gatewayConfigSchema = z
  .object({
    PORT: fields.port(8443),
    ...shutdownConfigFields,
    HOST: fields.host('127.0.0.1'),
    ADMIN_PORT: fields.port(9400),
    ADMIN_HOST: fields.host('127.0.0.1'),
    TLS_MODE: z.enum(['terminate', 'proxy']).default('terminate'),
    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    TLS_RELOAD_INTERVAL_SECONDS: tlsReloadIntervalField,
    /** Proxy mode only: which peers may assert X-Forwarded-Proto and X-Forwarded-For (express "trust proxy" syntax). */
    TRUSTED_PROXIES: z.string().min(1).default('loopback'),
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(31_536_000),
    ENVIRONMENT: fields.environment,
    LOG_LEVEL: fields.logLevel,
    REDIS_URL: fields.redisUrl,
    ...redisSentinelConfigFields,
    REDIS_KEY_PREFIX: fields.redisKeyPrefix,
    REDIS_COMMAND_TIMEOUT_MS: fields.milliseconds(500),
    ...amqpConfigFields,
    BUS_EXCHANGE: fields.busExchange,
    TOKEN_ISSUER: z.string().min(1).optional(),
    TOKEN_AUDIENCE: z.string().min(1).optional(),
    TOKEN_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /** Verified tokens remembered per process (0 turns the cache off); see domain/verified-token-cache.ts. */
    VERIFIED_TOKEN_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
    AUTH_URL: fields.url.default('http://127.0.0.1:4101'),
    WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
    QUOTES_URL: fields.url.default('http://127.0.0.1:4103'),
    COLLECTIONS_URL: fields.url.default('http://127.0.0.1:4104'),
    DISBURSEMENTS_URL: fields.url.default('http://127.0.0.1:4105'),
    WEBHOOKS_URL: fields.url.default('http://127.0.0.1:4106'),
    UPSTREAM_TIMEOUT_MS: fields.milliseconds(10_000),
    // Above the spec's 25 s disbursement budget, so the disbursement service answers PKC_7004 first.
    TRANSFER_UPSTREAM_TIMEOUT_MS: fields.milliseconds(30_000),
    UPSTREAM_MAX_SOCKETS: fields.positiveInt(128),
    /** One breaker per internal service. */
    ...breakerConfigFields,
    RATE_LIMIT_PER_MINUTE: fields.positiveInt(60),
    PARTNER_CACHE_TTL_MS: fields.milliseconds(30_000),
    /** The partner cache's TTL while the broker is away (partner events cannot invalidate entries then): a suspension still applies within it. */
    PARTNER_CACHE_TTL_WITHOUT_BUS_MS: fields.milliseconds(5_000),
    PARTNER_CACHE_MAX_ENTRIES: fields.positiveInt(100_000),
    JWKS_REFRESH_MIN_INTERVAL_MS: fields.milliseconds(5_000),
    JWKS_MAX_AGE_MS: fields.milliseconds(600_000),
    TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: fields.positiveInt(30),
    TOKEN_ENDPOINT_CLIENT_FAILURES_MAX: fields.positiveInt(10),
    TOKEN_ENDPOINT_CLIENT_LOCKOUT_SECONDS: fields.positiveInt(900),
    TOKEN_ENDPOINT_TRUSTED_SOURCE_TTL_SECONDS: fields.positiveInt(604_800),
    ...telemetryConfigFields,
  })
  .superRefine((env, context) => {
    if (env.TLS_MODE !== 'terminate') return;
    for (const key of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
      if (env[key] === undefined) context.addIssue({ code: 'custom', path: [key], message: 'required when TLS_MODE is terminate' });
    }
  })
  .transform((env) => ({
    ...env,
    TOKEN_ISSUER: env.TOKEN_ISSUER ?? `https://auth.${env.ENVIRONMENT}.partner-wallet.example`,
    TOKEN_AUDIENCE: env.TOKEN_AUDIENCE ?? `partner-wallet-api:${env.ENVIRONMENT}`,
  }));

/**
 * The end-to-end tests' hook: the per-partner rate-limit window in seconds (60, the default, is the
 * spec's minute that RATE_LIMIT_PER_MINUTE counts in). A test whose partner meets a real 429 and
 * waits out its Retry-After sets a few seconds instead of a minute. Read in the sandbox only; a
 * production gateway refuses to boot with it set to anything but 60. The token endpoint's
 * per-address window stays a minute.
 */
export const gatewayTestHooks = defineTestHooks({ RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(60).default(60) }, ['RATE_LIMIT_WINDOW_SECONDS']);

/** The production settings and, in the sandbox only, the tests' RATE_LIMIT_WINDOW_SECONDS (60 in production). */
export type GatewayConfig = z.infer<typeof gatewayConfigSchema> & z.infer<typeof gatewayTestHooks.schema>;

export function readGatewayConfig(env: Record<string, string | undefined>): Readonly<GatewayConfig> {
  return loadConfig(gatewayConfigSchema, env, { testHooks: gatewayTestHooks });
}
