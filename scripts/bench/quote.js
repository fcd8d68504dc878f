// Quote benchmark: POST /partner/v1/{disbursement,collection}/quote through the gateway (HTTPS,
// bearer token, partner check, Redis rate limit) into quotes and the wallet, next to the raw cost
// of the same database work (scripts/bench/quote-raw.js: the same statements on the same pools,
// without HTTP), measured in one run, interleaved (raw, gateway, raw, gateway), with the same
// connections and duration.
//
// The stack is started fresh on free ports with a throw-away database: auth, wallet, quotes and
// the gateway as real processes (collections, disbursements and webhooks are not needed: their
// URLs point at free ports nobody listens on). One partner with a rate limit that never trips,
// funded in both currencies; N Platinum users with both wallets credited; Platinum limits raised
// so that no limit can refuse (a quote consumes no budget anyway, see services/wallet/README.md).
// Requests are spread round-robin over every user x type x currency, so no single row is hot.
//
// Before measuring, a check: the same number of quotes through the gateway and through the raw
// script must touch the wallet's and quotes' tables the same number of times
// (pg_stat_user_tables), or the raw figure would not be the cost of the same work.
'use strict';
const crypto = require('node:crypto');
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { readSettings } = require('../lib/settings');
const { checkServers, describeUnreachable } = require('../lib/preflight');
const { ensureLocalhostCertificate } = require('../lib/local-files');
const { ProcessGroup, describeEnding } = require('../lib/process-group');
const { waitUntilReady, request, sleep } = require('../lib/http');
const { freePorts } = require('../lib/ports');
const stack = require('../lib/stack');
const { cliEntryOf, runOperatorCliOrThrow } = require('../lib/operator-cli');
const { measure } = require('./measure');
const { cpuMeter, databaseBackendPids } = require('./cpu');
const { stopBenchStack, describeDeath, summarise, format } = require('./gateway');

const partnerRateLimitPerMinute = 1_000_000_000;
const quoteTypes = ['disbursement', 'collection'];
/** Amounts well inside every bound and the Platinum per-transaction limit; minor units as strings. */
const quoteAmounts = { USD: { api: 25, minor: '2500' }, LRD: { api: 4625, minor: '462500' } };
const partnerFunding = { USD: '1000000.00', LRD: '185000000.00' };
const userCredit = { USD: '100000.00', LRD: '18500000.00' };
const raisedLimit = '1000000000.00';
const raisedCount = '999999999';
/** Postgres flushes an idle backend's table counters within 10 s (PGSTAT_IDLE_INTERVAL). */
const statsFlushWaitMs = 11_500;
const cliParallelism = 4;

