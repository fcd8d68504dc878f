// Small HTTP(S) helpers for the scripts: one request with a deadline, and polling a readiness URL.
import http from 'node:http';
import https from 'node:https';

const requestTimeoutMs = 3000;

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown;
  /** Trusted certificate for HTTPS. */
  ca?: string | Buffer;
  timeoutMs?: number;
  /** Without one every request has a connection of its own; with one (keep-alive) it reuses them. */
  agent?: http.Agent | false;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Sends one request and resolves its answer. Rejects on network errors and on timeout. */
export function request(rawUrl: string, { method = 'GET', headers = {}, body, ca, timeoutMs = requestTimeoutMs, agent = false }: RequestOptions = {}): Promise<Answer> {
  const url = new URL(rawUrl);
  const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const options: https.RequestOptions = {
    method,
    headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
    timeout: timeoutMs,
    agent,
    ...(ca ? { ca } : {}),
  };
  return new Promise((resolve, reject) => {
    const onResponse = (response: http.IncomingMessage): void => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: parseJson(text) });
      });
      response.on('error', reject);
    };
    const outgoing = url.protocol === 'https:' ? https.request(url, options, onResponse) : http.request(url, options, onResponse);
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${rawUrl} timed out after ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    if (payload) outgoing.write(payload);
    outgoing.end();
  });
}

/** The value of a JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON object's fields, or undefined for anything else (arrays, strings, nothing). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  timeoutMs: number;
  /** A reason to stop waiting at once (the process behind the URL died, say), or undefined. */
  gaveUp?: () => string | undefined;
  intervalMs?: number;
}

/** Polls url until it answers 200. Rejects after timeoutMs, or as soon as `gaveUp()` gives a reason. Resolves the milliseconds it took. */
export async function waitUntilReady(url: string, { timeoutMs, gaveUp = () => undefined, intervalMs = 100 }: WaitOptions): Promise<number> {
  const startedAt = Date.now();
  let lastProblem = 'no answer yet';
  for (;;) {
    const reason = gaveUp();
    if (reason) throw new Error(reason);
    try {
      const response = await request(url, { timeoutMs: 2000 });
      if (response.status === 200) return Date.now() - startedAt;
      lastProblem = `HTTP ${response.status} ${response.text.slice(0, 300)}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    if (Date.now() - startedAt > timeoutMs) {
      throw new Error(`${url} not ready after ${Math.round(timeoutMs / 1000)} s (last: ${lastProblem})`);
    }
    await sleep(intervalMs);
  }
}
