import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the internal services a service under test calls (quotes, the wallet): one
 * listener on a free port of 127.0.0.1 that reads each JSON request whole and lets the test answer
 * it by the provider's contract (libs/contracts internal), or leave it unanswered, as a provider
 * that hangs would.
 */

export interface StandInRequest<Body> {
  method: string;
  /** The path and query, as the request line has them. */
  url: string;
  /** The request's JSON body; {} when it had none. */
  body: Body;
}

/** Answers with this status and JSON body (nothing, once the caller has gone). */
export type StandInSend = (status: number, answer: unknown) => void;

/** Answers one request by calling send, or leaves it unanswered by not calling it. */
export type StandInAnswer<Body = Record<string, string>> = (request: StandInRequest<Body>, send: StandInSend) => void;

export interface JsonStandIn {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Closes the listener and every connection, answered or not. */
  stop(): Promise<void>;
}

export async function startJsonStandIn<Body = Record<string, string>>(answer: StandInAnswer<Body>): Promise<JsonStandIn> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Body;
      const send: StandInSend = (status, json) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      };
      answer({ method: req.method ?? 'GET', url: req.url ?? '', body }, send);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