function quoteDatabaseUrl(settings, env, databaseName = 'partner_wallet_bench_quote') {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/** Runs fn over items with at most `limit` at a time (the CLIs are processes; two cores). */
async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Phones +2317799NNNNN: valid Liberian mobile numbers, apart from the sandbox users'. */
function benchPhone(index) {
  return `+2317799${String(index).padStart(5, '0')}`;
}

/**
 * Everything a measurement needs, started fresh: bench database, auth, wallet, quotes, gateway,
 * partner, users, limits, token, and the workload (every user x type x currency).
 * `cpuProfile` lists processes to start under --cpu-prof (profiles are written when they stop).
 * The flows benchmark (flows.js) starts the same stack with more `services` (collections,
 * disbursements), its own database, ENVIRONMENT and partner funding; the webhooks benchmark
 * (webhooks.js) adds webhooks and onboards the partner with `webhookUrl` (its local receiver).
 */
async function startQuoteStack({
  log,
  env = process.env,
  users = 16,
  cpuProfile = [],
  services = ['auth', 'wallet', 'quotes'],
  databaseName,
  environment,
  funding = partnerFunding,
  webhookUrl,
}) {
  const baseSettings = readSettings(env);
  const needed = [...services, 'gateway'];
  const notBuilt = [...stack.missingEntries(needed), ...['auth', 'wallet'].map(cliEntryOf).filter((entry) => !fs.existsSync(entry))];
  if (notBuilt.length > 0) throw new Error(`not built: ${notBuilt.join(', ')}; run npm run build`);
  const unreachable = describeUnreachable(await checkServers(baseSettings));
  if (unreachable.length > 0) throw new Error(unreachable.join('\n'));

  const portVariables = [...baseSettings.services.map((service) => service.portVariable), 'GATEWAY_PORT', 'GATEWAY_ADMIN_PORT'];
  const ports = await freePorts(portVariables.length);
  const runId = `${Date.now().toString(36)}-${process.pid}`;
  const databaseUrl = quoteDatabaseUrl(baseSettings, env, databaseName);
  const benchEnv = {
    ...env,
    ...Object.fromEntries(portVariables.map((variable, index) => [variable, String(ports[index])])),
    DATABASE_URL: databaseUrl,
    GATEWAY_HOST: '127.0.0.1',
    INTERNAL_HOST: '127.0.0.1',
    LOG_LEVEL: env.BENCH_LOG_LEVEL || 'info',
    BUS_EXCHANGE: `pwa.bench.${runId}`,
    REDIS_KEY_PREFIX: `pwa-bench:${runId}:`,
    ...(environment ? { ENVIRONMENT: environment } : {}),
  };
  const settings = readSettings(benchEnv);
  const db = require('@pwa/db');
  await db.dropDatabase(databaseUrl);
  await db.ensureDatabase(databaseUrl);
  log(`bench database ${new URL(databaseUrl).pathname.slice(1)} created`);
  if (settings.tls.generated) await ensureLocalhostCertificate(settings.tls.certFile, settings.tls.keyFile);
  const ca = fs.readFileSync(settings.caCertFile);

  const logDirectory = path.join(settings.localDir, 'logs', 'bench');
  const profileDirectory = path.join(logDirectory, 'profiles');
  let died;
  const group = new ProcessGroup({
    logOutput: 'files',
    logDirectory,
    onUnexpectedEnd: (record) => {
      died = record;
    },
  });
  const gaveUp = (record) => () => (group.isRunning(record) ? undefined : `${record.name} ${describeEnding(record)}`);
  const context = { group, databaseUrl, settings, benchEnv, runId, logDirectory, profileDirectory, died: () => died };
  // ProcessGroup runs `node <entry> ...args`: a profiled process gets the flags in the entry's place.
  const startProcess = (name, processEnv) => {
    const entry = stack.entryOf(name);
    const cwd = path.join(settings.repoRoot, 'services', name);
    if (!cpuProfile.includes(name)) return group.start(name, entry, processEnv, { cwd });
    fs.mkdirSync(profileDirectory, { recursive: true });
    return group.start(name, '--cpu-prof', processEnv, { cwd, args: ['--cpu-prof-dir', profileDirectory, '--cpu-prof-name', `${name}-${runId}.cpuprofile`, entry] });
  };
  const serviceOf = (name) => settings.services.find((service) => service.name === name);
  try {
    const authKeyEncryptionKey = crypto.randomBytes(32).toString('base64');
    // Auth seals partners' webhook signing secrets with this one (issue 5); a throw-away key per run.
    const webhookSecretSealingKey = crypto.randomBytes(32).toString('base64');
    const started = [];
    for (const name of services) {
      const service = serviceOf(name);
      started.push({ service, record: startProcess(name, stack.internalServiceEnvironment(settings, service, { authKeyEncryptionKey, webhookSecretSealingKey, env: benchEnv })) });
    }
    await Promise.all(started.map(({ service, record }) => waitUntilReady(`${service.url}/readyz`, { timeoutMs: settings.readyTimeoutMs, gaveUp: gaveUp(record) })));
    log(`${services.join(', ')} ready on ${started.map(({ service }) => service.port).join(', ')}`);

    const cliEnv = stack.operatorCliEnvironment(settings, { authKeyEncryptionKey, webhookSecretSealingKey, env: benchEnv });
    const partner = await runOperatorCliOrThrow(
      ['onboard', '--name', `Bench ${runId}`, '--permissions', 'collection,disbursement', '--status', 'active', '--rate-limit', String(partnerRateLimitPerMinute), ...(webhookUrl ? ['--webhook-url', webhookUrl] : [])],
      cliEnv,
    );

    const gateway = startProcess('gateway', stack.gatewayEnvironment(settings, { env: benchEnv }));
    await waitUntilReady(`${settings.gateway.adminUrl}/readyz`, { timeoutMs: settings.readyTimeoutMs, gaveUp: gaveUp(gateway) });
    const gatewayBaseUrl = `https://127.0.0.1:${settings.gateway.port}/api/v1`;
    log(`gateway ready on ${gatewayBaseUrl} (admin ${settings.gateway.adminUrl})`);

    const phones = Array.from({ length: users }, (_, index) => benchPhone(index + 1));
    await seed({ log, cliEnv, partnerId: partner.partnerId, phones, funding });

    const tokenResponse = await request(`${gatewayBaseUrl}/partner/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { client_id: partner.clientId, client_secret: partner.clientSecret },
      ca,
      timeoutMs: 10_000,
    });
    if (tokenResponse.status !== 200 || !tokenResponse.json || !tokenResponse.json.access_token) {
      throw new Error(`token request through the gateway failed: HTTP ${tokenResponse.status} ${tokenResponse.text.slice(0, 300)}`);
    }
    const headers = { authorization: `Bearer ${tokenResponse.json.access_token}`, 'content-type': 'application/json' };
    // Every user x type x currency; consecutive requests go to different users.
    const combinations = quoteTypes.flatMap((type) => ['LRD', 'USD'].map((currency) => ({ type, currency })));
    const workload = combinations.flatMap(({ type, currency }) =>
      phones.map((phone) => ({ type, currency, phone, amount: quoteAmounts[currency].api, amountMinor: quoteAmounts[currency].minor })),
    );
    return { ...context, ca, partner, headers, gatewayBaseUrl, workload, phones, readyAt: Date.now() };
  } catch (error) {
    await stopBenchStack(context, { log });
    if (died) error.message += `\n${describeDeath(died)}`;
    throw error;
  }
}

/** Partner funding, Platinum limits raised in every type and currency, users with both wallets credited. */
async function seed({ log, cliEnv, partnerId, phones, funding = partnerFunding }) {
  const started = Date.now();
  for (const currency of ['LRD', 'USD']) {
    await runOperatorCliOrThrow(['fund-partner', partnerId, currency, funding[currency], '--reference', 'bench'], cliEnv);
  }
  const limitKeys = quoteTypes.flatMap((type) => ['LRD', 'USD'].map((currency) => ({ type, currency })));
  await eachLimited(limitKeys, cliParallelism, ({ type, currency }) =>
    runOperatorCliOrThrow(
      [
        'set-limit', '--tier', 'Platinum', '--type', type, '--currency', currency,
        '--daily', raisedLimit, '--weekly', raisedLimit, '--monthly', raisedLimit, '--yearly', raisedLimit,
        '--per-hour-count', raisedCount, '--per-day-count', raisedCount,
      ],
      cliEnv,
    ),
  );
  await eachLimited(phones, cliParallelism, async (phone) => {
    await runOperatorCliOrThrow(['create-user', '--phone', phone, '--name', `Bench User ${phone.slice(-5)}`, '--tier', 'Platinum', '--kyc', 'approved', '--currencies', 'LRD,USD'], cliEnv);
    for (const currency of ['LRD', 'USD']) await runOperatorCliOrThrow(['credit-wallet', phone, currency, userCredit[currency]], cliEnv);
  });
  log(`seeded: partner funded, Platinum limits raised, ${phones.length} users credited (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const quotePath = (type) => `/partner/v1/${type}/quote`;
const quoteBody = (quote) => JSON.stringify({ phone: quote.phone, amount: quote.amount, currency: quote.currency });

/** One quote through the gateway, checked: 200 with success and the fee; returns the fee in minor units. */
async function quoteThroughGateway(context, quote) {
  const response = await request(`${context.gatewayBaseUrl}${quotePath(quote.type)}`, {
    method: 'POST',
    headers: context.headers,
    body: quoteBody(quote),
    ca: context.ca,
    timeoutMs: 10_000,
  });
  if (response.status !== 200 || !response.json || response.json.success !== true || typeof response.json.data.fee !== 'number') {
    throw new Error(`${quote.type} quote for ${quote.phone} in ${quote.currency} answered HTTP ${response.status} ${response.text.slice(0, 300)}`);
  }
  return String(Math.round(response.json.data.fee * 100));
}

/** Starts quote-raw.js with this stack's workload; resolves { run(options), stop() }. */
function startRawWorker(context, { log, profile = false }) {
  const workload = {
    databaseUrl: context.databaseUrl,
    poolMax: Number(context.benchEnv.DATABASE_POOL_MAX || 10),
    quoteLifetimeSeconds: Number(context.benchEnv.QUOTE_LIFETIME_SECONDS || 600),
    partnerId: context.partner.partnerId,
    quotes: context.workload,
  };
  const execArgv = profile ? ['--cpu-prof', '--cpu-prof-dir', context.profileDirectory, '--cpu-prof-name', `raw-${context.runId}.cpuprofile`] : [];
  const child = fork(path.join(__dirname, 'quote-raw.js'), [], { env: { ...process.env, BENCH_RAW_WORKLOAD: JSON.stringify(workload) }, execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
  let pending;
  let exited = false;
  const exit = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      if (pending) pending.reject(new Error(`raw worker exited (${signal || code}) during a run`));
      resolve();
    });
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`raw worker exited (${signal || code}) before it was ready`)));
    child.on('message', (message) => {
      if (message.ready) {
        resolve({
          pid: child.pid,
          run: (options) =>
            new Promise((resolveRun, rejectRun) => {
              pending = { resolve: resolveRun, reject: rejectRun };
              child.send({ cmd: 'run', ...options });
            }),
          stop: async () => {
            if (exited) return;
            if (child.connected) child.send({ cmd: 'stop' });
            const timer = setTimeout(() => {
              log(`raw worker ${child.pid} did not stop; killing it`);
              child.kill('SIGKILL');
            }, 10_000);
            await exit;
            clearTimeout(timer);
          },
        });
        return;
      }
      if (!pending) return;
      const { resolve: resolveRun, reject: rejectRun } = pending;
      pending = undefined;
      if (message.error) rejectRun(new Error(`raw worker: ${message.error}`));
      else resolveRun(message.result);
    });
  });
}

