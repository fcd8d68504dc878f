import type { Logger } from '@pwa/logging';

export interface PeriodicTask {
  /** Stops scheduling and waits for a tick still running. */
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs`, never two at once in this process (the next tick is scheduled
 * after the previous one ends). A failing tick is logged and the next one tries again.
 */
export function startPeriodicTask(name: string, intervalMs: number, tick: () => Promise<void>, logger: Logger): PeriodicTask {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => logger.warn({ err: error, task: name }, 'periodic task failed; it runs again at the next tick'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
