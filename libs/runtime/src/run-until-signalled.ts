import type { Logger } from '@pwa/logging';

export interface StoppableService {
  stop: () => Promise<void>;
}

const shutdownGraceMs = 10_000;

/**
 * Entry point of every service process: starts it, and on SIGINT/SIGTERM stops it gracefully
 * (stop accepting, drain, close pools and channels) with a bounded grace period.
 */
export function runUntilSignalled(start: () => Promise<StoppableService>, logger: Logger): void {
  let service: StoppableService | undefined;
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const forced = setTimeout(() => {
      logger.error('graceful stop took too long; exiting');
      process.exit(1);
    }, shutdownGraceMs);
    forced.unref();
    (service ? service.stop() : Promise.resolve())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  start()
    .then((started) => {
      service = started;
      if (stopping) void started.stop();
    })
    .catch((error: unknown) => {
      logger.fatal({ err: error }, 'failed to start');
      process.exit(1);
    });
}
