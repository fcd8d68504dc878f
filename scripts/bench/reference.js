// Runs the shared reference flow (../shared/bench/reference-flow/run.sh) and returns its one JSON
// line. Its figure is this machine's throughput for the minimal quote + transfer flow at this
// moment; our figures are quoted next to it (and as ratios to it) so runs on a noisy shared machine
// can be compared.
'use strict';
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { repoRoot } = require('../lib/settings');
const { waitUntilReady } = require('../lib/http');
const { freePorts } = require('../lib/ports');
const { describeEnding } = require('../lib/process-group');

/** The reference's own secret for its HS256 tokens (its load.js signs with the same default). */
const referenceJwtSecret = 'ref-flow-secret';
/** What the reference's package.json pins, which its processes load from our node_modules. */
const referenceDependencies = ['express', 'pg', 'ioredis'];

function referenceScript(env = process.env) {
  const directory = path.resolve(repoRoot, env.BENCH_REFERENCE_DIR || '../shared/bench/reference-flow');
  return path.join(directory, 'run.sh');
}

function referenceAvailable(env = process.env) {
  return fs.existsSync(referenceScript(env));
}

/**
 * Resolves the parsed JSON line ({ flows_per_s, req_p50_ms, req_p99_ms, non2xx, errors, ... }).
 * Its progress lines (stderr) are passed through with a prefix.
 */
function runReference({ connections, durationSeconds, env = process.env }) {
  const script = referenceScript(env);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, String(connections), String(durationSeconds)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    readline.createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`  reference | ${line}\n`));
    child.once('error', reject);
    child.once('close', (code) => {
      const line = stdout.trim().split('\n').pop() || '';
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      if (code !== 0 || !parsed || typeof parsed.flows_per_s !== 'number') {
        reject(new Error(`reference flow failed (exit ${code}); output: ${stdout.trim().slice(0, 500) || '(none)'}`));
        return;
      }
      resolve(parsed);
    });
  });
}

/** A reference result is valid only when every request succeeded (its README says so). */
function referenceIsValid(result) {
  return result.non2xx === 0 && result.errors === 0;
}

/**
 * The reference's dependencies for its gateway and service. Its own node_modules is used when it
 * has one; otherwise ours, when they are the very versions its package.json pins (NODE_PATH), so
 * nothing is installed into the shared directory. Throws when neither fits.
 */
function referenceModulePath(directory) {
  if (fs.existsSync(path.join(directory, 'node_modules'))) return undefined;
  const pinned = JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')).dependencies || {};
  const ours = path.join(repoRoot, 'node_modules');
  const different = referenceDependencies.filter((name) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(ours, name, 'package.json'), 'utf8')).version !== pinned[name];
    } catch {
      return true;
    }
  });
  if (different.length > 0) {
    throw new Error(`the reference has no node_modules and ours differ from its pins (${different.join(', ')}); run: bash ${referenceScript()} once (it installs them)`);
  }
  return ours;
}

/** The statements of a plain SQL file (no function bodies): comment lines dropped, split at each line-ending semicolon. */
function sqlStatements(text) {
  const code = text.split('\n').filter((line) => !line.trim().startsWith('--')).join('\n');
  return code.split(/;\s*$/m).map((statement) => statement.trim()).filter(Boolean);
}

/** An HS256 token for the reference's partner 3, as its load.js makes one. */
function referenceToken() {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = encode({ alg: 'HS256', typ: 'JWT' });
  const claims = encode({ sub: 'partner-3', partnerId: 3, exp: Math.floor(Date.now() / 1000) + 3600 });
  return `${head}.${claims}.${crypto.createHmac('sha256', referenceJwtSecret).update(`${head}.${claims}`).digest('base64url')}`;
}

/**
 * Starts the reference's gateway and service (not its load generator) in `group`, on free ports,
 * against a database of its own (`databaseName`, schema reloaded) on the
 * server of adminUrl and the Redis of redisUrl, for a load generator of ours to drive (the
 * open-loop mode). Resolves { baseUrl, headers, processNames, databaseName, dropDatabase }: the
 * processes stop with the group.
 */
async function startReferenceServers({ group, adminUrl, redisUrl, databaseName, log, readyTimeoutMs = 30_000 }) {
  const directory = path.dirname(referenceScript());
  const modulePath = referenceModulePath(directory);
  const db = require('@pwa/db');
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;
  await db.dropDatabase(databaseUrl.toString());
  await db.ensureDatabase(databaseUrl.toString());
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try {
    // One statement at a time, as psql sends them (its VACUUM cannot run inside one multi-statement query).
    for (const statement of sqlStatements(fs.readFileSync(path.join(directory, 'schema.sql'), 'utf8'))) await client.query(statement);
  } finally {
    await client.end();
  }
  const [gatewayPort, servicePort] = await freePorts(2);
  const env = {
    PATH: process.env.PATH ?? '',
    PGHOST: databaseUrl.hostname.replace(/^\[(.*)\]$/, '$1'),
    PGPORT: databaseUrl.port || '5432',
    PGUSER: decodeURIComponent(databaseUrl.username) || 'postgres',
    ...(databaseUrl.password ? { PGPASSWORD: decodeURIComponent(databaseUrl.password) } : {}),
    PGDATABASE: databaseName,
    REDIS_URL: redisUrl,
    REF_GATEWAY_PORT: String(gatewayPort),
    REF_SERVICE_PORT: String(servicePort),
    ...(modulePath ? { NODE_PATH: modulePath } : {}),
  };
  const started = [
    { record: group.start('reference-service', path.join(directory, 'service.js'), env, { cwd: directory }), port: servicePort },
    { record: group.start('reference-gateway', path.join(directory, 'gateway.js'), env, { cwd: directory }), port: gatewayPort },
  ];
  await Promise.all(
    started.map(({ record, port }) =>
      waitUntilReady(`http://127.0.0.1:${port}/health`, {
        timeoutMs: readyTimeoutMs,
        gaveUp: () => (group.isRunning(record) ? undefined : `${record.name} ${describeEnding(record)}`),
      }),
    ),
  );
  log(`reference gateway and service ready on 127.0.0.1:${gatewayPort} (database ${databaseName}${modulePath ? ', modules from our node_modules' : ''})`);
  return {
    baseUrl: `http://127.0.0.1:${gatewayPort}`,
    headers: { authorization: `Bearer ${referenceToken()}` },
    processNames: started.map(({ record }) => record.name),
    databaseName,
    // The processes stop with the group; the database goes after them.
    dropDatabase: () => db.dropDatabase(databaseUrl.toString()),
  };
}

module.exports = { runReference, referenceAvailable, referenceScript, referenceIsValid, startReferenceServers };
