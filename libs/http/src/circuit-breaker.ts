import CircuitBreaker from 'opossum';
import type { Logger } from '@pwa/logging';
import type { WatchBreaker } from './breaker-metrics';

/** When a breaker opens and how it tries again; one set of keys (BREAKER_*) for every service. */
export interface BreakerSettings {
  errorThresholdPercent: number;
  volumeThreshold: number;
  resetTimeoutMs: number;
  rollingWindowMs: number;
}

export interface CircuitBreakerOptions<A extends unknown[], R> {
  /** The upstream's name: the breaker's name, its log field and its `breaker` label. */
  name: string;
  call: (...args: A) => Promise<R>;
  settings: BreakerSettings;
  logger: Logger;
  /** Reports the breaker as `circuit_breaker_state{breaker=<name>}` (createCircuitBreakerStates). */
  watchBreaker?: WatchBreaker | undefined;
  /** The log line's words when the breaker opens (what callers see meanwhile). */
  openedMessage?: string;
}

export type GuardedCall<A extends unknown[], R> = CircuitBreaker<A, R>;

/**
 * The one way a service puts an upstream behind an opossum circuit breaker. The breaker has no
 * timeout of its own: every call carries its own deadline (the HTTP client's timer), so a slow
 * call is a failure the breaker counts, and routes of one upstream may have different deadlines.
 * Opening and closing are logged once each.
 */
export function createCircuitBreaker<A extends unknown[], R>(options: CircuitBreakerOptions<A, R>): GuardedCall<A, R> {
  const breaker = new CircuitBreaker<A, R>(options.call, {
    name: options.name,
    timeout: false,
    errorThresholdPercentage: options.settings.errorThresholdPercent,
    volumeThreshold: options.settings.volumeThreshold,
    resetTimeout: options.settings.resetTimeoutMs,
    rollingCountTimeout: options.settings.rollingWindowMs,
  });
  breaker.on('open', () => options.logger.warn({ upstream: options.name }, options.openedMessage ?? 'circuit opened: calls fail fast'));
  breaker.on('close', () => options.logger.info({ upstream: options.name }, 'circuit closed'));
  options.watchBreaker?.(options.name, breaker);
  return breaker;
}

/** Codes opossum rejects with when it refuses a call without trying the upstream. */
const refusedWithoutTrying = new Set(['EOPENBREAKER', 'ESEMLOCKED', 'ESHUTDOWN']);

/** True when the breaker refused the call without trying it (open, or shut down). */
export function isBreakerRefusal(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && refusedWithoutTrying.has(code);
}
