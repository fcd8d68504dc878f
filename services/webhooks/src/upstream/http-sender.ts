import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { addressProblem, urlProblem, type TargetPolicy } from '@pwa/contracts';

export type SendResult =
  | { kind: 'response'; statusCode: number; latencyMs: number }
  | { kind: 'error'; error: string; latencyMs: number };

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** One deadline for lookup, connect, TLS, sending and the response's status line. */
  timeoutMs: number;
  policy: TargetPolicy;
}

class TargetRefusedError extends Error {
  readonly code = 'TARGET_REFUSED';
}

/**
 * POSTs one webhook attempt. Never throws: every failure is a result with a short error text.
 * Where the request may go is decided when connecting, on the address actually used: the lookup
 * refuses a name that resolves to any forbidden address (so DNS rebinding between a check and the
 * connect cannot reach inside), an IP literal is checked before connecting, and the socket's peer
 * is checked again once connected. Redirects are never followed (node's http does not).
 */
export function sendWebhook(options: SendOptions): Promise<SendResult> {
  const startedAt = process.hrtime.bigint();
  const elapsedMs = (): number => Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6);
  const refused = urlProblem(options.url, options.policy);
  if (refused !== undefined) return Promise.resolve({ kind: 'error', error: refused, latencyMs: 0 });
  const url = new URL(options.url);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) !== 0) {
    const literalProblem = addressProblem(hostname, options.policy);
    if (literalProblem !== undefined) return Promise.resolve({ kind: 'error', error: literalProblem, latencyMs: 0 });
  }
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (result: SendResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
      // A fresh connection per attempt: a pooled socket would skip the connect-time address check.
      agent: false,
      lookup: guardedLookup(options.policy),
    });
    const deadline = setTimeout(() => {
      request.destroy(new Error(`deadline of ${options.timeoutMs} ms exceeded`));
    }, options.timeoutMs);
    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const peer = socket.remoteAddress;
        const problem = peer === undefined ? 'target refused: unknown peer address' : addressProblem(peer, options.policy);
        if (problem !== undefined) request.destroy(new TargetRefusedError(problem));
      });
    });
    request.on('response', (response) => {
      settle({ kind: 'response', statusCode: response.statusCode ?? 0, latencyMs: elapsedMs() });
      // The body is not needed; drain it within the same deadline, then let the socket go.
      response.resume();
      response.on('end', () => clearTimeout(deadline));
      response.on('error', () => undefined);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      settle({ kind: 'error', error: describeError(error), latencyMs: elapsedMs() });
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(options.body);
  });
}

/** dns.lookup, refusing the whole name when any of its addresses is forbidden. */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const problem = addresses.map((entry) => addressProblem(entry.address, policy)).find((found) => found !== undefined);
      if (problem !== undefined) {
        callback(new TargetRefusedError(problem), '', 0);
        return;
      }
      const [first] = addresses;
      if (!first) {
        callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      if (lookupOptions.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function describeError(error: NodeJS.ErrnoException): string {
  const text = error instanceof TargetRefusedError ? error.message : error.code ? `${error.code}: ${error.message}` : error.message;
  return text.slice(0, 500);
}
