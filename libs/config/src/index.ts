import { z } from 'zod';

export { z };

/** Raised at boot when configuration is invalid. Names the keys, never echoes their values. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once against a zod schema and freezes the result. Fails fast: a service
 * must not start with a configuration it cannot use. Values are never echoed, since some are secrets.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): Readonly<z.infer<S>> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  return deepFreeze(parsed.data);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

/** Shared field schemas so every service spells the same variable the same way. */
export const fields = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  host: (fallback: string) => z.string().min(1).default(fallback),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  environment: z.enum(['sandbox', 'production']).default('sandbox'),
  url: z.string().url(),
  databaseUrl: z.string().url().default('postgres://postgres@127.0.0.1:5432/partner_wallet'),
  amqpUrl: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  redisUrl: z.string().url().default('redis://127.0.0.1:6379'),
  busExchange: z.string().min(1).default('pwa.events'),
  redisKeyPrefix: z.string().default('pwa:'),
  milliseconds: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
};

/** Configuration every internal service shares; each service's schema extends it. */
export const baseServiceConfigSchema = z.object({
  HOST: fields.host('127.0.0.1'),
  LOG_LEVEL: fields.logLevel,
  ENVIRONMENT: fields.environment,
  /** The service's runtime role (least privilege: DML on its own schema only; docs/operations.md). */
  DATABASE_URL: fields.databaseUrl,
  /**
   * The service's schema owner role, for its migrations (at boot and in the migration Job). Unset:
   * migrations use DATABASE_URL, which then must own the schema, or find nothing to apply.
   */
  MIGRATION_DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: fields.positiveInt(10),
  /** lock_timeout of the migration session (libs/db migrate); 0 waits for ever. */
  MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
});
export type BaseServiceEnv = z.infer<typeof baseServiceConfigSchema>;
