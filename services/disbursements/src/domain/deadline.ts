/** A point in time work must finish by, fixed once (at the request's arrival) and passed down. */
export interface Deadline {
  readonly expiresAtMs: number;
  remainingMs(): number;
  hasPassed(): boolean;
}

export function deadlineAfter(budgetMs: number, startMs: number = Date.now(), clock: () => number = Date.now): Deadline {
  const expiresAtMs = startMs + budgetMs;
  return {
    expiresAtMs,
    remainingMs: () => Math.max(0, expiresAtMs - clock()),
    hasPassed: () => clock() >= expiresAtMs,
  };
}
