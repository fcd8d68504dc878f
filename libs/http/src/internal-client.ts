import http from 'node:http';
import https from 'node:https';
import { currentLogContext } from '@pwa/logging';
import { currentTraceparent } from '@pwa/telemetry';
import { requestIdHeader, traceparentHeader } from './request-id';

/*
 * The one client for JSON over HTTP between our own services (quotes, collections and
 * disbursements calling the wallet and quotes).
 *
 * Why node:http with a keep-alive Agent, and neither global fetch nor undici:
 * - Global fetch spent 230-345 µs of CPU per internal call in the profiles (WHATWG Request,
 *   Headers and streams around every call); http.request on a keep-alive Agent spent 45-65 µs,
 *   which is what the gateway's upstream client already uses.
 * - undici's request() would be as cheap, but undici 7 needs Node >= 20.18.1 while the project
 *   supports Node >= 20.11, and node:http is already the well-kept library doing the hard part
 *   (connection pooling, keep-alive, HTTP parsing). What is written here is only the policy: a
 *   deadline that covers the whole exchange, a bound on the answer's size, JSON in and out, and
 *   transport failures sorted by whether the request can have reached the upstream.
 *
 * Nothing is retried and no circuit breaker is applied here: whether a call may be repeated, and
 * what an upstream's failure means, is the caller's decision.
 */

/**
 * Internal answers are JSON documents of bounded size; anything larger is a fault, not a payload.
 * The largest is a consumed bulk quote: 1,000 items with the longest externalIds and notes the
 * contract allows (up to about 1.3 MB in UTF-8), hence 4 MB.
 */
const responseBodyMaxBytes = 4 * 1024 * 1024;
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

/** One client (and one keep-alive socket pool) per upstream service. */
export function createInternalJsonClient(options: InternalJsonClientOptions): InternalJsonClient {
  const base = new URL(options.baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const maxSockets = options.maxSockets ?? defaultMaxSockets;
  const agent = new transport.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const target: Target = { transport, agent, base, basePath: base.pathname.replace(/\/+$/, '') };
  return {
    postJson: (path, body, callOptions) => send(target, 'POST', path, Buffer.from(JSON.stringify(body)), callOptions),
    getJson: (path, callOptions) => send(target, 'GET', path, undefined, callOptions),
    close: () => agent.destroy(),
  };
}

interface Target {
  transport: typeof http | typeof https;
  agent: http.Agent;
  base: URL;
  basePath: string;
}

function send(target: Target, method: string, path: string, payload: Buffer | undefined, options: InternalCallOptions): Promise<InternalJsonResponse> {
  const { timeoutMs } = options;
  if (!(timeoutMs > 0)) return Promise.reject(new InternalTransportError('timeout', undefined, `no time left for ${method} ${path}; not sent`));
  const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  const requestId = options.requestId ?? currentLogContext()?.requestId;
  if (requestId !== undefined && requestId !== '') headers[requestIdHeader] = requestId;
  // With tracing on, the HTTP instrumentation replaces it with its client span's; with tracing off
  // it still hands the trace on, so the upstream's log lines share the trace id.
  const traceparent = currentTraceparent();
  if (traceparent !== undefined) headers[traceparentHeader] = traceparent;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: InternalTransportError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const { base, transport, agent } = target;
    const outgoing = transport.request(
      { protocol: base.protocol, hostname: base.hostname, port: base.port, path: `${target.basePath}${path}`, method, headers, agent },
      (incoming) => {
        const chunks: Buffer[] = [];
        let receivedBytes = 0;
        incoming.on('data', (chunk: Buffer) => {
          receivedBytes += chunk.length;
          if (receivedBytes <= responseBodyMaxBytes) {
            chunks.push(chunk);
            return;
          }
          fail(new InternalTransportError('response_too_large', undefined, `answer to ${method} ${path} larger than ${responseBodyMaxBytes} bytes`));
          outgoing.destroy();
        });
        incoming.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(responseOf(incoming.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        });
        incoming.on('error', (error) => fail(transportErrorOf(error, method, path)));
      },
    );
    // A timer of our own rather than AbortSignal.timeout: it is cleared as soon as the answer is in,
    // and destroying the request frees (never pools) a socket that may still carry a late answer.
    const timer = setTimeout(() => {
      fail(new InternalTransportError('timeout', undefined, `no complete answer to ${method} ${path} within ${timeoutMs} ms`));
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error) => fail(transportErrorOf(error, method, path)));
    outgoing.end(payload);
  });
}

function responseOf(status: number, text: string): InternalJsonResponse {
  if (text.length === 0) return { status, body: undefined, text };
  try {
    return { status, body: JSON.parse(text) as unknown, text };
  } catch {
    return { status, body: undefined, text };
  }
}

function transportErrorOf(error: Error, method: string, path: string): InternalTransportError {
  const systemCode = (error as { code?: unknown }).code;
  const code = typeof systemCode === 'string' ? systemCode : undefined;
  const kind = code !== undefined && notConnectedCodes.has(code) ? 'not_connected' : 'connection_lost';
  return new InternalTransportError(kind, code, `${method} ${path} failed: ${code ?? error.message}`, { cause: error });
}
