import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

export interface UpstreamRequest {
  method: string;
  /** Path and query below the upstream's base URL, e.g. "/partner/v1/balance". */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type UpstreamFailureKind = 'unreachable' | 'timeout' | 'response_too_large';

/** The request never produced a complete response. Matched on `code`, like every error here. */
export class UpstreamTransportError extends Error {
  readonly code = 'UPSTREAM_TRANSPORT';

  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamTransportError';
  }
}

export function isUpstreamTransportError(error: unknown): error is UpstreamTransportError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'UPSTREAM_TRANSPORT';
}

/**
 * Internal responses are JSON documents of bounded size; anything larger is a fault, not a payload
 * to relay. The largest a partner gets is a 1,000-item bulk quote echoing every externalId (well
 * under 2 MB with the longest texts the contract allows).
 */
const responseBodyMaxBytes = 2 * 1024 * 1024;

export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): void;
}

/**
 * An HTTP client for one internal service over keep-alive sockets. The response is read whole
 * before it is relayed, so the deadline covers the body too and a partner never receives half an
 * answer. Requests are never retried here: most are not idempotent.
 */
export function createUpstreamClient(baseUrl: string, options: { maxSockets: number }): UpstreamClient {
  const base = new URL(baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: 32 });
  const basePath = base.pathname.replace(/\/+$/, '');
  return {
    send: (request) => sendOnce(transport, agent, base, `${basePath}${request.path}`, request),
    close: () => agent.destroy(),
  };
}

function sendOnce(
  transport: typeof http | typeof https,
  agent: http.Agent,
  base: URL,
  path: string,
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const signal = AbortSignal.timeout(request.timeoutMs);
    const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(request.body.length) };
    const outgoing = transport.request(
      { protocol: base.protocol, hostname: base.hostname, port: base.port, path, method: request.method, headers, agent, signal },
      (incoming) => {
        const chunks: Buffer[] = [];
        let receivedBytes = 0;
        incoming.on('data', (chunk: Buffer) => {
          receivedBytes += chunk.length;
          if (receivedBytes > responseBodyMaxBytes) {
            incoming.destroy(new UpstreamTransportError('response_too_large', `response larger than ${responseBodyMaxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body: Buffer.concat(chunks) }));
        incoming.on('error', (error) => reject(transportErrorOf(error, signal, request.timeoutMs)));
      },
    );
    outgoing.on('error', (error) => reject(transportErrorOf(error, signal, request.timeoutMs)));
    outgoing.end(request.body);
  });
}

function transportErrorOf(error: Error, signal: AbortSignal, timeoutMs: number): UpstreamTransportError {
  if (isUpstreamTransportError(error)) return error;
  if (signal.aborted) return new UpstreamTransportError('timeout', `no complete response within ${timeoutMs} ms`, { cause: error });
  const code = (error as { code?: unknown }).code;
  return new UpstreamTransportError('unreachable', typeof code === 'string' ? code : error.message, { cause: error });
}
