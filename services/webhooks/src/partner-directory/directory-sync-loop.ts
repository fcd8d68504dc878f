import type { Logger } from '@pwa/logging';

export interface DirectorySyncLoop {
  /** Resolves once the loop has stopped (a rebuild in flight finishes first). */
  stop(): Promise<void>;
}

/**
 * Runs the rebuild once at start, in the background (readiness never waits for auth), and again
 * every retryMs until one succeeds: auth may start after webhooks.
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
        logger.warn({ err: error, attempt, retryMs }, 'partner directory rebuild failed; retrying');
      }
      await new Promise<void>((resolve) => {
        wakeSleeper = resolve;
        timer = setTimeout(resolve, retryMs);
      });
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
