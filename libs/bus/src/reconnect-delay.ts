export const reconnectDelayMsMin = 100;
export const reconnectDelayMsMaxDefault = 5_000;

/**
 * Capped exponential backoff: 100 ms, 200 ms, 400 ms, ... up to delayMsMax. Half of each delay is
 * random so replicas that lost the broker together do not all come back in the same instant.
 */
export function reconnectDelayMs(attempt: number, delayMsMax: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceilingMs = Math.min(reconnectDelayMsMin * 2 ** exponent, Math.max(delayMsMax, reconnectDelayMsMin));
  return Math.round(ceilingMs / 2 + random() * (ceilingMs / 2));
}
