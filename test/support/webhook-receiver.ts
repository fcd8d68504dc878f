/**
 * A real HTTP server standing in for a partner's webhook endpoint: it records every request (raw
 * body and headers) and answers as the test says (a status code, or never: the socket stays open),
 * plus the receiver-side checks a partner would run on the signatures.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openApiAnswerValidator } from './openapi-validator';

export interface ReceivedWebhook {
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A status code to answer with, or 'hang' to never answer. `index` counts requests from 0. */
export type Responder = (request: ReceivedWebhook, index: number) => number | 'hang';

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hooks */
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /**
   * Deliveries that do not match the document's webhooks (docs/openapi.json: event type, body,
   * headers). waitFor rejects while any is recorded, so a test that waits for a webhook the contract
   * does not describe fails in its body (close never rejects: the test's other cleanup must run).
   */
  contractMismatches: string[];
  respondWith(responder: Responder): void;
  /** Resolves once `count` requests arrived; rejects with what arrived when the time is up. */
  waitFor(count: number, timeoutMs: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  /** Check each delivery against the document's webhooks (default true; off only for deliveries of events made up by a test). */
  checkAgainstContract?: boolean;
}

export async function startWebhookReceiver(responder: Responder = () => 200, options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  let respond = responder;
  const received: ReceivedWebhook[] = [];
  const contractMismatches: string[] = [];
  const checkAgainstContract = options.checkAgainstContract ?? true;
  const mismatchError = (): Error => new Error(`webhook deliveries that docs/openapi.json does not describe:\n${contractMismatches.join('\n')}`);
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedWebhook = {
        receivedAt: Date.now(),
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = received.length;
      if (checkAgainstContract) {
        try {
          openApiAnswerValidator().validateWebhook(request);
        } catch (error) {
          contractMismatches.push(error instanceof Error ? error.message : String(error));
        }
      }
      received.push(request);
      for (const waiter of waiters.splice(0)) waiter();
      const answer = respond(request, index);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    contractMismatches,
    respondWith: (next) => {
      respond = next;
    },
    waitFor: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const check = (): void => {
          if (contractMismatches.length > 0) reject(mismatchError());
          else if (received.length >= count) resolve(received.slice());
          else if (Date.now() >= deadline) reject(new Error(`expected ${count} webhook(s) within ${timeoutMs} ms, got ${received.length}`));
          else {
            waiters.push(check);
            setTimeout(check, Math.min(100, Math.max(1, deadline - Date.now())));
          }
        };
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function constantTimeEqual(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The spec's check: X-Service-Signature = sha256=<hex HMAC-SHA256(raw body)> keyed with the secret as shown. */
export function verifiesServiceSignature(request: ReceivedWebhook, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
  return constantTimeEqual(header(request.headers, 'x-service-signature'), expected);
}

/** The Standard Webhooks check: one of the space-separated v1 signatures of `${id}.${timestamp}.${body}` matches. */
export function verifiesStandardSignature(request: ReceivedWebhook, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${header(request.headers, 'webhook-id')}.${header(request.headers, 'webhook-timestamp')}.${request.body}`;
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  return header(request.headers, 'webhook-signature')
    .split(' ')
    .some((candidate) => constantTimeEqual(candidate, expected));
}
