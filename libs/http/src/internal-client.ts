import { Pool, type Dispatcher } from 'undici';
import { currentLogContext } from '@pwa/logging';
import { currentTraceparent, hasActiveSpan } from '@pwa/telemetry';
import { requestIdHeader, traceparentHeader } from './request-id';

/*
 * The one client for JSON over HTTP between our own services (quotes, collections and
 * disbursements calling the wallet and quotes).
 *
 * Why undici's Pool, and neither global fetch nor node:http:
 * - Global fetch spent 230-345 µs of CPU per internal call in the profiles (WHATWG Request,
 *   Headers and streams around every call); http.request on a keep-alive Agent spent 45-65 µs
 *   (decision 0028's session), and undici's Pool.request half of http.request again: on the
 *   benchmark machine 68-74 µs against 133-143 µs per call, measured side by side against the same
 *   server (decision 0036). An internal call is made three times per disbursement flow.
 * - undici is the Node.js project's own HTTP client (the engine behind global fetch). Version 6 is
 *   the line that supports every Node the project supports (>= 20.11; undici 7 needs >= 20.18.1).
 *   It does the hard part (connection pooling, keep-alive, HTTP parsing); what is written here is
 *   only the policy: a deadline that covers the whole exchange, a bound on the answer's size, JSON
 *   in and out, and transport failures sorted by whether the request can have reached the upstream.
 *
 * Nothing is retried and no circuit breaker is applied here: whether a call may be repeated, and
 * what an upstream's failure means, is the caller's decision.
 */

/** Internal answers are small JSON documents; anything larger is a fault, not a payload. */
const responseBodyMaxBytes = 1024 * 1024;
const defaultMaxSockets = 64;

/**
 * Why no answer arrived.
 * - `timeout`: the deadline passed first; the socket was destroyed, and the upstream may or may
 *   not have acted on the request.
 * - `not_connected`: no connection was made (refused, unknown host, unreachable network), so the
 *   upstream never saw the request.
 * - `connection_lost`: the connection failed after it was made (reset, hang-up); fate unknown.
 * - `response_too_large`: the answer exceeded the size bound and was cut off.
 */
export type InternalTransportFailure = 'timeout' | 'not_connected' | 'connection_lost' | 'response_too_large';

export const internalTransportErrorCode = 'INTERNAL_HTTP_TRANSPORT';

/** The call produced no complete answer. Match it with isInternalTransportError (on `code`), not instanceof. */
export class InternalTransportError extends Error {
  readonly code = internalTransportErrorCode;

  constructor(
    readonly kind: InternalTransportFailure,
    /** The system error code behind it (ECONNREFUSED, ECONNRESET, ...), when there was one. */
    readonly systemCode: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'InternalTransportError';
  }

  /** True when the upstream cannot have received the request, so it did nothing. */
  get requestNeverSent(): boolean {
    return this.kind === 'not_connected';
  }
}

export function isInternalTransportError(error: unknown): error is InternalTransportError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === internalTransportErrorCode;
}

/** Connection errors raised before a single byte of the request can have reached the upstream. */
const notConnectedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** An answer the upstream gave, whatever its status. `body` is undefined when the text is not JSON. */
export interface InternalJsonResponse {
  status: number;
  body: unknown;
  text: string;
}

export interface InternalCallOptions {
  /** Deadline for the whole exchange (connect, send, answer read whole); at or below zero nothing is sent. */
  timeoutMs: number;
  /**
   * Passed on as x-request-id so one partner request can be followed through every service;
   * defaults to the request id of the request being handled (the log context).
   */
  requestId?: string | undefined;
}

/**
 * Every status is an answer (a 5xx too: the caller decides what it means). A call rejects with
 * InternalTransportError when no complete answer arrived, or with node's TypeError for a path it
 * will not send (unescaped characters: encode path segments with encodeURIComponent).
 */
