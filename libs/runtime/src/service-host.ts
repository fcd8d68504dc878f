import type { Express } from 'express';
import { createApp, listen, type CreateAppOptions, type ReadinessCheck } from '@pwa/http';
import { createPool, migrate, pingDatabase, type Pool } from '@pwa/db';
import { createLogger, type Logger } from '@pwa/logging';
import type { BaseServiceEnv } from '@pwa/config';

export interface ServiceHostOptions {
  name: string;
  /** The Postgres schema the service owns. */
  schema: string;
  migrationsDirectory: string;
  env: BaseServiceEnv;
  port: number;
  logger?: Logger;
  routes?: (app: Express, context: ServiceContext) => void;
  readinessChecks?: (context: ServiceContext) => ReadinessCheck[];
  malformedBodyCodeFor?: CreateAppOptions['malformedBodyCodeFor'];
  /** Work that must finish before the service accepts requests (auth's first signing key, say). */
  beforeListen?: (context: ServiceContext) => Promise<void>;
}

export interface ServiceContext {
  name: string;
  logger: Logger;
  pool: Pool;
}

export interface HostedService extends ServiceContext {
  port: number;
  stop: () => Promise<void>;
}

/**
 * Boots the parts every service has: logger, migrations of its own schema, a pool, the express app
 * with health, readiness and metrics, and the listener. The caller adds routes and its own workers.
 */
export async function hostService(options: ServiceHostOptions): Promise<HostedService> {
  const logger =
    options.logger ?? createLogger({ service: options.name, level: options.env.LOG_LEVEL, environment: options.env.ENVIRONMENT });
  const applied = await migrate({
    databaseUrl: options.env.DATABASE_URL,
    schema: options.schema,
    directory: options.migrationsDirectory,
  });
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
  const pool = createPool({
    connectionString: options.env.DATABASE_URL,
    applicationName: options.name,
    schema: options.schema,
    maxConnections: options.env.DATABASE_POOL_MAX,
  });
  const context: ServiceContext = { name: options.name, logger, pool };
  const readinessChecks: ReadinessCheck[] = [
    { name: 'postgres', check: () => pingDatabase(pool) },
    ...(options.readinessChecks?.(context) ?? []),
  ];
  const { app } = createApp({
    serviceName: options.name,
    logger,
    readinessChecks,
    malformedBodyCodeFor: options.malformedBodyCodeFor,
    routes: (expressApp) => options.routes?.(expressApp, context),
  });
  try {
    await options.beforeListen?.(context);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const server = await listen(app, options.port, options.env.HOST);
  logger.info({ port: server.port, host: options.env.HOST }, 'listening');
  return {
    ...context,
    port: server.port,
    stop: async () => {
      await server.close();
      await pool.end();
    },
  };
}
