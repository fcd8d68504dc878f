/**
 * A private RabbitMQ node for the broker-restart test, so the shared broker (127.0.0.1:5672) is
 * never stopped. It runs the installed server from a temporary directory of its own: its own node
 * name, AMQP and distribution ports, Mnesia and log directories, config file (only its listener)
 * and Erlang cookie (HOME), registered with the machine's epmd. The test stops and starts it; dispose()
 * stops it for good and deletes the directory. Only processes started here are ever stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect as connectAmqp } from 'amqplib';

const serverScript = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const controlScript = '/usr/lib/rabbitmq/bin/rabbitmqctl';
const bootTimeoutMs = 30_000;
const haltTimeoutMs = 15_000;

export interface PrivateRabbitNode {
  nodeName: string;
  amqpUrl: string;
  /** Stops the node gracefully (rabbitmqctl stop) and waits until its process has exited. */
  stop(): Promise<void>;
  /** Starts the node again on the same ports and data directory, and waits until it accepts AMQP. */
  start(): Promise<void>;
  /** Stops the node (killing it if it will not halt) and removes its directory. */
  dispose(): Promise<void>;
  /** The node's console output so far, for failure messages. */
  output(): string;
}

export async function startPrivateRabbitNode(): Promise<PrivateRabbitNode> {
  const id = randomBytes(4).toString('hex');
  const nodeName = `pwa-test-${id}@localhost`;
  const [amqpPort, distPort] = await freePorts(2);
  const directory = mkdtempSync(path.join(os.tmpdir(), `pwa-rabbit-${id}-`));
  for (const sub of ['home', 'mnesia', 'log']) mkdirSync(path.join(directory, sub));
  writeFileSync(path.join(directory, 'rabbitmq.conf'), `listeners.tcp.local = 127.0.0.1:${String(amqpPort)}\n`);
  writeFileSync(path.join(directory, 'enabled_plugins'), '[].\n');
  // An empty environment file: the machine's /etc/rabbitmq/rabbitmq-env.conf names the shared node.
  writeFileSync(path.join(directory, 'rabbitmq-env.conf'), '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(directory, 'home'),
    RABBITMQ_CONF_ENV_FILE: path.join(directory, 'rabbitmq-env.conf'),
    RABBITMQ_CONFIG_FILE: path.join(directory, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(directory, 'enabled_plugins'),
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_PORT: String(amqpPort),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(directory, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(directory, 'log'),
    ERL_EPMD_ADDRESS: '127.0.0.1',
  };
  const amqpUrl = `amqp://guest:guest@127.0.0.1:${String(amqpPort)}`;
  let output = '';
  let server: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let disposed = false;

  const launch = async (): Promise<void> => {
    // Its own process group, so a node that will not halt can be killed with everything it started.
    const child = spawn(serverScript, [], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server = child;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitUntilAccepting(amqpUrl, child, () => output);
  };

  const stop = async (): Promise<void> => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await runControl(env, ['-n', nodeName, 'stop']).catch(() => undefined);
    const killer = setTimeout(() => killGroup(child), haltTimeoutMs);
    await exited;
    clearTimeout(killer);
  };

  await launch().catch(async (error: unknown) => {
    if (server) killGroup(server);
    await exited;
    rmSync(directory, { recursive: true, force: true });
    throw error;
  });

  return {
    nodeName,
    amqpUrl,
    stop,
    // A test that outlived its timeout must not start a node its afterAll already disposed of.
    start: () => (disposed ? Promise.reject(new Error('private RabbitMQ node already disposed')) : launch()),
    dispose: async () => {
      disposed = true;
      await stop().catch(() => {
        if (server) killGroup(server);
      });
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
    output: () => output,
  };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

function runControl(env: Record<string, string>, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(controlScript, args, { env, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rabbitmqctl ${args.join(' ')} exited ${String(code)}`))));
  });
}

async function waitUntilAccepting(amqpUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + bootTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`private RabbitMQ node exited while booting:\n${output().slice(-2_000)}`);
    try {
      const connection = await connectAmqp(amqpUrl);
      await connection.close();
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`private RabbitMQ node did not accept AMQP within ${bootTimeoutMs} ms:\n${output().slice(-2_000)}`);
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
