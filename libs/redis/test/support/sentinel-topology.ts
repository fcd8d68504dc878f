/**
 * A Redis Sentinel deployment of its own for one test, on 127.0.0.1 only: a primary redis-server,
 * one replica of it, and three sentinels monitoring it (quorum 2), each on a free port with a
 * temporary directory of its own and nothing kept on disk but the sentinels' config files. The
 * sentinels are Debian's `redis-sentinel` when it is installed, else `redis-server --sentinel`
 * (the same program). dispose() stops every process started here (SIGTERM, SIGKILL after a
 * bound), waits for each to exit and deletes the directory; nothing else is ever signalled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { RedisAddress } from '../../src/redis-sentinel-settings';
import { freePort, sleep } from '../../../../test/support/private-server-ports';

const startTimeoutMs = 20_000;
const haltTimeoutMs = 3_000;
const outputKeptChars = 20_000;

export interface TopologyProcess {
  /** `primary`, `replica`, `sentinel-1` … */
  role: string;
  port: number;
  /** Sends the signal and waits until the process has exited (SIGKILL after a bound). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export interface SentinelTopology {
  masterName: string;
  primary: TopologyProcess;
  replica: TopologyProcess;
  sentinels: readonly TopologyProcess[];
  /** The sentinels' addresses, as REDIS_SENTINELS would list them. */
  sentinelAddresses: readonly RedisAddress[];
  /** Runs a command on one server (or sentinel) of the topology with a short-lived client of its own. */
  query<T>(port: number, command: (client: Redis) => Promise<T>): Promise<T>;
  /** The primary's port according to the first sentinel that answers. */
  primaryPortNamedBySentinels(): Promise<number | undefined>;
  /** The processes' recent console output, for failure messages. */
  output(): string;
  /** Stops every process and deletes the directory; safe to call twice. */
  dispose(): Promise<void>;
}

export interface SentinelTopologyOptions {
  masterName: string;
  /** `sentinel down-after-milliseconds`: how long the primary must be silent to be thought down. */
  downAfterMs: number;
  /** `sentinel failover-timeout`. */
  failoverTimeoutMs: number;
}

function sentinelProgram(configFile: string): { command: string; args: string[] } {
  const installed = (process.env.PATH ?? '').split(path.delimiter).some((directory) => directory !== '' && existsSync(path.join(directory, 'redis-sentinel')));
  return installed ? { command: 'redis-sentinel', args: [configFile] } : { command: 'redis-server', args: [configFile, '--sentinel'] };
}

/** A reply as field → value, whether it came as a RESP3 map or as a flat RESP2 list. */
export function fieldsOf(reply: unknown): Map<string, unknown> {
  if (Array.isArray(reply)) {
    const fields = new Map<string, unknown>();
    for (let index = 0; index + 1 < reply.length; index += 2) fields.set(String(reply[index]), reply[index + 1]);
    return fields;
  }
  if (reply instanceof Map) return new Map([...reply.entries()].map(([key, value]) => [String(key), value]));
  return new Map(Object.entries((reply ?? {}) as Record<string, unknown>));
}

export async function startSentinelTopology(options: SentinelTopologyOptions): Promise<SentinelTopology> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pwa-sentinel-'));
  const children: { process: ChildProcess; exited: Promise<void> }[] = [];
  const outputs: { role: string; text: string }[] = [];

  const launch = (role: string, port: number, command: string, args: string[]): TopologyProcess => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { role, text: '' };
    outputs.push(output);
    const keep = (chunk: Buffer): void => {
      output.text = (output.text + chunk.toString('utf8')).slice(-outputKeptChars);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', (error) => keep(Buffer.from(`spawn failed: ${error.message}\n`)));
    children.push({ process: child, exited });
    const stop = async (signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), haltTimeoutMs);
      await exited;
      clearTimeout(killer);
    };
    return { role, port, stop };
  };

  const output = (): string => outputs.map((entry) => `--- ${entry.role}\n${entry.text.slice(-2_000)}`).join('\n');
  const query = async <T>(port: number, command: (client: Redis) => Promise<T>): Promise<T> => {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000, commandTimeout: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await command(client);
    } finally {
      client.disconnect();
    }
  };
  let disposed = false;
  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    await Promise.all(
      children.map(async ({ process: child, exited }) => {
        if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), haltTimeoutMs);
        await exited;
        clearTimeout(killer);
      }),
    );
    rmSync(directory, { recursive: true, force: true });
  };

  try {
    const serverArgs = (port: number, role: string): string[] => {
      const serverDirectory = path.join(directory, role);
      mkdirSync(serverDirectory);
      return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', serverDirectory];
    };
    const primaryPort = await freePort();
    const primary = launch('primary', primaryPort, 'redis-server', serverArgs(primaryPort, 'primary'));
    await waitFor('the primary answers PING', () => query(primaryPort, (client) => client.ping()).then((answer) => answer === 'PONG'), output);
    const replicaPort = await freePort();
    const replica = launch('replica', replicaPort, 'redis-server', [...serverArgs(replicaPort, 'replica'), '--replicaof', '127.0.0.1', String(primaryPort)]);
    await waitFor('the replica is in sync with the primary', () => query(replicaPort, (client) => client.info('replication')).then((info) => info.includes('master_link_status:up')), output);

    const sentinels: TopologyProcess[] = [];
    for (const number of [1, 2, 3]) {
      const port = await freePort();
      const sentinelDirectory = path.join(directory, `sentinel-${String(number)}`);
      mkdirSync(sentinelDirectory);
      const configFile = path.join(sentinelDirectory, 'sentinel.conf');
      writeFileSync(
        configFile,
        [
          `port ${String(port)}`,
          'bind 127.0.0.1',
          'daemonize no',
          `dir ${sentinelDirectory}`,
          `sentinel monitor ${options.masterName} 127.0.0.1 ${String(primaryPort)} 2`,
          `sentinel down-after-milliseconds ${options.masterName} ${String(options.downAfterMs)}`,
          `sentinel failover-timeout ${options.masterName} ${String(options.failoverTimeoutMs)}`,
          `sentinel parallel-syncs ${options.masterName} 1`,
          '',
        ].join('\n'),
      );
      const program = sentinelProgram(configFile);
      sentinels.push(launch(`sentinel-${String(number)}`, port, program.command, program.args));
    }
    // Every sentinel knows the replica and the two other sentinels: only then can they agree on a failover.
    for (const sentinel of sentinels) {
      await waitFor(`${sentinel.role} sees the replica and the other two sentinels`, async () => {
        const master = fieldsOf(await query(sentinel.port, (client) => client.call('SENTINEL', 'MASTER', options.masterName)));
        return Number(master.get('num-slaves')) === 1 && Number(master.get('num-other-sentinels')) === 2 && master.get('flags') === 'master';
      }, output);
    }

    return {
      masterName: options.masterName,
      primary,
      replica,
      sentinels,
      sentinelAddresses: sentinels.map((sentinel) => ({ host: '127.0.0.1', port: sentinel.port })),
      query,
      primaryPortNamedBySentinels: async () => {
        for (const sentinel of sentinels) {
          try {
            const address = await query(sentinel.port, (client) => client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', options.masterName));
            if (Array.isArray(address) && address.length === 2) return Number(address[1]);
          } catch {
            // That sentinel is not answering; ask the next.
          }
        }
        return undefined;
      },
      output,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Polls the check every 100 ms until it holds; fails, with the processes' output, after 20 s. */
async function waitFor(what: string, check: () => Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`Sentinel topology: ${what} did not happen within ${String(startTimeoutMs)} ms\n${output()}`);
}
