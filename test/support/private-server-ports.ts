/** Ports and waits shared by the private servers of the fault tests (private-redis, private-postgres). */
import { freePorts } from '../../scripts/lib/ports';

/** A free port on 127.0.0.1, below the kernel's ephemeral range (scripts/lib/ports.ts says why). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('no free port');
  return port;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
