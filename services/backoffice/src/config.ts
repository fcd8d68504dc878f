import { baseServiceConfigSchema, breakerConfigFields, consolePublicUrlField, consoleTlsConfigFields, consoleTlsProblems, fields, loadConfig, resolvedConsoleTlsMode, z } from '@pwa/config';
import { redisSentinelConfigFields } from '@pwa/redis';

/** A sealing key of libs/sealing: base64 of exactly 32 bytes. */
const sealingKey = z
  .string()
  .min(1)
  .refine((value) => Buffer.from(value, 'base64').length === 32, { message: 'must be base64 of exactly 32 bytes (openssl rand -base64 32)' });

/** An optional setting that counts as unset when empty, as compose passes `${VARIABLE:-}` for one not given. */
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);

const optionalSealingKey = unsetWhenEmpty(sealingKey.optional());

/** The previous key is another key: the same value twice is a rotation that was not made. */
const distinctSealingKeys = (config: { BACKOFFICE_SEALING_KEY?: string | undefined; BACKOFFICE_SEALING_KEY_PREVIOUS?: string | undefined }): boolean =>
  config.BACKOFFICE_SEALING_KEY_PREVIOUS === undefined ||
  config.BACKOFFICE_SEALING_KEY === undefined ||
  !Buffer.from(config.BACKOFFICE_SEALING_KEY, 'base64').equals(Buffer.from(config.BACKOFFICE_SEALING_KEY_PREVIOUS, 'base64'));
const distinctSealingKeysIssue = {
  message: 'BACKOFFICE_SEALING_KEY_PREVIOUS holds the same key as BACKOFFICE_SEALING_KEY: put the new key in BACKOFFICE_SEALING_KEY and the old one in _PREVIOUS',
  path: ['BACKOFFICE_SEALING_KEY_PREVIOUS'],
};

const publicUrl = consolePublicUrlField;

/**
 * Settings of the back-office's set-up commands: the database, and the console's address as
 * people open it, which the first admin's set-up link points at (no default: a link to the wrong
 * host would hand a set-up token to someone else). The sealing keys only matter to
 * reseal-totp-secrets, which refuses without the current one; the container has both set anyway.
 */
export const backofficeSetupConfigSchema = z
  .object({
    LOG_LEVEL: fields.logLevel,
    ENVIRONMENT: fields.environment,
    DATABASE_URL: fields.databaseUrl,
    BACKOFFICE_PUBLIC_URL: publicUrl,
    BACKOFFICE_SEALING_KEY: optionalSealingKey,
    BACKOFFICE_SEALING_KEY_PREVIOUS: optionalSealingKey,
  })
  .refine(distinctSealingKeys, distinctSealingKeysIssue);

export type BackofficeSetupConfig = z.infer<typeof backofficeSetupConfigSchema>;

/** The one place that reads the process environment for the set-up commands; tests pass their own. */
export function readBackofficeSetupConfig(env: Record<string, string | undefined> = process.env): Readonly<BackofficeSetupConfig> {
  return loadConfig(backofficeSetupConfigSchema, env);
}

/**
 * The running back-office. It serves people on the operator's internal network only (never behind
 * the partner gateway). BACKOFFICE_SEALING_KEY seals operators' TOTP secrets (base64 of 32 bytes,
 * no default: a lost key means every operator enrols again; a replaced one is rotated with
 * BACKOFFICE_SEALING_KEY_PREVIOUS and reseal-totp-secrets). Session timeouts follow decision 0061.
 */
