import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  close: () => Promise<void>;
}

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
  return { server, port: address.port, close: () => closeServer(server) };
}

/** Stops accepting connections, closes idle keep-alive sockets, and waits for in-flight requests. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  });
}
