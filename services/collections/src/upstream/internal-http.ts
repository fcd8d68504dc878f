import CircuitBreaker from 'opossum';
import { createInternalJsonClient, type InternalJsonClient, type WatchBreaker } from '@pwa/http';
import type { Logger } from '@pwa/logging';

export interface UpstreamSettings {
  baseUrl: string;
  timeoutMs: number;
  breaker: { errorThresholdPercent: number; volumeThreshold: number; resetTimeoutMs: number; rollingWindowMs: number };
  /** Reports the breaker's state as `circuit_breaker_state{breaker=<upstream name>}`. */
  watchBreaker?: WatchBreaker;
}

/** An answer the upstream gave (its success or its own refusal), as opposed to no answer. */
export interface UpstreamAnswer {
  status: number;
  body: unknown;
}

/** The upstream could not answer: refused, reset, too slow, 5xx, or an open breaker. */
export class UpstreamUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamUnavailableError';
  }
}

export function isUpstreamUnavailable(error: unknown): error is UpstreamUnavailableError {
  return (error as { name?: unknown } | null)?.name === 'UpstreamUnavailableError';
}

export interface InternalHttpClient {
  /** POSTs JSON; resolves the answer, or rejects with UpstreamUnavailableError. */
  post(path: string, body: unknown, requestId?: string): Promise<UpstreamAnswer>;
  shutdown(): void;
}

/**
 * JSON over internal HTTP (the shared keep-alive client of @pwa/http, with a deadline per call
 * that destroys the socket) behind one opossum breaker per upstream. Only transport failures,
 * timeouts and 5xx count against the breaker; the upstream's own 4xx refusals are answers.
 * Nothing is retried here: the callers decide (a partner request fails fast with PKC_7003; the
 * recovery worker re-drives postings).
 */
export function createInternalHttpClient(name: string, settings: UpstreamSettings, logger: Logger): InternalHttpClient {
  const http = createInternalJsonClient({ baseUrl: settings.baseUrl });
  const breaker = new CircuitBreaker<[string, unknown, string | undefined], UpstreamAnswer>(
    (path, body, requestId) => postJson(http, path, body, settings.timeoutMs, requestId),
    {
      name,
      timeout: false,
      errorThresholdPercentage: settings.breaker.errorThresholdPercent,
      volumeThreshold: settings.breaker.volumeThreshold,
      resetTimeout: settings.breaker.resetTimeoutMs,
      rollingCountTimeout: settings.breaker.rollingWindowMs,
    },
  );
  breaker.on('open', () => logger.warn({ upstream: name }, 'circuit opened: calls fail fast'));
  breaker.on('close', () => logger.info({ upstream: name }, 'circuit closed'));
  settings.watchBreaker?.(name, breaker);
  return {
    post: async (path, body, requestId) => {
      try {
        return await breaker.fire(path, body, requestId);
      } catch (error) {
        if (isUpstreamUnavailable(error)) throw error;
        throw new UpstreamUnavailableError(`${name} unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    },
    shutdown: () => {
      breaker.shutdown();
      http.close();
    },
  };
}

async function postJson(http: InternalJsonClient, path: string, body: unknown, timeoutMs: number, requestId: string | undefined): Promise<UpstreamAnswer> {
  let response;
  try {
    response = await http.postJson(path, body, { timeoutMs, requestId });
  } catch (error) {
    throw new UpstreamUnavailableError(`no answer within ${timeoutMs} ms or connection refused`, { cause: error });
  }
  if (response.status >= 500) throw new UpstreamUnavailableError(`answered ${response.status}: ${response.text.slice(0, 200)}`);
  if (response.body === undefined) throw new UpstreamUnavailableError(`answered ${response.status} without JSON`);
  return { status: response.status, body: response.body };
}
