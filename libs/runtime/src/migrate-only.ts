import { baseServiceConfigSchema, loadConfig } from '@pwa/config';
import { migrate } from '@pwa/db';
import { createLogger } from '@pwa/logging';
import { exitProcess } from './exit-process';

export interface MigrateOnlyOptions {
  service: string;
  schema: string;
  migrationDirectories: readonly string[];
}

/**
 * The entry a deployment runs before rolling out (the Helm chart's pre-install/pre-upgrade Job):
 * apply the service's pending migrations, then exit 0, or exit 1 saying why. Services still
 * migrate at boot too; the advisory lock makes the second run a no-op.
 */
export function migrateOnlyThenEnd(options: MigrateOnlyOptions, env: Record<string, string | undefined>): void {
  const config = loadConfig(baseServiceConfigSchema, env);
  const logger = createLogger({ service: options.service, level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  migrate({ databaseUrl: config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL, schema: options.schema, directories: options.migrationDirectories, lockTimeoutMs: config.MIGRATION_LOCK_TIMEOUT_MS })
    .then((applied) => {
      logger.info({ migrations: applied }, applied.length > 0 ? 'migrations applied' : 'no pending migrations');
      exitProcess(0);
    })
    .catch((error: unknown) => {
      logger.fatal({ err: error }, 'migrations failed');
      exitProcess(1);
    });
}
