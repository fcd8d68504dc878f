// Runs once before the integration project. Tests use the servers named by TEST_DATABASE_URL,
// TEST_AMQP_URL and TEST_REDIS_URL (default: the local servers). When one is unreachable and a
// Docker engine is available, it is started with testcontainers instead; without Docker the run
// fails early with a message naming the server, its address and how to start it.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const { serverUrls } = require('./server-urls');

const defaultPorts = { postgres: 5432, amqp: 5672, redis: 6379 };
const startHints = {
  postgres: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  amqp: 'rabbitmq-server -detached',
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ""',
};
const envNames = { postgres: 'TEST_DATABASE_URL', amqp: 'TEST_AMQP_URL', redis: 'TEST_REDIS_URL' };

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

function dockerEngineLikelyAvailable() {
  return Boolean(process.env.DOCKER_HOST) || fs.existsSync('/var/run/docker.sock');
}

async function startContainer(name) {
  const { GenericContainer, Wait } = require('testcontainers');
  switch (name) {
    case 'postgres': {
      const container = await new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      return { container, url: `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres` };
    }
    case 'amqp': {
      const container = await new GenericContainer('rabbitmq:3.13-alpine')
        .withExposedPorts(5672)
        .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
        .start();
      return { container, url: `amqp://guest:guest@${container.getHost()}:${container.getMappedPort(5672)}` };
    }
    case 'redis': {
      const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
      return { container, url: `redis://${container.getHost()}:${container.getMappedPort(6379)}` };
    }
    default:
      throw new Error(`unknown server ${name}`);
  }
}

/**
 * A server that accepts connections but does not answer its protocol (a wedged broker does) would
 * make every test wait until its timeout, for an hour of failures: the run stops at once instead,
 * naming it. .ci/run's preflight restarts such a local server before the tests start.
 */
async function refuseStuckServers(urls) {
  const { answersProtocol } = require('../../scripts/lib/preflight');
  const preflightIds = { postgres: 'postgres', amqp: 'rabbitmq', redis: 'redis' };
  const stuck = [];
  for (const [name, raw] of Object.entries(urls)) {
    const url = new URL(raw);
    // A TLS URL (amqps:, rediss:) answers only after a handshake this plain question does not make.
    if (url.protocol === 'amqps:' || url.protocol === 'rediss:') continue;
    const port = Number(url.port) || defaultPorts[name];
    if (!(await answersProtocol(preflightIds[name], url.hostname, port))) stuck.push(`${name} at ${url.hostname}:${port} accepts connections but does not answer within 5 s: restart it (.ci/run's preflight restarts a stuck local server)`);
  }
  if (stuck.length > 0) throw new Error(`Integration tests need servers that answer:\n  ${stuck.join('\n  ')}`);
}

/**
 * Deletes the queues earlier test runs left on a local broker (scripts/lib/preflight.js
 * leftoverTestQueuesEval, which .ci/run's preflight runs too): each keeps a share of the broker's
 * file handles, and once they are spent the broker stops answering. Best effort: without
 * rabbitmqctl, or when it does not answer, nothing is deleted and the tests go on.
 */
function deleteLeftoverTestQueues(amqpUrl) {
  const url = new URL(amqpUrl);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) return;
  const { spawnSync } = require('node:child_process');
  const { leftoverTestQueuesEval } = require('../../scripts/lib/preflight');
  const deleted = spawnSync('rabbitmqctl', ['-q', 'eval', leftoverTestQueuesEval], { encoding: 'utf8', timeout: 60_000 });
  const count = Number((deleted.stdout ?? '').trim());
  if (deleted.status === 0 && count > 0) process.stderr.write(`global setup: deleted ${count} queues earlier test runs left on the broker\n`);
}

module.exports = async function globalSetup() {
  const urls = serverUrls();
  const missing = [];
  for (const [name, raw] of Object.entries(urls)) {
    const url = new URL(raw);
    const port = Number(url.port) || defaultPorts[name];
    if (!(await reachable(url.hostname, port))) missing.push({ name, address: `${url.hostname}:${port}` });
  }
  if (missing.length === 0) {
    deleteLeftoverTestQueues(urls.amqp);
    await refuseStuckServers(urls);
    return;
  }
  if (!dockerEngineLikelyAvailable()) {
    const lines = missing.map(({ name, address }) => `${name} is not reachable at ${address}; start it with: ${startHints[name]}`);
    throw new Error(`Integration tests need running servers (or a Docker engine for testcontainers):\n  ${lines.join('\n  ')}`);
  }
  globalThis.__testContainers = [];
  for (const { name } of missing) {
    const { container, url } = await startContainer(name);
    globalThis.__testContainers.push(container);
    process.env[envNames[name]] = url; // inherited by the test workers and the processes they spawn
  }
};
