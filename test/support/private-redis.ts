/**
 * A private Redis server for the fault tests, so the shared Redis (127.0.0.1:6379) is never
 * stopped. It is the installed redis-server as a child process on a free port of its own, keeping
 * nothing on disk (no RDB, no AOF) in a temporary directory of its own. The test stops it (SIGTERM,
 * as a service manager would) and starts it again on the same port; dispose() stops it for good and
 * deletes the directory. Only the process started here is ever signalled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, sleep } from './private-server-ports';

const serverBinary = 'redis-server';
const bootTimeoutMs = 10_000;
const haltTimeoutMs = 5_000;

export interface PrivateRedisServer {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, SIGKILL after a bound) and waits until its process has exited. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and waits until it answers PING. */
  start(): Promise<void>;
  /** How many keys start with the prefix now (a stack's REDIS_KEY_PREFIX, say). */
  countKeys(prefix: string): Promise<number>;
  /** Stops the server and removes its directory. */
  dispose(): Promise<void>;
  /** The server's console output so far, for failure messages. */
  output(): string;
}

export async function startPrivateRedisServer(): Promise<PrivateRedisServer> {
  const port = await freePort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pwa-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', directory];
  let output = '';
  let server: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let disposed = false;

  const launch = async (): Promise<void> => {
    const child = spawn(serverBinary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server = child;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitUntilAnswering(port, child, () => output);
  };

  const stop = async (): Promise<void> => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), haltTimeoutMs);
    await exited;
    clearTimeout(killer);
  };

  await launch().catch(async (error: unknown) => {
    server?.kill('SIGKILL');
    await exited;
    rmSync(directory, { recursive: true, force: true });
    throw error;
  });

  return {
    url: `redis://127.0.0.1:${String(port)}`,
    port,
    stop,
    // A test that outlived its timeout must not start a server its afterAll already disposed of.
    start: () => (disposed ? Promise.reject(new Error('private Redis already disposed')) : launch()),
    countKeys: async (prefix) => {
      const client = new Redis(`redis://127.0.0.1:${String(port)}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await client.connect();
        let cursor = '0';
        let count = 0;
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          count += keys.length;
          cursor = next;
        } while (cursor !== '0');
        return count;
      } finally {
        client.disconnect();
      }
    },
    dispose: async () => {
      disposed = true;
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
    output: () => output,
  };
}

async function waitUntilAnswering(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + bootTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`private Redis exited while starting:\n${output().slice(-2_000)}`);
    if (await answersPing(port)) return;
    await sleep(100);
  }
  throw new Error(`private Redis did not answer PING within ${bootTimeoutMs} ms:\n${output().slice(-2_000)}`);
}

/** One PING in the inline protocol; true when the answer is +PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let answer = '';
    const finish = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) finish(answer.startsWith('+PONG'));
    });
  });
}
