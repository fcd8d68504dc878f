import net from 'node:net';

/**
 * A TCP relay between the bus and the real broker, so a test can cut the connection the way a
 * network failure or broker restart does, without the management plugin and without touching the
 * shared broker.
 */
export interface TcpProxy {
  port: number;
  /** Destroys every relayed connection, both sides. */
  dropConnections(): void;
  /** While refusing, new connections are closed at once (as if the broker were down). */
  setRefusing(refusing: boolean): void;
  /** How many clients it relays now. */
  relayedClients(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let refusing = false;
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (refusing) {
      client.destroy();
      return;
    }
    clients.add(client);
    client.on('close', () => clients.delete(client));
    const upstream = net.connect({ host: targetHost, port: targetPort });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    setRefusing: (value) => {
      refusing = value;
    },
    relayedClients: () => clients.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The broker URL with its host and port replaced by the proxy's. */
export function viaProxy(brokerUrl: string, proxy: TcpProxy): string {
  const url = new URL(brokerUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}
