import type { Express } from 'express';
import { createApp, createHttpMetrics, listen, type CreateAppOptions, type HttpMetrics, type ReadinessCheck } from '@pwa/http';
import { createPool, isDatabaseUnavailable, migrate, pingDatabase, type Pool } from '@pwa/db';
import { createLogger, type Logger } from '@pwa/logging';
import type { BaseServiceEnv } from '@pwa/config';
import { stopInOrder, type ShutdownSequence } from './graceful-shutdown';

export interface ServiceHostOptions {
  name: string;
  /** The Postgres schema the service owns. */
  schema: string;
  migrationsDirectory: string;
  env: BaseServiceEnv;
  port: number;
  logger?: Logger;
  routes?: (app: Express, context: ServiceContext) => void;
  /**
   * Checks beside PostgreSQL's that /readyz runs. Readiness means "this instance can serve its
   * requests now": add only what every request needs at once. Never the broker (events wait in
   * the outbox, consumers catch up; bus_connected reports it) and never another service (its
   * outage is the same for every replica, and answers 503 PKC_7003 per request instead).
   */
  readinessChecks?: (context: ServiceContext) => ReadinessCheck[];
  malformedBodyCodeFor?: CreateAppOptions['malformedBodyCodeFor'];
  /** Work that must finish before the service accepts requests (auth's first signing key, say). */
  beforeListen?: (context: ServiceContext) => Promise<void>;
}

export interface ServiceContext {
  name: string;
  logger: Logger;
  pool: Pool;
  /** The registry /metrics serves (process defaults and HTTP metrics); services add their own metrics to it. */
  registry: HttpMetrics['registry'];
}

export interface HostedService extends ServiceContext {
  port: number;
  /** Stops everything, in order, without a deadline (tests call it; a signal runs shutdownSteps instead). */
  stop: () => Promise<void>;
  /**
   * The ordered stop a SIGTERM runs after readiness turned false and the drain delay (see
   * runUntilSignalled). Without it, stop() is the one step.
   */
  shutdownSteps?: ShutdownSequence;
}

/** What hostService started, for a service that composes its own shutdownSteps around them. */
export interface ServiceHostParts {
  /** Closes the listener, lets requests in flight finish and closes keep-alive sockets. Idempotent. */
  closeListener: () => Promise<void>;
  /** Ends the pool; call it after everything that queries it has stopped. Idempotent. */
  closePool: () => Promise<void>;
}

/**
 * Boots the parts every service has: logger, migrations of its own schema, a pool, the express app
 * with health, readiness and metrics, and the listener. The caller adds routes and its own workers.
 */
export async function hostService(options: ServiceHostOptions): Promise<HostedService & ServiceHostParts> {
  const logger =
    options.logger ?? createLogger({ service: options.name, level: options.env.LOG_LEVEL, environment: options.env.ENVIRONMENT });
  const applied = await migrate({
    databaseUrl: options.env.MIGRATION_DATABASE_URL ?? options.env.DATABASE_URL,
    schema: options.schema,
    directory: options.migrationsDirectory,
    lockTimeoutMs: options.env.MIGRATION_LOCK_TIMEOUT_MS,
  });
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
  const pool = createPool({
    connectionString: options.env.DATABASE_URL,
    applicationName: options.name,
    schema: options.schema,
    maxConnections: options.env.DATABASE_POOL_MAX,
  });
  const metrics = createHttpMetrics(options.name);
  const context: ServiceContext = { name: options.name, logger, pool, registry: metrics.registry };
  const readinessChecks: ReadinessCheck[] = [
    { name: 'postgres', check: () => pingDatabase(pool) },
    ...(options.readinessChecks?.(context) ?? []),
  ];
  const { app } = createApp({
    serviceName: options.name,
    logger,
    readinessChecks,
    malformedBodyCodeFor: options.malformedBodyCodeFor,
    isDependencyUnavailable: isDatabaseUnavailable,
    metrics,
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
  let poolEnded: Promise<void> | undefined;
  const closeListener = (): Promise<void> => server.close();
  const closePool = (): Promise<void> => (poolEnded ??= pool.end());
  return {
    ...context,
    port: server.port,
    closeListener,
    closePool,
    stop: stopInOrder([{ name: 'http listener', run: closeListener }, { name: 'postgres pool', run: closePool }], logger),
  };
}
