import { createCircuitBreaker, isBreakerRefusal, type BreakerSettings } from './circuit-breaker';
import type { WatchBreaker } from './breaker-metrics';
import {
  createInternalJsonClient,
  isInternalTransportError,
  type InternalJsonClient,
  type InternalRawRequest,
  type InternalRawResponse,
} from './internal-client';
import type { Logger } from '@pwa/logging';

/**
 * Why an upstream gave no answer. 'circuit_open' (never sent) and 'not_delivered' (no connection
 * was made) prove the upstream never saw the request; 'deadline_exceeded' and 'unavailable' leave
 * its fate unknown, which is what a caller that moves money must act on (disbursements cancel the
 * transfer id to learn it).
 */
export type UpstreamFailureReason = 'deadline_exceeded' | 'unavailable' | 'not_delivered' | 'circuit_open';

export const upstreamFailureCode = 'UPSTREAM_FAILURE';

/** The one failure type of a call to another service. Match it with isUpstreamFailure (on `code`). */
export class UpstreamFailure extends Error {
  readonly code = upstreamFailureCode;

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
  return typeof value === 'object' && value !== null && (value as { code?: unknown }).code === upstreamFailureCode;
}

/** True when the upstream cannot have received the request, so it did nothing. */
export function neverReachedUpstream(failure: UpstreamFailure): boolean {
  return failure.reason === 'circuit_open' || failure.reason === 'not_delivered';
}

/** An answer the upstream gave: its own success or its own refusal (any status below 500). */
export interface UpstreamAnswer {
  status: number;
  body: unknown;
}

export interface UpstreamCall {
  /** Deadline of this call (connect, send, answer read whole); at or below zero nothing is sent. */
  timeoutMs: number;
  /** x-request-id to pass on; defaults to the request being handled (traceparent always follows). */
  requestId?: string | undefined;
}

/** How a service reaches one upstream: where, the deadline of each call, and its breaker. */
export interface UpstreamSettings {
  baseUrl: string;
  /** Deadline of every call (a caller with a budget of its own passes less per call). */
  timeoutMs: number;
  breaker: BreakerSettings;
  /** Reports the breaker as `circuit_breaker_state{breaker=<upstream>}`. */
  watchBreaker?: WatchBreaker | undefined;
}

export interface UpstreamClientOptions {
  /** The upstream's name (wallet, quotes, ...): the breaker's label and every failure's `upstream`. */
  name: string;
  baseUrl: string;
  breaker: BreakerSettings;
  logger: Logger;
  watchBreaker?: WatchBreaker | undefined;
  /** Most concurrent sockets (default 64). */
  maxSockets?: number;
  /** The log line's words when the breaker opens (what callers see meanwhile). */
  openedMessage?: string;
}

export interface UpstreamClient {
  readonly name: string;
  /**
   * POSTs JSON behind the upstream's breaker. Resolves every answer below 500; rejects with
   * UpstreamFailure when there was none (transport failure, deadline, 5xx, non-JSON, open breaker).
   */
  post(path: string, body: unknown, call: UpstreamCall): Promise<UpstreamAnswer>;
  /** GETs `path` behind the upstream's breaker, with the same rules as post. */
  get(path: string, call: UpstreamCall): Promise<UpstreamAnswer>;
  /**
   * The same without the breaker: for a call that removes doubt (cancelling a transfer id), which
   * must be tried even while ordinary calls fail fast.
   */
  postWithoutBreaker(path: string, body: unknown, call: UpstreamCall): Promise<UpstreamAnswer>;
  /**
   * Sends `request` as it is (its own headers and body bytes) behind the same breaker and answers
   * with the bytes that came back, for a relay that passes an upstream's answer on unchanged. Every
   * status is an answer, a 5xx too (it is the upstream's own envelope); it rejects with
   * UpstreamFailure only when no complete answer arrived (transport failure, deadline, an answer
   * over `responseBodyMaxBytes`, open breaker), and only those count against the breaker.
   */
  relay(request: InternalRawRequest): Promise<InternalRawResponse>;
  shutdown(): void;
}

