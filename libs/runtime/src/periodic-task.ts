import type { Logger } from '@pwa/logging';

export interface PeriodicTaskOptions<T> {
  /** Names the task in its log lines. */
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Pause before the first run; defaults to intervalMs (0 runs it as soon as the caller yields). */
  firstRunDelayMs?: number;
  /** One run. Its failure is logged and counted, never thrown at the loop: the next run tries again. */
  run: () => Promise<T>;
  logger: Logger;
  /** Level and message of the line a failed run logs; defaults to warn and a sentence naming the retry. */
  failureLog?: FailureLog;
}

export interface FailureLog {
  level: 'warn' | 'error';
  message: string;
}

export interface PeriodicTask<T> {
  /**
   * Runs the task now, or right after the run in flight (never beside it), and resolves with that
   * run's result; a failed run rejects here as well as being logged. After stop() it resolves
   * undefined without running. Calls made while one run is in flight share the next run.
   */
  runNow(): Promise<T | undefined>;
  /** Asks for a run as soon as possible without waiting for it; wakes made during a run ask for one more run. */
  wake(): void;
  /** Stops scheduling runs and waits for the run in flight. */
  stop(): Promise<void>;
  /** Runs that failed since the start (each one was logged). */
  failedRunCount(): number;
}

interface Waiter<T> {
  resolve: (value: T | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs `run` every `intervalMs`, one run at a time in this process: the next run is scheduled when
 * the previous one ends, so a slow run delays the loop rather than overlapping itself. Timers are
 * unref'd, so a loop never keeps a process alive on its own.
 */
export function startPeriodicTask<T>(options: PeriodicTaskOptions<T>): PeriodicTask<T> {
  const failureLog: FailureLog = options.failureLog ?? { level: 'warn', message: 'periodic task failed; it runs again at the next tick' };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let runRequested = false;
  let waiters: Waiter<T>[] = [];
  let inFlight: Promise<void> = Promise.resolve();
  let failedRunCount = 0;

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      begin();
    }, delayMs);
    timer.unref();
  };

  const runAndSettle = async (settled: Waiter<T>[]): Promise<void> => {
    try {
      const value = await options.run();
      for (const waiter of settled) waiter.resolve(value);
    } catch (error) {
      failedRunCount += 1;
      options.logger[failureLog.level]({ err: error, task: options.name }, failureLog.message);
      for (const waiter of settled) waiter.reject(error);
    }
  };

  function begin(): void {
    if (stopped) return;
    if (running) {
      runRequested = true;
      return;
    }
    running = true;
    runRequested = false;
    const settled = waiters;
    waiters = [];
    inFlight = runAndSettle(settled).finally(() => {
      running = false;
      if (stopped) {
        for (const waiter of waiters.splice(0)) waiter.resolve(undefined);
        return;
      }
      schedule(runRequested || waiters.length > 0 ? 0 : options.intervalMs);
    });
  }

  const wake = (): void => {
    if (stopped) return;
    if (running) runRequested = true;
    else schedule(0);
  };

  schedule(options.firstRunDelayMs ?? options.intervalMs);
  return {
    runNow: () => {
      if (stopped) return Promise.resolve(undefined);
      return new Promise<T | undefined>((resolve, reject) => {
        waiters.push({ resolve, reject });
        wake();
      });
    },
    wake,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const waiter of running ? [] : waiters.splice(0)) waiter.resolve(undefined);
      await inFlight;
    },
    failedRunCount: () => failedRunCount,
  };
}
