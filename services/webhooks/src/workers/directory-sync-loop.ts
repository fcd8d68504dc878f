import type { Logger } from '@pwa/logging';

export interface DirectorySyncLoop {
  /** Resolves once the loop has stopped (a rebuild in flight finishes first). */
  stop(): Promise<void>;
}

/** The longest wait between two failed rebuilds (a misconfigured AUTH_URL logs once a minute, not once a retry). */
const retryDelayMaxMs = 60_000;

/**
 * Runs the rebuild once at start, in the background (readiness never waits for auth), and again
 * after retryMs, doubling up to a minute, until one succeeds: auth may start after webhooks.
 */
export function startDirectorySyncLoop(rebuild: () => Promise<{ read: number; applied: number }>, retryMs: number, logger: Logger): DirectorySyncLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wakeSleeper: (() => void) | undefined;
  const run = async (): Promise<void> => {
    for (let attempt = 1; !stopped; attempt += 1) {
      try {
        const outcome = await rebuild();
        logger.info(outcome, 'partner directory rebuilt from the auth service');
        return;
      } catch (error) {
        const delayMs = Math.min(retryMs * 2 ** Math.min(attempt - 1, 16), Math.max(retryMs, retryDelayMaxMs));
        logger.warn({ err: error, attempt, retryInMs: delayMs }, 'partner directory rebuild failed; retrying');
        await new Promise<void>((resolve) => {
          wakeSleeper = resolve;
          timer = setTimeout(resolve, delayMs);
        });
      }
    }
  };
  const running = run();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      wakeSleeper?.();
      await running;
    },
  };
}
