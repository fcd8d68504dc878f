import type { Express } from 'express';
import { createApp, createHttpMetrics, listen, type CreateAppOptions, type HttpMetrics, type ReadinessCheck } from '@pwa/http';
import { createPool, isDatabaseUnavailable, pingDatabase, prepareSchema, type Pool } from '@pwa/db';
import { createLogger, type Logger } from '@pwa/logging';
import type { BaseServiceEnv } from '@pwa/config';
import { stopInOrder, type ShutdownSequence } from './graceful-shutdown';

export interface PrepareServiceOptions {
  name: string;
  /** The Postgres schema the service owns. */
  schema: string;
  migrationDirectories: readonly string[];
  env: BaseServiceEnv;
  port: number;
  logger?: Logger;
}

export interface ServiceContext {
  name: string;
  logger: Logger;
  pool: Pool;
  /** The registry /metrics serves (process defaults and HTTP metrics); services add their own metrics to it. */
  registry: HttpMetrics['registry'];
}

export interface ListenOptions {
  /** Mounts the service's routes; everything they need is made beforehand from the context. */
  routes: (app: Express) => void;
  /**
   * Checks beside PostgreSQL's that /readyz runs. Readiness means "this instance can serve its
   * requests now": add only what every request needs at once. Never the broker (events wait in
   * the outbox, consumers catch up; bus_connected reports it) and never another service (its
   * outage is the same for every replica, and answers 503 PKC_7003 per request instead).
   */
  readinessChecks?: ReadinessCheck[];
  malformedBodyCodeFor?: CreateAppOptions['malformedBodyCodeFor'];
  /** The largest JSON body accepted (express's size text, '16kb' unless given): the wallet's transfer batches need more. */
  jsonBodyLimit?: CreateAppOptions['jsonBodyLimit'];
  /** A larger limit for the requests it applies to (the disbursements service's bulk quote, say); the others keep jsonBodyLimit. */
  largeJsonBody?: CreateAppOptions['largeJsonBody'];
  /** Work that must finish before the service accepts requests (auth's first signing key, say). */
  beforeListen?: () => Promise<void>;
  /** Facts of the configuration worth having in the "listening" log line. */
  listeningLogFields?: Record<string, unknown>;
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

/** What listen started, for a service that composes its own shutdownSteps around them. */
export interface ServiceHostParts {
  /** Closes the listener, lets requests in flight finish and closes keep-alive sockets. Idempotent. */
  closeListener: () => Promise<void>;
  /** Ends the pool; call it after everything that queries it has stopped. Idempotent. */
  closePool: () => Promise<void>;
}

/** A service whose schema is migrated and whose pool, logger and registry exist, not yet listening. */
export interface PreparedService extends ServiceContext {
  /**
   * Builds the express app (health, readiness on PostgreSQL plus the given checks, metrics, the
   * routes), runs beforeListen and listens. When any of it fails the pool is ended.
   */
  listen: (options: ListenOptions) => Promise<HostedService & ServiceHostParts>;
  /** Ends the pool, for a service that gives up before it listens. Idempotent. */
  closePool: () => Promise<void>;
}

/**
 * The first half of every service's boot: logger, migrations of its own schema, the pool and the
 * metrics registry. The service then makes its metrics, clients and use cases from this context,
 * and listen() mounts the routes that use them.
 */
export async function prepareService(options: PrepareServiceOptions): Promise<PreparedService> {
  const logger =
    options.logger ?? createLogger({ service: options.name, level: options.env.LOG_LEVEL, environment: options.env.ENVIRONMENT });
  const applied = await prepareSchema(options.env.MIGRATIONS_AT_BOOT, {
    service: options.name,
    databaseUrl: options.env.MIGRATIONS_AT_BOOT === 'apply' ? (options.env.MIGRATION_DATABASE_URL ?? options.env.DATABASE_URL) : options.env.DATABASE_URL,
    schema: options.schema,
    directories: options.migrationDirectories,
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
  let poolEnded: Promise<void> | undefined;
  const closePool = (): Promise<void> => (poolEnded ??= pool.end());

  const listenWith = async (listenOptions: ListenOptions): Promise<HostedService & ServiceHostParts> => {
    const { app } = createApp({
      serviceName: options.name,
      logger,
      readinessChecks: [{ name: 'postgres', check: () => pingDatabase(pool) }, ...(listenOptions.readinessChecks ?? [])],
      malformedBodyCodeFor: listenOptions.malformedBodyCodeFor,
      ...(listenOptions.jsonBodyLimit === undefined ? {} : { jsonBodyLimit: listenOptions.jsonBodyLimit }),
      ...(listenOptions.largeJsonBody === undefined ? {} : { largeJsonBody: listenOptions.largeJsonBody }),
      isDependencyUnavailable: isDatabaseUnavailable,
      metrics,
      routes: listenOptions.routes,
    });
    await listenOptions.beforeListen?.();
    const server = await listen(app, options.port, options.env.HOST);
    logger.info({ port: server.port, host: options.env.HOST, ...listenOptions.listeningLogFields }, 'listening');
    const closeListener = (): Promise<void> => server.close();
    return {
      ...context,
      port: server.port,
      closeListener,
      closePool,
      stop: stopInOrder([{ name: 'http listener', run: closeListener }, { name: 'postgres pool', run: closePool }], logger),
    };
  };

  return {
    ...context,
    closePool,
    listen: async (listenOptions) => {
      try {
        return await listenWith(listenOptions);
      } catch (error) {
        await closePool();
        throw error;
      }
    },
  };
}

