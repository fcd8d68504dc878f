import CircuitBreaker from 'opossum';
import { isInternalTransportError, type InternalJsonClient, type WatchBreaker } from '@pwa/http';
import type { Logger } from '@pwa/logging';

export interface BreakerSettings {
  errorThresholdPercent: number;
  volumeThreshold: number;
  resetTimeoutMs: number;
  rollingWindowMs: number;
  /** Reports each breaker's state as `circuit_breaker_state{breaker=<upstream>}`. */
  watchBreaker?: WatchBreaker;
}

/**
 * Why an upstream gave no answer. 'circuit_open' (never sent) and 'not_delivered' (the connection
 * was refused) prove the upstream never saw the request; the others leave its fate unknown.
 */
export type UpstreamFailureReason = 'deadline_exceeded' | 'unavailable' | 'not_delivered' | 'circuit_open';

export function neverReachedUpstream(failure: UpstreamFailure): boolean {
  return failure.reason === 'circuit_open' || failure.reason === 'not_delivered';
}

export class UpstreamFailure extends Error {
  constructor(
    readonly upstream: string,
    readonly reason: UpstreamFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamFailure';
  }
}

export function isUpstreamFailure(value: unknown): value is UpstreamFailure {
  return value instanceof Error && value.name === 'UpstreamFailure';
}

/** An answer the upstream gave: its own success or its own refusal (status below 500). */
export interface UpstreamAnswer {
  status: number;
  body: unknown;
}

export interface JsonPost {
  /** Path below the upstream's base URL. */
  path: string;
  body: unknown;
  timeoutMs: number;
  requestId?: string | undefined;
}

/**
 * POSTs JSON with a deadline over the upstream's shared keep-alive client. Transport errors, an
 * expired deadline and 5xx answers are failures (UpstreamFailure); every other status is an answer
 * the caller interprets.
 */
export async function postJson(upstream: string, http: InternalJsonClient, request: JsonPost): Promise<UpstreamAnswer> {
  if (request.timeoutMs <= 0) throw new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream}: no time left for the call`);
  let response;
  try {
    response = await http.postJson(request.path, request.body, { timeoutMs: request.timeoutMs, requestId: request.requestId });
  } catch (error) {
    throw failureOf(upstream, request.timeoutMs, error);
  }
  if (response.status >= 500) throw new UpstreamFailure(upstream, 'unavailable', `${upstream} answered ${response.status}: ${response.text.slice(0, 200)}`);
  if (response.body === undefined) throw new UpstreamFailure(upstream, 'unavailable', `${upstream} answered ${response.status} without JSON`);
  return { status: response.status, body: response.body };
}

function failureOf(upstream: string, timeoutMs: number, error: unknown): UpstreamFailure {
  if (!isInternalTransportError(error)) return new UpstreamFailure(upstream, 'unavailable', `${upstream} could not be reached (transport error)`, { cause: error });
  if (error.kind === 'timeout') return new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream} did not answer within ${timeoutMs} ms`, { cause: error });
  const reason = error.requestNeverSent ? 'not_delivered' : 'unavailable';
  return new UpstreamFailure(upstream, reason, `${upstream} could not be reached (${error.systemCode ?? error.kind})`, { cause: error });
}

/**
 * Wraps a call in an opossum circuit breaker. An open breaker rejects with UpstreamFailure
 * 'circuit_open' without calling; the call's own deadline (the client's timer) bounds every attempt.
 */
export function withBreaker<A extends unknown[]>(
  upstream: string,
  call: (...args: A) => Promise<UpstreamAnswer>,
  settings: BreakerSettings,
  logger: Logger,
): { fire(...args: A): Promise<UpstreamAnswer>; shutdown(): void } {
  const breaker = new CircuitBreaker<A, UpstreamAnswer>(call, {
    name: upstream,
    timeout: false,
    errorThresholdPercentage: settings.errorThresholdPercent,
    volumeThreshold: settings.volumeThreshold,
    resetTimeout: settings.resetTimeoutMs,
    rollingCountTimeout: settings.rollingWindowMs,
  });
  breaker.on('open', () => logger.warn({ upstream }, 'circuit opened: calls fail fast'));
  breaker.on('close', () => logger.info({ upstream }, 'circuit closed'));
  settings.watchBreaker?.(upstream, breaker);
  return {
    fire: async (...args) => {
      try {
        return await breaker.fire(...args);
      } catch (error) {
        if (isUpstreamFailure(error)) throw error;
        if ((error as { code?: unknown }).code === 'EOPENBREAKER') {
          throw new UpstreamFailure(upstream, 'circuit_open', `${upstream} circuit is open`, { cause: error });
        }
        throw new UpstreamFailure(upstream, 'unavailable', `${upstream} call failed`, { cause: error });
      }
    },
    shutdown: () => breaker.shutdown(),
  };
}
