import { z } from 'zod';
import { fields } from './fields';
import { shutdownConfigFields } from './shutdown';
import { telemetryConfigFields } from './telemetry';

/**
 * Configuration every internal service shares; each service's schema extends it. The graceful stop
 * and trace settings are the gateway's too (it has no database, so it spreads those two groups).
 */
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
  /**
   * What the service does with its migrations at boot: `apply` them (under a per-schema advisory
   * lock, as npm start and compose run it), or `verify` that a migration Job applied every one it
   * ships and refuse to start otherwise (the Helm chart, whose pre-upgrade Jobs migrate: one read
   * through DATABASE_URL, so a transaction-mode PgBouncer in front of it holds no session lock).
   */
  MIGRATIONS_AT_BOOT: z.enum(['apply', 'verify']).default('apply'),
  ...shutdownConfigFields,
  ...telemetryConfigFields,
});
export type BaseServiceEnv = z.infer<typeof baseServiceConfigSchema>;
