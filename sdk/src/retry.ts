import type { RetryClass } from './operations.js';

export interface RetryOptions {
  /** Requests per call at most, the first included (default 4). 1 turns retries off. */
  attemptsMax: number;
  /** The first backoff step (default 250 ms); step n is baseDelayMs * 2^(n-1), capped. */
  baseDelayMs: number;
  /** The cap of a backoff step (default 8 s). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails with it (default 60 s). */
  retryAfterMaxMs: number;
}

export const defaultRetryOptions: Readonly<RetryOptions> = { attemptsMax: 4, baseDelayMs: 250, maxDelayMs: 8_000, retryAfterMaxMs: 60_000 };

/** What one attempt ended with, as far as retrying cares. */
export type AttemptOutcome =
  | { kind: 'answer'; status: number; code: string | undefined; retryAfterSeconds: number | undefined }
  /** No answer: the connection failed or the timeout fired. `sent`: the request may have reached the server. */
  | { kind: 'no-answer'; sent: boolean };

/**
 * Whether an outcome may be retried for a call of that class, by what a repeat could do. Only
 * the answer that proves nothing happened is retried on calls that can move money: 429 PKC_7001
 * (the gateway's rate limit refuses before forwarding). A timeout, a lost connection, a 500 or a 503 on a money
 * call may hide a completed movement, so it is never repeated. (A transfer's 504 PKC_7004 is
 * retried one level up, by PartnerApiClient.disburse, with a new quote: its quote is spent.)
 */
export function isRetryable(retryClass: RetryClass, outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'no-answer') return retryClass === 'safe' || !outcome.sent;
  if (outcome.status === 429) return outcome.code === 'PKC_7001' || (retryClass === 'safe' && outcome.code === undefined);
  if (retryClass !== 'safe') return false;
  return outcome.status === 500 || outcome.status === 502 || outcome.status === 503 || outcome.status === 504;
}

/**
 * The wait before attempt `nextAttempt` (2, 3, …): exponential with "equal jitter" (half the step
 * fixed, half random, so waits grow and clients that failed together spread out), and never less
 * than Retry-After. `undefined` when Retry-After asks for longer than retryAfterMaxMs.
 */
export function retryDelayMs(nextAttempt: number, retryAfterSeconds: number | undefined, options: RetryOptions, random: () => number): number | undefined {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, nextAttempt - 2));
  const backoff = step / 2 + random() * (step / 2);
  if (retryAfterSeconds === undefined) return Math.round(backoff);
  const retryAfterMs = retryAfterSeconds * 1000;
  if (retryAfterMs > options.retryAfterMaxMs) return undefined;
  // Retry-After is the earliest moment; a little jitter on top keeps a crowd from arriving at once.
  return Math.round(retryAfterMs + random() * Math.min(1_000, step / 2));
}

/** Retry-After as delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const dateMs = Date.parse(value);
  return Number.isNaN(dateMs) ? undefined : Math.max(0, Math.ceil((dateMs - nowMs) / 1000));
}
