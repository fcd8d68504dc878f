/** Ports and waits shared by the private servers of the fault tests (private-redis, private-postgres). */
import net from 'node:net';

/** A free port on 127.0.0.1 (the kernel's choice, released at once for the server to take). */
export async function freePort(): Promise<number> {
  const server = await new Promise<net.Server>((resolve, reject) => {
    const candidate = net.createServer();
    candidate.once('error', reject);
    candidate.listen(0, '127.0.0.1', () => resolve(candidate));
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