async function tableCounters(pool) {
  const result = await pool.query(
    `SELECT schemaname || '.' || relname AS name, seq_scan, coalesce(idx_scan, 0) AS idx_scan, n_tup_ins
       FROM pg_stat_user_tables WHERE schemaname IN ('wallet', 'quotes') ORDER BY 1`,
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, { seq_scan: Number(row.seq_scan), idx_scan: Number(row.idx_scan), n_tup_ins: Number(row.n_tup_ins) }]));
}

function perQuote(before, after, count) {
  const rows = {};
  for (const [name, counters] of Object.entries(after)) {
    const earlier = before[name] || { seq_scan: 0, idx_scan: 0, n_tup_ins: 0 };
    const delta = Object.fromEntries(Object.entries(counters).map(([key, value]) => [key, (value - earlier[key]) / count]));
    if (Object.values(delta).some((value) => value !== 0)) rows[name] = delta;
  }
  return rows;
}

/**
 * Issues every workload quote once through the gateway (checking each answer and learning its
 * fee), then the same quotes through the raw script, and compares what each did to the tables.
 * Also fills in each workload entry's feeMinor, which the raw INSERT needs.
 */
async function checkSameDatabaseWork(context, { log }) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: context.databaseUrl, max: 1 });
  try {
    const sinceReady = Date.now() - context.readyAt;
    if (sinceReady < statsFlushWaitMs) await sleep(statsFlushWaitMs - sinceReady);
    const rounds = 2;
    const count = context.workload.length * rounds;
    const start = await tableCounters(pool);
    for (let round = 0; round < rounds; round += 1) {
      for (const quote of context.workload) quote.feeMinor = await quoteThroughGateway(context, quote);
    }
    log(`${count} quotes through the gateway answered 200; waiting ${statsFlushWaitMs / 1000} s for Postgres to publish the table counters`);
    await sleep(statsFlushWaitMs);
    const afterGateway = await tableCounters(pool);
    const worker = await startRawWorker(context, { log });
    let raw;
    try {
      raw = await worker.run({ connections: 1, iterations: count });
    } finally {
      await worker.stop(); // its connections close, and a closing backend publishes its counters at once
    }
    if (raw.errors > 0) throw new Error(`the raw quote failed: ${raw.firstFailure}`);
    await sleep(1000);
    const afterRaw = await tableCounters(pool);
    const gateway = perQuote(start, afterGateway, count);
    const rawPerQuote = perQuote(afterGateway, afterRaw, count);
    const tables = [...new Set([...Object.keys(gateway), ...Object.keys(rawPerQuote)])].sort();
    const zero = { seq_scan: 0, idx_scan: 0, n_tup_ins: 0 };
    const rows = tables.map((name) => ({ table: name, gateway: gateway[name] || zero, raw: rawPerQuote[name] || zero }));
    const same = rows.every(({ gateway: left, raw: right }) => Object.keys(zero).every((key) => Math.abs(left[key] - right[key]) < 0.02));
    return { same, quotes: count, tables: rows };
  } finally {
    await pool.end();
  }
}

