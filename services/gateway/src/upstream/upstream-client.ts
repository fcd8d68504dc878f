import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';

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

/** Internal responses are small JSON documents; anything larger is a fault, not a payload to relay. */
const responseBodyMaxBytes = 1024 * 1024;

export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): void;
}

/**
 * An HTTP client for one internal service over keep-alive connections (undici's Pool: half the CPU
 * of node:http per call, decision 0036). The response is read whole before it is relayed, so the
 * deadline covers the body too and a partner never receives half an answer. Requests are never
 * retried here: most are not idempotent.
 */
export function createUpstreamClient(baseUrl: string, options: { maxSockets: number }): UpstreamClient {
  const base = new URL(baseUrl);
  const pool = new Pool(base.origin, { connections: options.maxSockets, pipelining: 1 });
  const basePath = base.pathname.replace(/\/+$/, '');
  return {
    send: (request) => sendOnce(pool, `${basePath}${request.path}`, request),
    close: () => {
      pool.destroy().catch(() => undefined);
    },
  };
}

async function sendOnce(pool: Pool, path: string, request: UpstreamRequest): Promise<UpstreamResponse> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await pool.request({
      path,
      method: request.method as 'GET' | 'POST',
      headers: request.headers,
      body: request.body,
      signal,
    });
    const chunks: Buffer[] = [];
    let receivedBytes = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      receivedBytes += chunk.length;
      if (receivedBytes > responseBodyMaxBytes) {
        response.body.destroy();
        throw new UpstreamTransportError('response_too_large', `response larger than ${responseBodyMaxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
  } catch (error) {
    throw transportErrorOf(error, signal, request.timeoutMs);
  }
}

function transportErrorOf(error: unknown, signal: AbortSignal, timeoutMs: number): UpstreamTransportError {
  if (isUpstreamTransportError(error)) return error;
  if (signal.aborted) return new UpstreamTransportError('timeout', `no complete response within ${timeoutMs} ms`, { cause: error });
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return new UpstreamTransportError('unreachable', typeof code === 'string' ? code : message, { cause: error });
}
