// Gateway benchmark: the same GET /partner/v1/balance sent straight to a trivial upstream and
// through the gateway (HTTPS, Bearer token verified, partner status checked, rate limited in Redis),
// measured in one run, interleaved, with the same connections and duration.
//
// Two load shapes, because they answer different questions:
//   load     many connections, as fast as the machine allows: requests per second (capacity).
//            Latency here is mostly queueing, so it is reported but not judged.
//   latency  one connection, one request at a time (default): latency is service time, with no
//            queue in front of it, and the "gateway adds < 2 ms at p50" target is judged on it.
// autocannon's own rate option is not used for the latency run: it sends each second's budget as
// a burst at the start of the second, which measures queueing again.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { readSettings } = require('../lib/settings');
const { checkServers, describeUnreachable } = require('../lib/preflight');
const { ensureLocalhostCertificate } = require('../lib/local-files');
const { ProcessGroup, describeEnding, tailOfFile } = require('../lib/process-group');
const { waitUntilReady, request } = require('../lib/http');
const { freePorts } = require('../lib/ports');
const stack = require('../lib/stack');
const { cliIsBuilt, runOperatorCliOrThrow } = require('../lib/operator-cli');
const { measure } = require('./measure');

const benchPath = '/partner/v1/balance';
const partnerRateLimitPerMinute = 1_000_000_000;

function benchDatabaseUrl(settings, env) {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  const url = new URL(settings.databaseUrl);
  url.pathname = '/partner_wallet_bench';
  return url.toString();
}

/** Everything a measurement needs, started fresh: bench database, upstream, auth, gateway, token. */
async function startBenchStack({ log, env = process.env }) {
  const baseSettings = readSettings(env);
  const missing = stack.missingEntries(['auth', 'gateway']);
  if (missing.length > 0 || !cliIsBuilt()) {
    const notBuilt = [...missing, ...(cliIsBuilt() ? [] : ['services/auth/dist/cli/main.js'])];
    throw new Error(`not built: ${notBuilt.join(', ')}; run npm run build`);
  }
  const unreachable = describeUnreachable(await checkServers(baseSettings));
  if (unreachable.length > 0) throw new Error(unreachable.join('\n'));

  const [upstreamPort, authPort, gatewayPort, gatewayAdminPort] = await freePorts(4);
  const runId = `${Date.now().toString(36)}-${process.pid}`;
  const databaseUrl = benchDatabaseUrl(baseSettings, env);
  const benchEnv = {
    ...env,
    DATABASE_URL: databaseUrl,
    AUTH_PORT: String(authPort),
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_ADMIN_PORT: String(gatewayAdminPort),
    GATEWAY_HOST: '127.0.0.1',
    LOG_LEVEL: env.BENCH_LOG_LEVEL || 'info',
    BUS_EXCHANGE: `pwa.bench.${runId}`,
    REDIS_KEY_PREFIX: `pwa-bench:${runId}:`,
  };
  const settings = readSettings(benchEnv);
  const db = require('@pwa/db');
  await db.dropDatabase(databaseUrl);
  await db.ensureDatabase(databaseUrl);
  log(`bench database ${new URL(databaseUrl).pathname.slice(1)} created`);
  if (settings.tls.generated) await ensureLocalhostCertificate(settings.tls.certFile, settings.tls.keyFile);
  const ca = fs.readFileSync(settings.caCertFile);

  const logDirectory = path.join(settings.localDir, 'logs', 'bench');
  let died;
  const group = new ProcessGroup({
    logOutput: 'files',
    logDirectory,
    onUnexpectedEnd: (record) => {
      died = record;
    },
  });
  const gaveUp = (record) => () => (group.isRunning(record) ? undefined : `${record.name} ${describeEnding(record)}`);
  const context = { group, databaseUrl, settings, benchEnv, runId, logDirectory, died: () => died };
  try {
    const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
    const upstream = group.start('upstream', path.join(__dirname, 'upstream.js'), { ...env }, { args: [String(upstreamPort)] });
    await waitUntilReady(`${upstreamUrl}/readyz`, { timeoutMs: 10_000, gaveUp: gaveUp(upstream) });

    const authKeyEncryptionKey = crypto.randomBytes(32).toString('base64');
    // Auth seals partners' webhook signing secrets with this one (issue 5); a throw-away key per run.
    const webhookSecretSealingKey = crypto.randomBytes(32).toString('base64');
    const authService = settings.services.find((service) => service.name === 'auth');
    const auth = group.start('auth', stack.entryOf('auth'), stack.internalServiceEnvironment(settings, authService, { authKeyEncryptionKey, webhookSecretSealingKey, env: benchEnv }), {
      cwd: path.join(settings.repoRoot, 'services', 'auth'),
    });
    await waitUntilReady(`${authService.url}/readyz`, { timeoutMs: settings.readyTimeoutMs, gaveUp: gaveUp(auth) });
    log(`auth ready on ${authService.url}`);

    const cliEnv = stack.operatorCliEnvironment(settings, { authKeyEncryptionKey, webhookSecretSealingKey, env: benchEnv });
    const partner = await runOperatorCliOrThrow(
      ['onboard', '--name', `Bench ${runId}`, '--permissions', 'collection,disbursement', '--status', 'active', '--rate-limit', String(partnerRateLimitPerMinute)],
      cliEnv,
    );

    const upstreamUrls = Object.fromEntries(settings.services.filter((service) => service.name !== 'auth').map((service) => [service.urlVariable, upstreamUrl]));
    const gateway = group.start('gateway', stack.entryOf('gateway'), { ...stack.gatewayEnvironment(settings, { env: benchEnv }), ...upstreamUrls }, {
      cwd: path.join(settings.repoRoot, 'services', 'gateway'),
    });
    await waitUntilReady(`${settings.gateway.adminUrl}/readyz`, { timeoutMs: settings.readyTimeoutMs, gaveUp: gaveUp(gateway) });
    const gatewayBaseUrl = `https://127.0.0.1:${gatewayPort}/api/v1`;
    log(`gateway ready on ${gatewayBaseUrl}`);

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
    const headers = { authorization: `Bearer ${tokenResponse.json.access_token}` };
    const targets = {
      direct: { url: `${upstreamUrl}${benchPath}`, headers },
      gateway: { url: `${gatewayBaseUrl}${benchPath}`, headers },
    };
    for (const [name, target] of Object.entries(targets)) {
      const answer = await request(target.url, { headers: target.headers, ca, timeoutMs: 10_000 });
      if (answer.status !== 200 || !answer.json || answer.json.success !== true) {
        throw new Error(`${name} ${target.url} answered HTTP ${answer.status} ${answer.text.slice(0, 300)} (expected 200 with success: true)`);
      }
    }
    return { ...context, targets };
  } catch (error) {
    await stopBenchStack(context, { log });
    if (died) error.message += `\n${describeDeath(died)}`;
    throw error;
  }
}