/** CPU seconds per process group over a round: the stack's processes, the raw worker, this process (autocannon), Postgres. */
function quoteCpuMeter(context, worker, monitor) {
  const pidOf = (name) => context.group.children.filter((record) => record.name === name && context.group.isRunning(record)).map((record) => record.process.pid);
  const databaseName = new URL(context.databaseUrl).pathname.slice(1);
  return cpuMeter(async () => ({
    gateway: pidOf('gateway'),
    quotes: pidOf('quotes'),
    wallet: pidOf('wallet'),
    auth: pidOf('auth'),
    raw: [worker.pid],
    'load generator': [process.pid],
    postgres: await databaseBackendPids(monitor, databaseName),
  }));
}

/** CPU milliseconds per successful quote, per process group, over the rounds of one target. */
function cpuPerQuote(results) {
  const ok = results.reduce((sum, result) => sum + result.ok, 0);
  const perGroup = {};
  for (const result of results) {
    for (const [name, seconds] of Object.entries(result.cpuSeconds || {})) perGroup[name] = (perGroup[name] || 0) + seconds;
  }
  const rows = Object.entries(perGroup)
    .map(([name, seconds]) => [name, ok > 0 ? (seconds * 1000) / ok : null])
    .filter(([, ms]) => ms !== null && ms >= 0.005);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  return { ...Object.fromEntries(rows), total };
}

