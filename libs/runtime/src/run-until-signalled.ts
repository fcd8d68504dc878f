import { beginDraining } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { runShutdownSequence, stopInOrder, type ShutdownSequence } from './graceful-shutdown';
import { exitProcess } from './exit-process';

export interface StoppableService {
  stop: () => Promise<void>;
  /** The ordered stop a signal runs after readiness turned false; without it, stop() is the one step. */
  shutdownSteps?: ShutdownSequence;
}

export interface ShutdownSettings {
  /** SHUTDOWN_DRAIN_DELAY_MS: how long /readyz answers 503 while the listener still serves, so load balancers stop sending first. */
  drainDelayMs: number;
  /** SHUTDOWN_TIMEOUT_MS: bound of the whole stop, from the signal to the exit; past it the process exits 1. */
  timeoutMs: number;
}

/** Defaults of the services' SHUTDOWN_* settings (see docs/operations.md, "Graceful shutdown"). */
export const shutdownDrainDelayMsDefault = 2_000;
export const shutdownTimeoutMsDefault = 30_000;

/**
 * Entry point of every service process: starts it, and on SIGTERM or SIGINT stops it gracefully.
 * Readiness turns false first, then after the drain delay the service's own steps run in order
 * (stop taking work and finish what is in flight, last outbox pass, close the bus, the pools).
 * Exits 0 when every step succeeded, 1 when one failed or the deadline passed.
 */
export function runUntilSignalled(
  start: () => Promise<StoppableService>,
  logger: Logger,
  settings: ShutdownSettings = { drainDelayMs: shutdownDrainDelayMsDefault, timeoutMs: shutdownTimeoutMsDefault },
): void {
  let stopping = false;
  let running: StoppableService | undefined;
  const started = start().then((service) => {
    running = service;
    return service;
  });
  const shutdown = (signal: string): void => {
    if (stopping) {
      logger.warn({ signal }, 'already stopping; the stop is bounded by SHUTDOWN_TIMEOUT_MS');
      return;
    }
    stopping = true;
    logger.info({ signal, drainDelayMs: settings.drainDelayMs, timeoutMs: settings.timeoutMs }, 'stopping: readiness off, draining');
    gracefulShutdown(running ?? started, logger, settings).then(
      (exitCode) => exitProcess(exitCode),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        exitProcess(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  started.catch((error: unknown) => {
    logger.fatal({ err: error }, 'failed to start');
    exitProcess(1);
  });
}

export interface ServiceProcessOptions {
  /** Names the service's own stop step when it has no shutdownSteps. */
  name: string;
  logger: Logger;
  /** Started first thing in main.ts (before express loads); shut down last, so the spans of the stop are exported. */
  telemetry: { shutdown(): Promise<void> };
  config: { SHUTDOWN_DRAIN_DELAY_MS: number; SHUTDOWN_TIMEOUT_MS: number };
  /** Imports and starts the service (imported lazily, after telemetry patched node:http). */
  start: () => Promise<StoppableService>;
}

/**
 * The main of every service process: runUntilSignalled with the service's own stop steps followed
 * by the telemetry shutdown, and the SHUTDOWN_* settings of its configuration.
 */
export function runServiceProcess(options: ServiceProcessOptions): void {
  const { logger, telemetry, config } = options;
  runUntilSignalled(
    async () => {
      const service = await options.start();
      const shutdownSteps: ShutdownSequence = [
        ...(service.shutdownSteps ?? [{ name: options.name, run: service.stop }]),
        { name: 'telemetry', run: () => telemetry.shutdown() },
      ];
      return { stop: stopInOrder(shutdownSteps, logger), shutdownSteps };
    },
    logger,
    { drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

/**
 * The stop sequence of a process, once: readiness off, the drain delay, then the service's steps,
 * all within the deadline. Resolves the exit code. A service still starting is awaited (within
 * the deadline too) and then stopped.
 */
export async function gracefulShutdown(service: StoppableService | Promise<StoppableService>, logger: Logger, settings: ShutdownSettings): Promise<number> {
  const stepsOf = (running: StoppableService): ShutdownSequence => running.shutdownSteps ?? [{ name: 'service', run: running.stop }];
  const serviceSteps: ShutdownSequence =
    service instanceof Promise
      ? [{ name: 'service (still starting)', run: async () => stopInOrder(stepsOf(await service), logger)() }]
      : stepsOf(service);
  const sequence: ShutdownSequence = [
    { name: 'readiness off', run: beginDraining },
    { name: 'drain delay', run: () => sleep(settings.drainDelayMs) },
    ...serviceSteps,
  ];
  const report = await runShutdownSequence(sequence, { timeoutMs: settings.timeoutMs, logger });
  switch (report.outcome) {
    case 'stopped':
      logger.info({ elapsedMs: report.elapsedMs }, 'stopped');
      return 0;
    case 'failed':
      logger.error({ elapsedMs: report.elapsedMs, failedSteps: report.failedSteps }, 'stopped, but some shutdown steps failed');
      return 1;
    case 'timed_out':
      logger.error(
        { elapsedMs: report.elapsedMs, timeoutMs: settings.timeoutMs, unfinishedSteps: report.unfinishedSteps },
        'graceful stop exceeded SHUTDOWN_TIMEOUT_MS; exiting with work unfinished',
      );
      return 1;
  }
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
