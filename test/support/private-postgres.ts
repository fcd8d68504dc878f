/**
 * A private PostgreSQL server for the fault tests, so the shared server (127.0.0.1:5432) is never
 * restarted. The installed binaries (/usr/lib/postgresql/<newest>/bin) make a cluster with initdb
 * in a temporary directory (trust authentication, or passwords over TCP; superuser `postgres`), and `postgres` runs it as
 * a child process on a free port, with its socket in that directory. PostgreSQL refuses to run as
 * root, so when the tests run as root both run as the machine's `postgres` user, which then owns
 * the directory. stop() is a fast shutdown (SIGINT: sessions are ended, a checkpoint is written),
 * what a service manager's restart does; start() starts the same cluster again on the same port.
 * Only the process started here (and its own process group) is ever signalled.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, sleep } from './private-server-ports';

const installRoot = '/usr/lib/postgresql';
const initTimeoutMs = 60_000;
const bootTimeoutMs = 30_000;
const haltTimeoutMs = 15_000;

export interface PrivatePostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Fast shutdown (SIGINT), SIGKILL of its process group after a bound; waits until it has exited. */
  stop(): Promise<void>;
  /** Starts the cluster again on the same port and waits until it accepts a query. */
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  dispose(): Promise<void>;
  /** The server's console output so far, for failure messages. */
  output(): string;
}

export interface PrivatePostgresOptions {
  /**
   * Connections over TCP authenticate with a password (scram-sha-256), as a production server's
   * do, and `url` carries the superuser's; the socket stays trust. Off: trust everywhere.
   */
  passwordAuthentication?: boolean;
  /** More server settings (`name=value`, each a `-c`): WAL archiving, say. */
  settings?: readonly string[];
  /**
   * Instead of initdb, the data directory is a copy of this one (a base backup); `prepare` then
   * writes into it what the start needs (recovery.signal and the recovery settings).
   */
  fromDataDirectory?: { source: string; prepare(dataDirectory: string): void };
}

/** Runs a PostgreSQL client program of the server's version (pg_basebackup, say) as the user the server runs as. */
export function runPostgresProgram(program: string, args: readonly string[]): Promise<string> {
  const identity = runAsIdentity();
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(newestBinaryDirectory(), program), args, { ...identity, stdio: ['ignore', 'pipe', 'pipe'], timeout: initTimeoutMs });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${program} exited ${String(code)}:\n${output.slice(-2_000)}`))));
  });
}

/** A directory the server's user owns (the server writes WAL archives into it; pg_basebackup writes there). */
export function directoryForTheServer(prefix: string): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
  const identity = runAsIdentity();
  if (identity) chownSync(directory, identity.uid, identity.gid);
  return directory;
}

export async function startPrivatePostgresServer(options: PrivatePostgresOptions = {}): Promise<PrivatePostgresServer> {
  const binaries = newestBinaryDirectory();
  const port = await freePort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pwa-postgres-'));
  const dataDirectory = path.join(directory, 'data');
  const identity = runAsIdentity();
  if (identity) chownSync(directory, identity.uid, identity.gid);
  const superuserPassword = options.passwordAuthentication ? randomBytes(12).toString('hex') : undefined;
  const url = `postgres://postgres${superuserPassword === undefined ? '' : `:${superuserPassword}`}@127.0.0.1:${String(port)}/postgres`;
  let output = '';
  let server: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let disposed = false;

  const launch = async (): Promise<void> => {
    const settings = ['listen_addresses=127.0.0.1', 'max_connections=200', 'fsync=off', 'full_page_writes=off', 'shared_buffers=64MB', ...(options.settings ?? [])];
    const args = ['-D', dataDirectory, '-p', String(port), '-k', directory, ...settings.flatMap((setting) => ['-c', setting])];
    // Its own process group, so a server that will not halt can be killed with its backends.
    const child = spawn(path.join(binaries, 'postgres'), args, { ...identity, cwd: directory, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server = child;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitUntilAccepting(url, child, () => output);
  };

  const stop = async (): Promise<void> => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    const killer = setTimeout(() => killGroup(child), haltTimeoutMs);
    await exited;
    clearTimeout(killer);
  };

  try {
    if (options.fromDataDirectory === undefined) await initialiseCluster(binaries, dataDirectory, directory, identity, superuserPassword);
    else {
      cpSync(options.fromDataDirectory.source, dataDirectory, { recursive: true });
      options.fromDataDirectory.prepare(dataDirectory);
      if (identity) execFileSync('chown', ['-R', `${identity.uid}:${identity.gid}`, dataDirectory]);
      chmodSync(dataDirectory, 0o700);
    }
    await launch();
  } catch (error) {
    if (server) killGroup(server);
    await exited;
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    port,
    stop,
    // A test that outlived its timeout must not start a server its afterAll already disposed of.
    start: () => (disposed ? Promise.reject(new Error('private PostgreSQL already disposed')) : launch()),
    dispose: async () => {
      disposed = true;
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
    output: () => output,
  };
}

/** The bin directory of the newest installed major version. */
function newestBinaryDirectory(): string {
  const versions = existsSync(installRoot) ? readdirSync(installRoot).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((left, right) => Number(right) - Number(left)).find((version) => existsSync(path.join(installRoot, version, 'bin', 'initdb')));
  if (newest === undefined) throw new Error(`no PostgreSQL server binaries under ${installRoot}`);
  return path.join(installRoot, newest, 'bin');
}

/** The `postgres` user's ids when running as root (initdb and postgres refuse root); nothing otherwise. */
function runAsIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function initialiseCluster(binaries: string, dataDirectory: string, cwd: string, identity: { uid: number; gid: number } | undefined, superuserPassword: string | undefined): Promise<void> {
  const authentication = ['--auth=trust'];
  if (superuserPassword !== undefined) {
    const passwordFile = path.join(cwd, 'superuser-password');
    writeFileSync(passwordFile, `${superuserPassword}\n`, { mode: 0o600 });
    if (identity) chownSync(passwordFile, identity.uid, identity.gid);
    authentication.splice(0, 1, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${passwordFile}`);
  }
  const args = ['-D', dataDirectory, '-U', 'postgres', ...authentication, '--encoding=UTF8', '--locale=C', '--no-sync'];
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(binaries, 'initdb'), args, { ...identity, cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: initTimeoutMs });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb exited ${String(code)}:\n${output.slice(-2_000)}`))));
  });
}

async function waitUntilAccepting(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + bootTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`private PostgreSQL exited while starting:\n${output().slice(-2_000)}`);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch {
      await sleep(100);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`private PostgreSQL did not accept a query within ${bootTimeoutMs} ms:\n${output().slice(-2_000)}`);
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
