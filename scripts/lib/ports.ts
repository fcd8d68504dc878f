// Free TCP ports for processes a script starts (the benchmarks, the e2e harness), so they never
// collide with a running npm start. The ports are released before the children bind them, so they
// are chosen where nothing else is handed ports meanwhile: below the kernel's ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range, 32768-60999 on Linux), from which every outgoing
// connection's local port and every listen(0) is taken. A port from that range, released, could be
// given to a database client's connection before the child binds it (EADDRINUSE at listen: a
// flake that CI saw). Test workers (JEST_WORKER_ID) draw from separate slices of the range.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';

const fallbackEphemeralLow = 32768;
const lowestPort = 10000;
const slices = 4;

/** The ports this process may choose from: [low, high). */
export function portRangeForThisProcess(ephemeralLow = ephemeralRangeStart(), workerId = process.env.JEST_WORKER_ID): { low: number; high: number } {
  const high = Math.max(lowestPort + slices * 1000, ephemeralLow);
  const id = Number(workerId);
  if (!Number.isInteger(id) || id < 1) return { low: lowestPort, high };
  const slice = Math.floor((high - lowestPort) / slices);
  const low = lowestPort + ((id - 1) % slices) * slice;
  return { low, high: low + slice };
}

function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low !== undefined && Number.isInteger(low) && low > lowestPort ? low : fallbackEphemeralLow;
  } catch {
    return fallbackEphemeralLow;
  }
}

function listenOn(port: number, host: string): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

/** `count` distinct free ports, held open together until all are chosen. */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const { low, high } = portRangeForThisProcess();
  const held: net.Server[] = [];
  const tried = new Set<number>();
  while (held.length < count) {
    if (tried.size >= high - low) throw new Error(`no ${count} free ports between ${low} and ${high}`);
    const port = low + randomInt(high - low);
    if (tried.has(port)) continue;
    tried.add(port);
    const server = await listenOn(port, host);
    if (server) held.push(server);
  }
  const ports = held.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