export interface InternalJsonClient {
  /** POSTs `body` as JSON to `path` below the base URL. */
  postJson(path: string, body: unknown, options: InternalCallOptions): Promise<InternalJsonResponse>;
  /** GETs `path` below the base URL. */
  getJson(path: string, options: InternalCallOptions): Promise<InternalJsonResponse>;
  /** Destroys the pooled sockets; calls still in flight fail with `connection_lost`. */
  close(): void;
}

export interface InternalJsonClientOptions {
  /** The upstream's base URL; a path in it prefixes every call's path. */
  baseUrl: string;
  /** Most concurrent sockets to this upstream (default 64); further calls queue, still under their deadline. */
  maxSockets?: number;
}

/** One client (and one keep-alive connection pool) per upstream service. */
export function createInternalJsonClient(options: InternalJsonClientOptions): InternalJsonClient {
  const base = new URL(options.baseUrl);
  const pool = new Pool(base.origin, { connections: options.maxSockets ?? defaultMaxSockets, pipelining: 1 });
  const target: Target = { pool, basePath: base.pathname.replace(/\/+$/, '') };
  return {
    postJson: (path, body, callOptions) => send(target, 'POST', path, Buffer.from(JSON.stringify(body)), callOptions),
    getJson: (path, callOptions) => send(target, 'GET', path, undefined, callOptions),
    close: () => {
      // Calls in flight fail with connection_lost; the pool's own error on close is of no interest.
      pool.destroy().catch(() => undefined);
    },
  };
}

interface Target {
  pool: Pool;
  basePath: string;
}

async function send(target: Target, method: 'GET' | 'POST', path: string, payload: Buffer | undefined, options: InternalCallOptions): Promise<InternalJsonResponse> {
  const { timeoutMs } = options;
  if (!(timeoutMs > 0)) throw new InternalTransportError('timeout', undefined, `no time left for ${method} ${path}; not sent`);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const requestId = options.requestId ?? currentLogContext()?.requestId;
  if (requestId !== undefined && requestId !== '') headers[requestIdHeader] = requestId;
  // With tracing on, the undici instrumentation adds its client span's traceparent (a second one
  // from here would make the header invalid); with tracing off this still hands the trace on, so
  // the upstream's log lines share the trace id.
  if (!hasActiveSpan()) {
    const traceparent = currentTraceparent();
    if (traceparent !== undefined) headers[traceparentHeader] = traceparent;
  }
  // A timer of our own rather than AbortSignal.timeout: it is cleared as soon as the answer is in.
  // Aborting a request in flight makes undici destroy (never reuse) its connection, which may still
  // carry a late answer.
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  try {
    const response = await target.pool.request({ path: `${target.basePath}${path}`, method, headers, body: payload, signal: abort.signal });
    const text = await readBounded(response.body, method, path);
    return responseOf(response.statusCode, text);
  } catch (error) {
    if (timedOut) throw new InternalTransportError('timeout', undefined, `no complete answer to ${method} ${path} within ${timeoutMs} ms`, { cause: error });
    if (isInternalTransportError(error)) throw error;
    throw transportErrorOf(error, method, path);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's text, or response_too_large (the rest is discarded and the connection dropped). */
async function readBounded(body: Dispatcher.ResponseData['body'], method: string, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let receivedBytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    receivedBytes += chunk.length;
    if (receivedBytes > responseBodyMaxBytes) {
      body.destroy();
      throw new InternalTransportError('response_too_large', undefined, `answer to ${method} ${path} larger than ${responseBodyMaxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function responseOf(status: number, text: string): InternalJsonResponse {
  if (text.length === 0) return { status, body: undefined, text };
  try {
    return { status, body: JSON.parse(text) as unknown, text };
  } catch {
    return { status, body: undefined, text };
  }
}

function transportErrorOf(error: unknown, method: string, path: string): InternalTransportError {
  const systemCode = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const code = typeof systemCode === 'string' ? systemCode : undefined;
  const kind = code !== undefined && notConnectedCodes.has(code) ? 'not_connected' : 'connection_lost';
  const message = error instanceof Error ? error.message : String(error);
  return new InternalTransportError(kind, code, `${method} ${path} failed: ${code ?? message}`, { cause: error });
}