export const backofficeConfigSchema = baseServiceConfigSchema.extend({
  PORT: fields.port(4107),
  REDIS_URL: fields.redisUrl,
  ...redisSentinelConfigFields,
  REDIS_KEY_PREFIX: fields.redisKeyPrefix,
  /** A Redis command unanswered this long fails (the session read answers an error rather than waiting). */
  REDIS_COMMAND_TIMEOUT_MS: fields.milliseconds(1_000),
  BACKOFFICE_PUBLIC_URL: publicUrl,
  BACKOFFICE_SEALING_KEY: sealingKey,
  /**
   * Only while BACKOFFICE_SEALING_KEY is being replaced (docs/operations.md, Back-office, Rotate the
   * sealing key): the old key, tried when the current one does not open a TOTP secret, until
   * reseal-totp-secrets has re-sealed every secret under the current one. New secrets are always
   * sealed with the current key.
   */
  BACKOFFICE_SEALING_KEY_PREVIOUS: optionalSealingKey,
  BACKOFFICE_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
  BACKOFFICE_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24).default(8),
  /** The wallet's internal address: approved fundings execute through its admin route. */
  WALLET_URL: fields.url.default('http://127.0.0.1:4102'),
  WALLET_TIMEOUT_MS: fields.milliseconds(5_000),
  ...breakerConfigFields,
  /** Auth's internal address: partner status, permissions and rate limit changes execute through its admin routes. */
  AUTH_URL: fields.url.default('http://127.0.0.1:4101'),
  AUTH_TIMEOUT_MS: fields.milliseconds(5_000),
  /** The quotes service's internal address: fee schedule and tier limit changes execute through its admin routes. */
  QUOTES_URL: fields.url.default('http://127.0.0.1:4103'),
  QUOTES_TIMEOUT_MS: fields.milliseconds(5_000),
  /** The webhooks service's internal address: the console's delivery backlog, dead letters and redeliveries. */
  WEBHOOKS_URL: fields.url.default('http://127.0.0.1:4106'),
  WEBHOOKS_TIMEOUT_MS: fields.milliseconds(5_000),
  /**
   * The partner dashboard's internal listener (its DASHBOARD_INTERNAL_PORT, never its public port):
   * a newly onboarded partner's first admin is invited there. Unset: the console says the dashboard is not connected.
   */
  DASHBOARD_INTERNAL_URL: unsetWhenEmpty(fields.url.optional()),
  DASHBOARD_TIMEOUT_MS: fields.milliseconds(5_000),
  /**
   * Optional sign-in with the company's identity provider over OpenID Connect: the issuer (its
   * discovery document is read on first use, and again after a failure), and the back-office's client there. All three or none.
   */
  BACKOFFICE_OIDC_ISSUER_URL: unsetWhenEmpty(fields.url.optional()),
  BACKOFFICE_OIDC_CLIENT_ID: unsetWhenEmpty(z.string().min(1).max(200).optional()),
  BACKOFFICE_OIDC_CLIENT_SECRET: unsetWhenEmpty(z.string().min(1).max(500).optional()),
  /** How often approved requests not yet executed (a wallet outage, a restart) are sent again, and expired ones closed. */
  BACKOFFICE_SWEEP_INTERVAL_MS: fields.milliseconds(10_000),
  /** Behind a TLS-terminating proxy: how many hops to trust for the client's address (express's trust proxy); 0 trusts none. */
  BACKOFFICE_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  /**
   * Where TLS ends (decision 0067). terminate: this process serves the console over HTTPS with
   * TLS_CERT_FILE and TLS_KEY_FILE, and on the same port answers plain HTTP only with /healthz,
   * /readyz and /metrics (a browser is redirected to BACKOFFICE_PUBLIC_URL). proxy: plain HTTP behind
   * an internal TLS-terminating ingress. Unset: terminate when a certificate is given, else proxy,
   * except in production, which must say which.
   */
  ...consoleTlsConfigFields,
})
  .refine(distinctSealingKeys, distinctSealingKeysIssue)
  .refine(
    (config) => [config.BACKOFFICE_OIDC_ISSUER_URL, config.BACKOFFICE_OIDC_CLIENT_ID, config.BACKOFFICE_OIDC_CLIENT_SECRET].filter((value) => value === undefined).length % 3 === 0,
    { message: 'BACKOFFICE_OIDC_ISSUER_URL, BACKOFFICE_OIDC_CLIENT_ID and BACKOFFICE_OIDC_CLIENT_SECRET are set together, or none of them', path: ['BACKOFFICE_OIDC_ISSUER_URL'] },
  )
  .superRefine((config, context) => {
    for (const problem of tlsSettingProblems(config)) context.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
  })
  .transform((config) => ({ ...config, TLS_MODE: resolvedTlsMode(config) }));

interface TlsSettings {
  ENVIRONMENT: string;
  BACKOFFICE_PUBLIC_URL: string;
  BACKOFFICE_TRUSTED_PROXY_HOPS: number;
  TLS_MODE?: 'terminate' | 'proxy' | undefined;
  TLS_CERT_FILE?: string | undefined;
  TLS_KEY_FILE?: string | undefined;
}

const resolvedTlsMode = resolvedConsoleTlsMode;

/** Why the back-office's TLS settings cannot run, if they cannot (libs/config console-tls.ts). */
export function tlsSettingProblems(config: TlsSettings): { key: string; message: string }[] {
  return consoleTlsProblems({
    ...config,
    publicUrl: { key: 'BACKOFFICE_PUBLIC_URL', value: config.BACKOFFICE_PUBLIC_URL },
    trustedProxyHops: { key: 'BACKOFFICE_TRUSTED_PROXY_HOPS', value: config.BACKOFFICE_TRUSTED_PROXY_HOPS },
  });
}

export type BackofficeConfig = z.infer<typeof backofficeConfigSchema>;

export function readBackofficeConfig(env: Record<string, string | undefined> = process.env): Readonly<BackofficeConfig> {
  return loadConfig(backofficeConfigSchema, env);
}

/**
 * The keys that open TOTP secrets, the current one first: the sealer seals with the first and
 * opens with each in turn, so secrets sealed before a rotation keep opening until re-sealed.
 */
export function totpSealingKeysOf(config: { BACKOFFICE_SEALING_KEY: string; BACKOFFICE_SEALING_KEY_PREVIOUS?: string | undefined }): { current: Buffer; previous: Buffer | undefined } {
  return {
    current: Buffer.from(config.BACKOFFICE_SEALING_KEY, 'base64'),
    previous: config.BACKOFFICE_SEALING_KEY_PREVIOUS === undefined ? undefined : Buffer.from(config.BACKOFFICE_SEALING_KEY_PREVIOUS, 'base64'),
  };
}