/**
 * Warm-up, then the interleaved rounds: for each scenario (load: `connections`; latency:
 * `latencyConnections`) and round, raw then gateway. Resolves { load: { raw, gateway }, latency:
 * {...}, cpu: { load: { raw, gateway }, latency: {...} }, rounds }.
 */
async function measureQuotes(context, worker, options, { log }) {
  const guard = () => {
    const died = context.died();
    if (died) throw new Error(describeDeath(died));
  };
  let next = 0;
  const workload = context.workload;
  const setupRequest = (requestData) => {
    const quote = workload[next % workload.length];
    next += 1;
    requestData.path = `/api/v1${quotePath(quote.type)}`;
    requestData.body = quoteBody(quote);
    return requestData;
  };
  const targets = {
    raw: (connections, durationSeconds) => worker.run({ connections, durationSeconds }),
    gateway: (connections, durationSeconds) =>
      measure({ url: `${context.gatewayBaseUrl}${quotePath('disbursement')}`, method: 'POST', headers: context.headers, setupRequest, connections, durationSeconds }),
  };
  const { Pool } = require('pg');
  const monitor = new Pool({ connectionString: context.databaseUrl, max: 1, application_name: 'bench-cpu-monitor' });
  try {
    const meter = quoteCpuMeter(context, worker, monitor);
    log(`warm-up: ${options.warmupSeconds} s each, ${options.connections} connections`);
    for (const name of ['raw', 'gateway']) {
      await targets[name](options.connections, options.warmupSeconds);
      guard();
    }
    const scenarios = [
      { name: 'load', connections: options.connections },
      { name: 'latency', connections: options.latencyConnections },
    ];
    const rounds = [];
    const collected = { load: { raw: [], gateway: [] }, latency: { raw: [], gateway: [] } };
    for (const scenario of scenarios) {
      for (let round = 1; round <= options.rounds; round += 1) {
        for (const name of ['raw', 'gateway']) {
          await meter.start();
          const measured = await targets[name](scenario.connections, options.durationSeconds);
          const result = { ...measured, cpuSeconds: await meter.stop() };
          guard();
          rounds.push({ scenario: scenario.name, target: name, round, ...result });
          collected[scenario.name][name].push(result);
          const cpu = cpuPerQuote([result]);
          log(
            `  ${scenario.name.padEnd(7)} ${name.padEnd(7)} round ${round}: ${result.requestsPerSecond.toFixed(0)} quotes/s, ` +
              `p50 ${format(result.p50Ms)} ms, p99 ${format(result.p99Ms)} ms, CPU ${format(cpu.total)} ms/quote` +
              `${result.non2xx || result.errors ? `, non-2xx ${result.non2xx}, errors ${result.errors} (first: ${result.firstFailure})` : ''}`,
          );
        }
      }
    }
    const both = (scenario) => ({ raw: summarise(collected[scenario].raw), gateway: summarise(collected[scenario].gateway) });
    const cpu = (scenario) => ({ raw: cpuPerQuote(collected[scenario].raw), gateway: cpuPerQuote(collected[scenario].gateway) });
    return { load: both('load'), latency: both('latency'), cpu: { load: cpu('load'), latency: cpu('latency') }, rounds };
  } finally {
    await monitor.end();
  }
}

