// The shared reference flow (../shared/bench/reference-flow): run.sh, whose one JSON line is this
// machine's throughput for the minimal quote + transfer flow at this moment (our figures are quoted
// next to it, and as ratios to it, so runs on a noisy shared machine can be compared); and, for the
// open-loop mode, its gateway and service started on their own for our load generator to drive.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase } from '@pwa/db';
import { asRecord, parseJson } from '../lib/http';
import { freePorts } from '../lib/ports';
import { repoRoot, type Environment } from '../lib/settings';
import type { LocalStack } from '../lib/stack';

/** The reference's own secret for its HS256 tokens (its load.js signs with the same default). */
const referenceJwtSecret = 'ref-flow-secret';
/** What the reference's package.json pins, which its processes load from our node_modules. */
const referenceDependencies = ['express', 'pg', 'ioredis'];

/** run.sh's JSON line. */
export interface ReferenceResult {
  flows_per_s: number;
  req_p50_ms: number;
  req_p99_ms: number;
  non2xx: number;
  errors: number;
  [field: string]: unknown;
}

export function referenceScript(env: Environment = process.env): string {
  const directory = path.resolve(repoRoot, env.BENCH_REFERENCE_DIR || '../shared/bench/reference-flow');
  return path.join(directory, 'run.sh');
}

export function referenceAvailable(env: Environment = process.env): boolean {
  return fs.existsSync(referenceScript(env));
}

function isReferenceResult(value: unknown): value is ReferenceResult {
  const record = asRecord(value);
  return record !== undefined && ['flows_per_s', 'req_p50_ms', 'req_p99_ms', 'non2xx', 'errors'].every((field) => typeof record[field] === 'number');
}

/**
 * Runs run.sh and resolves its JSON line. Its progress lines (stderr) are passed through with a
 * prefix. `sourceAccounts` sets REF_SOURCE_ACCOUNTS (how many of its partner's accounts the
 * transfers debit; 1 is the hot-row case); without it, env's own value (or run.sh's default, 1000).
 */
export function runReference({ connections, durationSeconds, env = process.env, sourceAccounts }: { connections: number; durationSeconds: number; env?: NodeJS.ProcessEnv; sourceAccounts?: number }): Promise<ReferenceResult> {
  const script = referenceScript(env);
  const childEnv = sourceAccounts === undefined ? env : { ...env, REF_SOURCE_ACCOUNTS: String(sourceAccounts) };
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, String(connections), String(durationSeconds)], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    readline.createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`  reference | ${line}\n`));
    child.once('error', reject);
    child.once('close', (code) => {
      const parsed = parseJson(stdout.trim().split('\n').pop() ?? '');
      if (code !== 0 || !isReferenceResult(parsed)) {
        reject(new Error(`reference flow failed (exit ${String(code)}); output: ${stdout.trim().slice(0, 500) || '(none)'}`));
        return;
      }
      resolve(parsed);
    });
  });
}

/** A reference result is valid only when every request succeeded (its README says so). */
export function referenceIsValid(result: ReferenceResult): boolean {
  return result.non2xx === 0 && result.errors === 0;
}

/**
 * The reference's dependencies for its gateway and service. Its own node_modules is used when it
 * has one; otherwise ours, when they are the very versions its package.json pins (NODE_PATH), so
 * nothing is installed into the shared directory. Throws when neither fits.
 */
function referenceModulePath(directory: string): string | undefined {
  if (fs.existsSync(path.join(directory, 'node_modules'))) return undefined;
  const versionOf = (file: string, name?: string): unknown => {
    const json = asRecord(parseJson(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''));
    return name === undefined ? json?.version : asRecord(json?.dependencies)?.[name];
  };
  const ours = path.join(repoRoot, 'node_modules');
  const different = referenceDependencies.filter((name) => versionOf(path.join(ours, name, 'package.json')) !== versionOf(path.join(directory, 'package.json'), name));
  if (different.length > 0) {
    throw new Error(`the reference has no node_modules and ours differ from its pins (${different.join(', ')}); run: bash ${referenceScript()} once (it installs them)`);
  }
  return ours;
}

/** The statements of a plain SQL file (no function bodies): comment lines dropped, split at each line-ending semicolon. */
function sqlStatements(text: string): string[] {
  const code = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  return code
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** An HS256 token for the reference's partner 3, as its load.js makes one. */
function referenceToken(): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = encode({ alg: 'HS256', typ: 'JWT' });
  const claims = encode({ sub: 'partner-3', partnerId: 3, exp: Math.floor(Date.now() / 1000) + 3600 });
  return `${head}.${claims}.${crypto.createHmac('sha256', referenceJwtSecret).update(`${head}.${claims}`).digest('base64url')}`;
}

export interface ReferenceServers {
  /** http://127.0.0.1:<its gateway's port> */
  baseUrl: string;
  headers: Record<string, string>;
  processNames: string[];
  databaseName: string;
  /** Its processes stop with the stack's; the database goes after them. */
  dropDatabase(): Promise<void>;
}

/**
 * Starts the reference's gateway and service (not its load generator) as processes of `stack`, on
 * free ports, against a database of its own (`databaseName`, schema reloaded) on the stack's
 * PostgreSQL server and its Redis, for a load generator of ours to drive (the open-loop mode).
 */
export async function startReferenceServers({ stack, databaseName, log }: { stack: LocalStack; databaseName: string; log: (line: string) => void }): Promise<ReferenceServers> {
  const directory = path.dirname(referenceScript());
  const modulePath = referenceModulePath(directory);
  const databaseUrl = new URL(stack.databaseUrl);
  databaseUrl.pathname = `/${databaseName}`;
  await dropDatabase(databaseUrl.toString());
  await ensureDatabase(databaseUrl.toString());
  const client = new Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try {
    // One statement at a time, as psql sends them (its VACUUM cannot run inside one multi-statement query).
    for (const statement of sqlStatements(fs.readFileSync(path.join(directory, 'schema.sql'), 'utf8'))) await client.query(statement);
  } finally {
    await client.end();
  }
  const [gatewayPort = 0, servicePort = 0] = await freePorts(2);
  const env = {
    PATH: process.env.PATH ?? '',
    PGHOST: databaseUrl.hostname.replace(/^\[(.*)\]$/, '$1'),
    PGPORT: databaseUrl.port || '5432',
    PGUSER: decodeURIComponent(databaseUrl.username) || 'postgres',
    ...(databaseUrl.password ? { PGPASSWORD: decodeURIComponent(databaseUrl.password) } : {}),
    PGDATABASE: databaseName,
    REDIS_URL: stack.settings.redisUrl,
    REF_GATEWAY_PORT: String(gatewayPort),
    REF_SERVICE_PORT: String(servicePort),
    ...(modulePath ? { NODE_PATH: modulePath } : {}),
  };
  const processes = [
    { name: 'reference-service', entry: 'service.js', port: servicePort },
    { name: 'reference-gateway', entry: 'gateway.js', port: gatewayPort },
  ];
  await Promise.all(processes.map(({ name, entry, port }) => stack.startProcess(name, path.join(directory, entry), env, { readyUrl: `http://127.0.0.1:${port}/health`, cwd: directory })));
  log(`reference gateway and service ready on 127.0.0.1:${gatewayPort} (database ${databaseName}${modulePath ? ', modules from our node_modules' : ''})`);
  return {
    baseUrl: `http://127.0.0.1:${gatewayPort}`,
    headers: { authorization: `Bearer ${referenceToken()}` },
    processNames: processes.map(({ name }) => name),
    databaseName,
    dropDatabase: () => dropDatabase(databaseUrl.toString()),
  };
}
