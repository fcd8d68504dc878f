import CircuitBreaker from 'opossum';
import type { Logger } from '@pwa/logging';

export interface BreakerSettings {
  errorThresholdPercent: number;
  volumeThreshold: number;
  resetTimeoutMs: number;
  rollingWindowMs: number;
}

/**
 * Why an upstream gave no answer. 'circuit_open' (never sent) and 'not_delivered' (the connection
 * was refused) prove the upstream never saw the request; the others leave its fate unknown.
 */
export type UpstreamFailureReason = 'deadline_exceeded' | 'unavailable' | 'not_delivered' | 'circuit_open';

/** Connection errors that happen before a single byte of the request reaches the upstream. */
const notDeliveredCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function connectErrorCodeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

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
  url: string;
  body: unknown;
  timeoutMs: number;
  requestId?: string;
}

/**
 * POSTs JSON with a deadline. Transport errors, an expired deadline and 5xx answers are failures
 * (UpstreamFailure); every other status is an answer the caller interprets.
 */
export async function postJson(upstream: string, request: JsonPost): Promise<UpstreamAnswer> {
  if (request.timeoutMs <= 0) throw new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream}: no time left for the call`);
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(request.requestId === undefined ? {} : { 'x-request-id': request.requestId }),
      },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    if (timedOut) throw new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream} did not answer within ${request.timeoutMs} ms`, { cause: error });
    const code = connectErrorCodeOf(error);
    const notDelivered = code !== undefined && notDeliveredCodes.has(code);
    throw new UpstreamFailure(upstream, notDelivered ? 'not_delivered' : 'unavailable', `${upstream} could not be reached (${code ?? 'transport error'})`, { cause: error });
  }
  if (response.status >= 500) throw new UpstreamFailure(upstream, 'unavailable', `${upstream} answered ${response.status}: ${text.slice(0, 200)}`);
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch (error) {
    throw new UpstreamFailure(upstream, 'unavailable', `${upstream} answered ${response.status} without JSON`, { cause: error });
  }
}

/**
 * Wraps a call in an opossum circuit breaker. An open breaker rejects with UpstreamFailure
 * 'circuit_open' without calling; the call's own deadline (AbortSignal) bounds every attempt.
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
