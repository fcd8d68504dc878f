/** What follows a failed attempt: another attempt after a delay, or no more attempts. */
export type AfterFailure = { kind: 'retry'; delayMs: number } | { kind: 'give_up' };

export interface RetryPolicy {
  /** The delay before retry 1, 2, …; their count is how many retries follow the first attempt. */
  delaysMs: readonly number[];
  /** Each delay is multiplied by a factor drawn uniformly from [1 - ratio, 1 + ratio]. */
  jitterRatio: number;
}

/**
 * Decides after the `cycleAttemptCount`-th failed attempt of a cycle (1 = the first attempt).
 * The jitter spreads the retries of many deliveries that failed together (an endpoint that was
 * down), so they do not all come back in the same second.
 */
export function afterFailedAttempt(policy: RetryPolicy, cycleAttemptCount: number, random: () => number = Math.random): AfterFailure {
  const baseDelayMs = policy.delaysMs[cycleAttemptCount - 1];
  if (baseDelayMs === undefined) return { kind: 'give_up' };
  const factor = 1 - policy.jitterRatio + 2 * policy.jitterRatio * random();
  return { kind: 'retry', delayMs: Math.max(1, Math.round(baseDelayMs * factor)) };
}

/** The first attempt plus one per configured retry. */
export function attemptsPerCycle(policy: RetryPolicy): number {
  return policy.delaysMs.length + 1;
}
