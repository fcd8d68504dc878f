import type { FetchAnswer, FetchFunction, FetchRequest } from '../../src';

/** One scripted answer: a status, a JSON body (or text) and headers; or a thrown network error. */
export type Scripted = { status: number; body?: unknown; text?: string; headers?: Record<string, string> } | { networkError: string } | { hang: true };

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * A stand-in for the gateway: answers each request from the script for its path (in order; the
 * last one repeats), and the token endpoint with a new token each time unless scripted.
 */
export class FakeApi {
  readonly sent: SentRequest[] = [];
  private readonly scripts = new Map<string, Scripted[]>();
  private tokenCount = 0;
  tokenLifetimeSeconds = 3600;

  script(path: string, ...answers: Scripted[]): this {
    this.scripts.set(path, answers);
    return this;
  }

  sentTo(path: string): SentRequest[] {
    return this.sent.filter((request) => request.path === path);
  }

  readonly fetch: FetchFunction = async (url: string, init: FetchRequest): Promise<FetchAnswer> => {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/^\/api\/v1/, '') + parsed.search;
    this.sent.push({ method: init.method, path, headers: init.headers, body: init.body === undefined ? undefined : JSON.parse(init.body) });
    await Promise.resolve();
    const queue = this.scripts.get(path) ?? this.scripts.get(path.split('?')[0] ?? path);
    const next = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    if (next === undefined && path === '/partner/auth/token') {
      this.tokenCount += 1;
      return answer({ status: 200, body: { access_token: `token-${this.tokenCount}`, token_type: 'Bearer', expires_in: this.tokenLifetimeSeconds } });
    }
    if (next === undefined) throw new Error(`no script for ${path}`);
    if ('networkError' in next) throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(next.networkError), { code: next.networkError }) });
    if ('hang' in next) {
      return new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    }
    return answer(next);
  };
}

function answer(scripted: { status: number; body?: unknown; text?: string; headers?: Record<string, string> }): FetchAnswer {
  const headers = new Map(Object.entries({ 'x-request-id': 'req-1', ...scripted.headers }).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    status: scripted.status,
    headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
    text: () => Promise.resolve(scripted.text ?? JSON.stringify(scripted.body)),
  };
}

/** A clock whose sleeps only record their length and move time on. */
export function fakeClock(start = 1_700_000_000_000): { now: () => number; sleep: (ms: number) => Promise<void>; random: () => number; sleeps: number[]; advance: (ms: number) => void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export const ok = (data: unknown, status = 200): Scripted => ({ status, body: { success: true, data } });
export const refusal = (status: number, code: string, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}): Scripted => ({
  status,
  body: { success: false, code, message: `refused with ${code}`, ...fields },
  headers,
});
