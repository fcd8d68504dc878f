import { baseServiceConfigSchema, breakerConfigFields, consolePublicUrlField, consoleTlsConfigFields, consoleTlsProblems, fields, loadConfig, resolvedConsoleTlsMode, z } from '@pwa/config';
import { redisSentinelConfigFields } from '@pwa/redis';

/** A sealing key of libs/sealing: base64 of exactly 32 bytes. */
const sealingKey = z
  .string()
  .min(1)
  .refine((value) => Buffer.from(value, 'base64').length === 32, { message: 'must be base64 of exactly 32 bytes (openssl rand -base64 32)' });

/**
 * Settings of the dashboard's set-up commands (a partner's first admin's invitation): the database,
 * and the dashboard's address as people open it, which the invitation link points at (no default:
 * a link to the wrong host would hand an invitation to someone else).
 */
/** Optional: invitations (the first admin's too) are also sent by e-mail through this SMTP relay (smtp:// or smtps://, credentials in the URL), from DASHBOARD_SMTP_FROM. */
const smtpFields = {
  DASHBOARD_SMTP_URL: z.preprocess((value) => (value === '' ? undefined : value), z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL').optional()),
  DASHBOARD_SMTP_FROM: z.string().min(3).max(254).default('Partner Wallet <no-reply@partner-wallet.example>'),
  DASHBOARD_SMTP_TIMEOUT_MS: fields.milliseconds(10_000),
};

export const dashboardSetupConfigSchema = z.object({
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  DATABASE_URL: fields.databaseUrl,
  DASHBOARD_PUBLIC_URL: consolePublicUrlField,
  /** Auth's internal address: the first admin is invited only for a partner auth knows. */
  AUTH_URL: fields.url.default('http://127.0.0.1:4101'),
  ...smtpFields,
});

export type DashboardSetupConfig = z.infer<typeof dashboardSetupConfigSchema>;

export function readDashboardSetupConfig(env: Record<string, string | undefined> = process.env): Readonly<DashboardSetupConfig> {
  return loadConfig(dashboardSetupConfigSchema, env);
}

/**
 * The running partner dashboard: public, on its own host name beside the gateway. It reads and acts
 * for the signed-in member's partner through the internal services' partner routes, asserting the
 * partner identity as the gateway does (decision 0074). DASHBOARD_SEALING_KEY seals members' TOTP
 * secrets (no default: a lost key means every member enrols again).
 */
export const dashboardConfigSchema = baseServiceConfigSchema
  .extend({
    PORT: fields.port(4108),
    /** The internal listener (plain HTTP, the internal network only): the back-office's call to invite a partner's first admin, and the probes. Never the public port. */
    DASHBOARD_INTERNAL_PORT: fields.port(4118),
    DASHBOARD_INTERNAL_HOST: fields.host('127.0.0.1'),
    REDIS_URL: fields.redisUrl,
    ...redisSentinelConfigFields,
    REDIS_KEY_PREFIX: fields.redisKeyPrefix,
    REDIS_COMMAND_TIMEOUT_MS: fields.milliseconds(1_000),
    DASHBOARD_PUBLIC_URL: consolePublicUrlField,
    DASHBOARD_SEALING_KEY: sealingKey,
    DASHBOARD_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(120).default(30),
    DASHBOARD_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24).default(12),
    /** Changes of credentials, webhook settings and members need a sign-in this recent, or a fresh code (0: always a code). */
    DASHBOARD_FRESH_MFA_MINUTES: z.coerce.number().int().min(0).max(30).default(5),
    /** Auth's internal address: the partner's status, permissions and client id behind every member's call. */
    AUTH_URL: fields.url.default('http://127.0.0.1:4101'),
    /** The owners of the partner's data, called with the asserted partner identity as the gateway calls them. */
    WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
    COLLECTIONS_URL: fields.url.default('http://127.0.0.1:4104'),
    DISBURSEMENTS_URL: fields.url.default('http://127.0.0.1:4105'),
    WEBHOOKS_URL: fields.url.default('http://127.0.0.1:4106'),
    UPSTREAM_TIMEOUT_MS: fields.milliseconds(10_000),
    /** A partner's requests a minute through the dashboard when auth names no limit of its own: the gateway's RATE_LIMIT_PER_MINUTE default. */
    DASHBOARD_RATE_LIMIT_PER_MINUTE: fields.positiveInt(60),
    ...breakerConfigFields,
    ...smtpFields,
    /** Behind a TLS-terminating proxy: how many hops to trust for the client's address (express's trust proxy); 0 trusts none. */
    DASHBOARD_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
    /** Where TLS ends, as for the back-office (decision 0067; libs/config console-tls.ts). */
    ...consoleTlsConfigFields,
  })
  .superRefine((config, context) => {
    const problems = consoleTlsProblems({
      ...config,
      publicUrl: { key: 'DASHBOARD_PUBLIC_URL', value: config.DASHBOARD_PUBLIC_URL },
      trustedProxyHops: { key: 'DASHBOARD_TRUSTED_PROXY_HOPS', value: config.DASHBOARD_TRUSTED_PROXY_HOPS },
    });
    for (const problem of problems) context.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
  })
  .transform((config) => ({ ...config, TLS_MODE: resolvedConsoleTlsMode(config) }));

export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;

export function readDashboardConfig(env: Record<string, string | undefined> = process.env): Readonly<DashboardConfig> {
  return loadConfig(dashboardConfigSchema, env);
}