/**
 * One client per upstream: the keep-alive client of internal-client.ts with a deadline per call,
 * behind one opossum breaker. For JSON calls, transport failures, deadlines, 5xx and non-JSON
 * answers count against the breaker and the upstream's own refusals (4xx) are answers; a relay
 * counts only the failures that left it nothing to relay. Nothing is retried here: whether a call
 * may be repeated, and what a failure means, is the caller's decision.
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const http = createInternalJsonClient({ baseUrl: options.baseUrl, ...(options.maxSockets === undefined ? {} : { maxSockets: options.maxSockets }) });
  const name = options.name;
  // The breaker guards attempts rather than one kind of call, so JSON calls and relays to one
  // upstream share its breaker, each deciding what counts as a failure.
  const breaker = createCircuitBreaker({
    name,
    call: (attempt: () => Promise<unknown>) => attempt(),
    settings: options.breaker,
    logger: options.logger,
    watchBreaker: options.watchBreaker,
    ...(options.openedMessage === undefined ? {} : { openedMessage: options.openedMessage }),
  });
  const guarded = async <T>(attempt: () => Promise<T>): Promise<T> => {
    try {
      return (await breaker.fire(attempt)) as T;
    } catch (error) {
      if (isUpstreamFailure(error)) throw error;
      if (isBreakerRefusal(error)) throw new UpstreamFailure(name, 'circuit_open', `${name} circuit is open`, { cause: error });
      throw new UpstreamFailure(name, 'unavailable', `${name} call failed`, { cause: error });
    }
  };
  return {
    name,
    post: (path, body, call) => guarded(() => callOnce(name, http, { method: 'POST', path, body, call })),
    get: (path, call) => guarded(() => callOnce(name, http, { method: 'GET', path, call })),
    postWithoutBreaker: (path, body, call) => callOnce(name, http, { method: 'POST', path, body, call }),
    relay: (request) => guarded(() => relayOnce(name, http, request)),
    shutdown: () => {
      breaker.shutdown();
      http.close();
    },
  };
}

interface OutgoingCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  call: UpstreamCall;
}

async function callOnce(upstream: string, http: InternalJsonClient, request: OutgoingCall): Promise<UpstreamAnswer> {
  const { call } = request;
  if (!(call.timeoutMs > 0)) throw new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream}: no time left for the call`);
  const options = { timeoutMs: call.timeoutMs, requestId: call.requestId };
  let response;
  try {
    response = request.method === 'GET' ? await http.getJson(request.path, options) : await http.postJson(request.path, request.body, options);
  } catch (error) {
    throw failureOf(upstream, call.timeoutMs, error);
  }
  if (response.status >= 500) throw new UpstreamFailure(upstream, 'unavailable', `${upstream} answered ${response.status}: ${response.text.slice(0, 200)}`);
  if (response.body === undefined) throw new UpstreamFailure(upstream, 'unavailable', `${upstream} answered ${response.status} without JSON`);
  return { status: response.status, body: response.body };
}

async function relayOnce(upstream: string, http: InternalJsonClient, request: InternalRawRequest): Promise<InternalRawResponse> {
  if (!(request.timeoutMs > 0)) throw new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream}: no time left for the call`);
  try {
    return await http.exchange(request);
  } catch (error) {
    throw failureOf(upstream, request.timeoutMs, error);
  }
}

function failureOf(upstream: string, timeoutMs: number, error: unknown): UpstreamFailure {
  if (!isInternalTransportError(error)) return new UpstreamFailure(upstream, 'unavailable', `${upstream} could not be reached (transport error)`, { cause: error });
  if (error.kind === 'timeout') return new UpstreamFailure(upstream, 'deadline_exceeded', `${upstream} did not answer within ${timeoutMs} ms`, { cause: error });
  const reason = error.requestNeverSent ? 'not_delivered' : 'unavailable';
  return new UpstreamFailure(upstream, reason, `${upstream} could not be reached (${error.systemCode ?? error.kind})`, { cause: error });
}
