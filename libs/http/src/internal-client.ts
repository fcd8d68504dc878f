import http from 'node:http';
import https from 'node:https';
import { currentLogContext } from '@pwa/logging';
import { currentTraceparent } from '@pwa/telemetry';
import { requestIdHeader, traceparentHeader } from './request-id';

/*
 * The one HTTP client between our own services: JSON calls (quotes, collections and disbursements
 * calling the wallet and quotes) and the gateway's relay of partner requests (bytes in, bytes out).
 *
 * Why node:http with a keep-alive Agent, and neither global fetch nor undici:
 * - Global fetch spent 230-345 µs of CPU per internal call in the profiles (WHATWG Request,
 *   Headers and streams around every call); http.request on a keep-alive Agent spent 45-65 µs.
 * - undici's request() would be as cheap, but undici 7 needs Node >= 20.18.1 while the project
 *   supports Node >= 20.11, and node:http is already the well-kept library doing the hard part
 *   (connection pooling, keep-alive, HTTP parsing). What is written here is only the policy: a
 *   deadline that covers the whole exchange, a bound on the answer's size, JSON in and out (or
 *   bytes, untouched, for a relay), and transport failures sorted by whether the request can have
 *   reached the upstream.
 *
 * The answer is read whole before it is handed over, so the deadline covers the body too and a
 * relay never passes on half an answer.
 *
 * Nothing is retried and no circuit breaker is applied here: whether a call may be repeated, and
 * what an upstream's failure means, is the caller's decision.
 */

/**
 * Internal answers are JSON documents of bounded size; anything larger is a fault, not a payload.
 * The largest is a consumed bulk quote: 1,000 items with the longest externalIds and notes the
 * contract allows (up to about 1.3 MB in UTF-8), hence 4 MB. A caller with a tighter bound (the
 * gateway relays at most 2 MB to a partner) passes its own per call.
 */
const internalResponseBodyMaxBytes = 4 * 1024 * 1024;
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
  /** Largest answer read, in bytes (default 4 MB); a larger one fails with `response_too_large`. */
  responseBodyMaxBytes?: number | undefined;
}

/**
 * A request sent as the caller wrote it, for a relay: its headers go out as they are (no accept,
 * request id or traceparent is added; content-length is set from the body) and its body bytes
 * are never parsed.
 */
export interface InternalRawRequest {
  method: string;
  /** Path and query below the base URL, e.g. "/partner/v1/balance?currency=KES". */
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: Buffer | undefined;
  /** Deadline for the whole exchange, as for the JSON calls. */
  timeoutMs: number;
  /** Largest answer read, in bytes (default 4 MB). */
  responseBodyMaxBytes?: number | undefined;
}

/** The upstream's answer as it came: status, headers and body bytes, whatever the status. */
export interface InternalRawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
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
  /** Sends `request` as it is and answers with the bytes that came back: the same deadline, bound and failures. */
  exchange(request: InternalRawRequest): Promise<InternalRawResponse>;
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
    postJson: (path, body, callOptions) => {
      const payload = Buffer.from(JSON.stringify(body));
      return send(target, 'POST', path, jsonHeadersOf(payload, callOptions), payload, callOptions, jsonResponseOf);
    },
    getJson: (path, callOptions) => send(target, 'GET', path, jsonHeadersOf(undefined, callOptions), undefined, callOptions, jsonResponseOf),
    exchange: (request) => {
      const { body } = request;
      const headers = body === undefined ? request.headers : { ...request.headers, 'content-length': String(body.length) };
      return send(target, request.method, request.path, headers, body, request, rawResponseOf);
    },
    close: () => agent.destroy(),
  };
}

interface Target {
  transport: typeof http | typeof https;
  agent: http.Agent;
  base: URL;
  basePath: string;
}

/** What every call is bound by: its deadline and the size of the answer it reads. */
type CallBounds = Pick<InternalCallOptions, 'timeoutMs' | 'responseBodyMaxBytes'>;

/** Turns a complete answer into what the caller gets (parsed JSON, or the bytes as they came). */
type AnswerReader<T> = (status: number, headers: http.IncomingHttpHeaders, body: Buffer) => T;

function jsonHeadersOf(payload: Buffer | undefined, options: InternalCallOptions): http.OutgoingHttpHeaders {
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
  return headers;
}

function send<T>(
  target: Target,
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders,
  payload: Buffer | undefined,
  bounds: CallBounds,
  readAnswer: AnswerReader<T>,
): Promise<T> {
  const { timeoutMs } = bounds;
  if (!(timeoutMs > 0)) return Promise.reject(new InternalTransportError('timeout', undefined, `no time left for ${method} ${path}; not sent`));
  const bodyMaxBytes = bounds.responseBodyMaxBytes ?? internalResponseBodyMaxBytes;
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
          if (receivedBytes <= bodyMaxBytes) {
            chunks.push(chunk);
            return;
          }
          fail(new InternalTransportError('response_too_large', undefined, `answer to ${method} ${path} larger than ${bodyMaxBytes} bytes`));
          outgoing.destroy();
        });
        incoming.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(readAnswer(incoming.statusCode ?? 0, incoming.headers, Buffer.concat(chunks)));
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

const rawResponseOf: AnswerReader<InternalRawResponse> = (status, headers, body) => ({ status, headers, body });

const jsonResponseOf: AnswerReader<InternalJsonResponse> = (status, _headers, body) => {
  const text = body.toString('utf8');
  if (text.length === 0) return { status, body: undefined, text };
  try {
    return { status, body: JSON.parse(text) as unknown, text };
  } catch {
    return { status, body: undefined, text };
  }
};

function transportErrorOf(error: Error, method: string, path: string): InternalTransportError {
  const systemCode = (error as { code?: unknown }).code;
  const code = typeof systemCode === 'string' ? systemCode : undefined;
  const kind = code !== undefined && notConnectedCodes.has(code) ? 'not_connected' : 'connection_lost';
  return new InternalTransportError(kind, code, `${method} ${path} failed: ${code ?? error.message}`, { cause: error });
}
