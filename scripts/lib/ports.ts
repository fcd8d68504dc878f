// Free TCP ports for processes a script starts (the benchmarks, the e2e harness), so they never
// collide with a running npm start. The ports are released before the children bind them; a race
// is possible but the child then fails loudly at listen, which the caller reports.
import net from 'node:net';

/** `count` distinct free ports, held open together until all are chosen. */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, host, () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