function describeDeath(record) {
  const tail = tailOfFile(record.logFile, 15);
  return [`${record.name} ${describeEnding(record)}. Last lines of ${record.logFile}:`, ...tail.map((line) => `  ${line}`)].join('\n');
}

/** Stops the processes and removes what the run created (database, Redis keys, bus exchange). */
async function stopBenchStack(context, { log }) {
  await context.group.stopAll();
  const cleanups = [
    ['bench database', () => require('@pwa/db').dropDatabase(context.databaseUrl)],
    ['Redis keys', () => deleteRedisKeys(context.settings.redisUrl, context.benchEnv.REDIS_KEY_PREFIX)],
    ['bus exchanges', () => deleteExchange(context.settings.amqpUrl, context.benchEnv.BUS_EXCHANGE)],
  ];
  for (const [what, cleanup] of cleanups) {
    try {
      await cleanup();
    } catch (error) {
      log(`could not remove the ${what}: ${error.message}`);
    }
  }
}

async function deleteRedisKeys(redisUrl, prefix) {
  const { Redis } = require('ioredis');
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    let cursor = '0';
    for (let page = 0; page < 10_000; page += 1) {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    client.disconnect();
  }
}

/** Removes the run's exchange, the dead-letter exchange and queue the bus declared for it, and webhooks' queues. */
async function deleteExchange(amqpUrl, exchange) {
  const amqp = require('amqplib');
  const { deadLetterNames } = require('@pwa/bus');
  const deadLetter = deadLetterNames(exchange);
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    await channel.deleteQueue(deadLetter.queue);
    // The webhooks service's durable queues (only the webhooks benchmark starts it; deleting a
    // queue that does not exist is a no-op).
    for (const suffix of ['webhooks.partner-events', 'webhooks.transaction-events']) await channel.deleteQueue(`${exchange}.${suffix}`);
    await channel.deleteExchange(deadLetter.exchange);
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

function mean(values) {
  const present = values.filter((value) => typeof value === 'number');
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

function summarise(results) {
  return {
    requestsPerSecond: mean(results.map((result) => result.requestsPerSecond)),
    p50Ms: mean(results.map((result) => result.p50Ms)),
    p99Ms: mean(results.map((result) => result.p99Ms)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    rounds: results.length,
  };
}

/**
 * Runs warm-up and the interleaved rounds against a started stack. Resolves the measurements
 * ({ load: { direct, gateway }, latency: { direct, gateway }, rounds: [...] }).
 */
async function measureGateway(context, options, { log }) {
  const { targets } = context;
  const guard = () => {
    const died = context.died();
    if (died) throw new Error(describeDeath(died));
  };
  log(`warm-up: ${options.warmupSeconds} s each, ${options.connections} connections`);
  for (const name of ['direct', 'gateway']) {
    await measure({ ...targets[name], connections: options.connections, durationSeconds: options.warmupSeconds });
    guard();
  }
  const scenarios = [
    { name: 'load', connections: options.connections },
    { name: 'latency', connections: options.latencyConnections },
  ];
  const rounds = [];
  const collected = { load: { direct: [], gateway: [] }, latency: { direct: [], gateway: [] } };
  for (const scenario of scenarios) {
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const name of ['direct', 'gateway']) {
        const result = await measure({
          ...targets[name],
          connections: scenario.connections,
          durationSeconds: options.durationSeconds,
        });
        guard();
        rounds.push({ scenario: scenario.name, target: name, round, ...result });
        collected[scenario.name][name].push(result);
        log(
          `  ${scenario.name.padEnd(7)} ${name.padEnd(7)} round ${round}: ${result.requestsPerSecond.toFixed(0)} req/s, ` +
            `p50 ${format(result.p50Ms)} ms, p99 ${format(result.p99Ms)} ms${result.non2xx || result.errors ? `, non-2xx ${result.non2xx}, errors ${result.errors} (first: ${result.firstFailure})` : ''}`,
        );
      }
    }
  }
  return {
    load: { direct: summarise(collected.load.direct), gateway: summarise(collected.load.gateway) },
    latency: { direct: summarise(collected.latency.direct), gateway: summarise(collected.latency.gateway) },
    rounds,
  };
}

function format(value, digits = 2) {
  return typeof value === 'number' ? value.toFixed(digits) : 'n/a';
}

module.exports = { startBenchStack, stopBenchStack, measureGateway, format, describeDeath, summarise };
