import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import { certificateFactsOf, readTlsPair, watchTlsFiles, type TlsCertificateFacts, type TlsFileWatch } from './tls-files';

/** The first byte of every TLS connection: a handshake record. */
const tlsHandshakeRecordType = 0x16;
/** A connection that sends nothing for this long is dropped before it is dispatched. */
const firstByteTimeoutMs = 10_000;
/** How long stop() lets in-flight requests finish before it closes their connections, unless told. */
const stopGraceMsDefault = 5_000;

export function isTlsClientHello(firstByte: number): boolean {
  return firstByte === tlsHandshakeRecordType;
}

export interface TlsDispatcherOptions {
  /** The certificate and key files, read at start and again every `intervalMs` (tls-files.ts). */
  tls: TlsFileWatch;
  /** The app, served over TLS only. */
  secureHandler: http.RequestListener;
  /** Answers requests that arrived in clear text on the same port. */
  plainHandler: http.RequestListener;
  requestTimeoutMs: number;
  /** How long stop() lets in-flight requests finish (a transfer may take its whole budget); 5 s by default. */
  stopGraceMs?: number;
}

export interface RunningDispatcher {
  port: number;
  /** The certificate served at start. */
  certificate: TlsCertificateFacts;
  stop: () => Promise<void>;
}

/** The TLS settings of every new connection; the certificate and key come from the files. */
const secureContextBase = { minVersion: 'TLSv1.2' } as const;

/**
 * One port for both kinds of client: it peeks at the first byte of each connection and hands TLS
 * handshakes to the HTTPS server and anything else to the plain handler (the gateway refuses plain
 * HTTP with the error envelope; the back-office redirects a browser to its https address and serves
 * only its probes and metrics there). A client who types http:// thus gets a readable answer
 * instead of a TLS alert or a hung connection. Shared by every service that terminates TLS itself.
 */
export async function listenTlsDispatcher(options: TlsDispatcherOptions, port: number, host: string): Promise<RunningDispatcher> {
  const pair = readTlsPair(options.tls.files);
  const secureServer = https.createServer({ ...secureContextBase, handshakeTimeout: firstByteTimeoutMs, ...pair }, options.secureHandler);
  // A renewed certificate serves new connections from the next handshake; open ones keep theirs.
  const stopWatching = watchTlsFiles(options.tls, pair, (next) => secureServer.setSecureContext({ ...secureContextBase, ...next }));
  secureServer.keepAliveTimeout = 65_000;
  secureServer.headersTimeout = 66_000;
  secureServer.requestTimeout = options.requestTimeoutMs;
  const plainServer = http.createServer(options.plainHandler);
  plainServer.requestTimeout = firstByteTimeoutMs;
  // Neither server listens itself; the dispatcher hands them sockets. Node starts tracking a
  // server's connections (idle closing, header and request timeouts) on 'listening', so say it.
  secureServer.emit('listening');
  plainServer.emit('listening');
  const sockets = new Set<Socket>();
  const dispatcher = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    dispatch(socket, secureServer, plainServer);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      dispatcher.once('error', reject);
      dispatcher.listen(port, host, () => {
        dispatcher.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    stopWatching();
    throw error;
  }
  return {
    port: (dispatcher.address() as AddressInfo).port,
    certificate: certificateFactsOf(pair.cert),
    stop: () => {
      stopWatching();
      return stopDispatcher(dispatcher, [secureServer, plainServer], sockets, options.stopGraceMs ?? stopGraceMsDefault);
    },
  };
}

function dispatch(socket: Socket, secureServer: https.Server, plainServer: http.Server): void {
  // Until a server owns the socket, its errors (a reset, say) are ours to swallow.
  const dropOnError = (): void => {
    socket.destroy();
  };
  socket.on('error', dropOnError);
  socket.setTimeout(firstByteTimeoutMs, () => {
    socket.destroy();
  });
  socket.once('readable', () => {
    const first = socket.read(1) as Buffer | null;
    if (first === null) {
      socket.destroy();
      return;
    }
    socket.unshift(first);
    socket.setTimeout(0);
    socket.off('error', dropOnError);
    const target = isTlsClientHello(first[0] ?? 0) ? secureServer : plainServer;
    target.emit('connection', socket);
  });
}

async function stopDispatcher(dispatcher: net.Server, servers: http.Server[], sockets: Set<Socket>, stopGraceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => dispatcher.close(() => resolve()));
  for (const server of servers) server.closeIdleConnections();
  const idleSweep = setInterval(() => {
    for (const server of servers) server.closeIdleConnections();
  }, 100);
  const forced = setTimeout(() => {
    for (const socket of sockets) socket.destroy();
  }, stopGraceMs);
  try {
    await closed;
  } finally {
    clearInterval(idleSweep);
    clearTimeout(forced);
    // Stops their connection-checking timers; they were never listening, so the error is expected.
    for (const server of servers) server.close(() => undefined);
  }
}