/** Starts the stack, checks, measures, and stops everything it started, whatever happens. */
async function runQuoteBenchmark(options, { log }) {
  const context = await startQuoteStack({ log, users: options.users, cpuProfile: options.cpuProfile });
  let worker;
  try {
    const sqlCheck = await checkSameDatabaseWork(context, { log });
    const verdict = sqlCheck.same ? 'same' : 'DIFFERENT';
    log(`database work per quote, gateway vs raw (${sqlCheck.quotes} quotes each): ${verdict}`);
    for (const row of sqlCheck.tables) {
      log(`  ${row.table.padEnd(24)} gateway ${JSON.stringify(row.gateway)}  raw ${JSON.stringify(row.raw)}`);
    }
    worker = await startRawWorker(context, { log, profile: options.cpuProfile.includes('raw') });
    const measured = await measureQuotes(context, worker, options, { log });
    return { measured, sqlCheck, users: options.users, quotesInRotation: context.workload.length };
  } finally {
    if (worker) await worker.stop();
    await stopBenchStack(context, { log });
    if (options.cpuProfile.length > 0) log(`CPU profiles (written as the processes stopped): ${context.profileDirectory}`);
  }
}

module.exports = { runQuoteBenchmark, startQuoteStack, checkSameDatabaseWork, measureQuotes, startRawWorker, quoteAmounts };
