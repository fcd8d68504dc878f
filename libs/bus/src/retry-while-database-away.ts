import { isDatabaseUnavailable } from '@pwa/db';

/**
 * How a consumer waits out its own database being away. A handler that fails because the
 * database cannot be used is run again in place, after a growing pause, without settling the
 * message: a nack would count against the queue's delivery limit (5), and five immediate
 * redeliveries during a PostgreSQL restart would dead-letter every event that arrived meanwhile.
 */
export interface DatabaseRetrySettings {
  /** Pause before the first retry; doubled after each, up to delayMsMax. */
  delayMsInitial: number;
  delayMsMax: number;
  /** Retries in place before the failure is handed on (nack and requeue, which counts). */
  attemptsMax: number;
}

/** 250 ms doubling to 5 s, 30 retries: about 2 minutes of a database away before a delivery counts. */
export const databaseRetryDefaults: DatabaseRetrySettings = { delayMsInitial: 250, delayMsMax: 5_000, attemptsMax: 30 };

/**
 * Runs `handle`; while it fails with the database away (and the consumer is not stopping), waits
 * and runs it again, up to the settings' bound. `onWaiting` is called once, at the first such
 * failure. Any other failure, or the last one, is thrown.
 */
export async function retryWhileDatabaseAway(
  handle: () => Promise<void>,
  settings: DatabaseRetrySettings,
  isStopping: () => boolean,
  onWaiting: (error: unknown) => void,
): Promise<void> {
  let delayMs = settings.delayMsInitial;
  for (let retry = 0; ; retry += 1) {
    try {
      await handle();
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || retry >= settings.attemptsMax || isStopping()) throw error;
      if (retry === 0) onWaiting(error);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, settings.delayMsMax);
    }
  }
}
