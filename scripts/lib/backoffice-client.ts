// The back-office API as the operator CLI calls it (decision 0072): a person's personal token as
// a bearer, over HTTPS only, trusting the local stack's certificate for a local address and the
// system's authorities otherwise. The token is only ever put in the Authorization header: never in
// an error, a log line or the output.
import fs from 'node:fs';
import { request, type Answer } from './http';

/** The API's refusal as it answered it (`code` and `message`), or the CLI's own when it had no answer. */
export class BackofficeRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface BackofficeClientOptions {
  /** https://host:port of the back-office (no path). */
  baseUrl: string;
  /** The person's pwabo_… secret. */
  token: string;
  /** The certificate to trust; undefined uses the system's authorities. */
  ca?: string | Buffer;
  timeoutMs?: number;
}

export interface BackofficeClient {
  get(path: string, query?: Record<string, string | undefined>): Promise<unknown>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<unknown>;
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<unknown>;
}

const localHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for the loopback addresses the local stack's certificate names. */
export function isLocalAddress(baseUrl: string): boolean {
  return localHosts.has(new URL(baseUrl).hostname);
}

/** The certificate to trust for this address: the local stack's file for a local one, else none (the system's CAs). */
export function trustFor(baseUrl: string, localCaFile: string): Buffer | undefined {
  if (!isLocalAddress(baseUrl)) return undefined;
  return fs.existsSync(localCaFile) ? fs.readFileSync(localCaFile) : undefined;
}

export function backofficeClient({ baseUrl, token, ca, timeoutMs = 30_000 }: BackofficeClientOptions): BackofficeClient {
  const origin = new URL(baseUrl).origin;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };

  async function send(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<unknown> {
    let answer: Answer;
    try {
      answer = await request(`${origin}${path}`, {
        method,
        headers: { ...headers, ...extraHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body,
        ...(ca ? { ca } : {}),
        timeoutMs,
      });
    } catch (error) {
      // Node's network errors name the address, never the headers.
      throw new BackofficeRefusal('UNREACHABLE', `The back-office at ${origin} did not answer: ${(error as Error).message}`, 0);
    }
    return dataOf(answer);
  }

  return {
    get: (path, query = {}) => send('GET', `${path}${queryString(query)}`),
    post: (path, body, extraHeaders) => send('POST', path, body, extraHeaders),
    put: (path, body, extraHeaders) => send('PUT', path, body, extraHeaders),
  };
}

function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The envelope's data on success; the envelope's code and message as a refusal otherwise. */
function dataOf(answer: Answer): unknown {
  const envelope = (answer.json ?? {}) as { success?: boolean; data?: unknown; code?: unknown; message?: unknown };
  if (answer.status >= 200 && answer.status < 300 && envelope.success !== false) return envelope.data ?? null;
  const code = typeof envelope.code === 'string' ? envelope.code : `HTTP_${answer.status}`;
  const message = typeof envelope.message === 'string' ? envelope.message : `The back-office answered ${answer.status}`;
  throw new BackofficeRefusal(code, message, answer.status);
}
