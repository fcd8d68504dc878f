import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets requests in flight finish, and closes keep-alive sockets as they go idle. */
  close: () => Promise<void>;
}

/**
 * How long close waits for requests in flight before it cuts their connections: the longest request
 * any service serves is a transfer (25 s budget + 4 s cancellation). A process stop is bounded
 * sooner by SHUTDOWN_TIMEOUT_MS.
 */
export const inFlightGraceMsDefault = 30_000;
/** How often close looks for keep-alive sockets that went idle after their last answer. */
const idleSweepIntervalMs = 100;

/** Listens on host:port (port 0 picks a free one) and resolves once listening. */
export async function listen(app: Express | ((...args: never[]) => void), port: number, host: string): Promise<RunningServer> {
  const { createServer } = await import('node:http');
  const server = createServer(app as Parameters<typeof createServer>[1] & object);
  return listenServer(server, port, host);
}

export async function listenServer(server: Server, port: number, host: string): Promise<RunningServer> {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return { server, port: address.port, close: () => (closing ??= closeServer(server)) };
}

/**
 * Stops accepting connections and waits for the requests in flight. Idle keep-alive sockets are
 * closed at once and the busy ones as soon as their answer is out (answers sent meanwhile say
 * `Connection: close`), so a client holding a pooled connection cannot keep the server open.
 * After `inFlightGraceMs` whatever is still open is cut.
 */
export function closeServer(server: Server, inFlightGraceMs = inFlightGraceMsDefault): Promise<void> {
  return new Promise((resolve) => {
    const sayClose = (_request: unknown, response: { headersSent: boolean; setHeader: (name: string, value: string) => unknown }): void => {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    };
    server.prependListener('request', sayClose);
    const idleSweep = setInterval(() => server.closeIdleConnections(), idleSweepIntervalMs);
    const forced = setTimeout(() => server.closeAllConnections(), inFlightGraceMs);
    idleSweep.unref();
    forced.unref();
    server.close(() => {
      clearInterval(idleSweep);
      clearTimeout(forced);
      server.off('request', sayClose);
      resolve();
    });
    server.closeIdleConnections();
  });
}
