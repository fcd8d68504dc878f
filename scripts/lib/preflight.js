// Preflight: are PostgreSQL, RabbitMQ and Redis listening where the settings say? A server that is
// not is named with its address and the command that starts it, so a newcomer is never left with
// a stack trace from deep inside a service.
'use strict';
const net = require('node:net');
const { displayUrl } = require('./settings');

const connectTimeoutMs = 2000;

const servers = [
  {
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    defaultPort: 5432,
    urlOf: (settings) => settings.databaseUrl,
    binary: 'pg_ctlcluster',
    debianPackage: 'postgresql',
    startCommand: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  {
    name: 'RabbitMQ',
    variable: 'AMQP_URL',
    defaultPort: 5672,
    urlOf: (settings) => settings.amqpUrl,
    binary: 'rabbitmq-server',
    debianPackage: 'rabbitmq-server',
    startCommand: 'rabbitmq-server -detached',
  },
  {
    name: 'Redis',
    variable: 'REDIS_URL',
    defaultPort: 6379,
    urlOf: (settings) => settings.redisUrl,
    binary: 'redis-server',
    debianPackage: 'redis-server',
    startCommand: 'redis-server --daemonize yes --bind 127.0.0.1 --port {port} --save ""',
  },
];

/** Resolves true when a TCP connection to host:port opens within the timeout. */
function canConnect(host, port, timeoutMs = connectTimeoutMs) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

function addressOf(rawUrl, defaultPort) {
  const url = new URL(rawUrl);
  // URL keeps IPv6 hosts in brackets; net.connect wants them bare.
  const host = (url.hostname || '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(url.port) || defaultPort };
}

/** Checks every server; returns one entry per server with its address and whether it answered. */
async function checkServers(settings) {
  return Promise.all(
    servers.map(async (server) => {
      const rawUrl = server.urlOf(settings);
      const { host, port } = addressOf(rawUrl, server.defaultPort);
      const reachable = await canConnect(host, port);
      return { ...server, host, port, url: displayUrl(rawUrl), reachable };
    }),
  );
}

function isLocal(host) {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

/** The lines printed for servers that did not answer: which, where, and how to start it. */
function describeUnreachable(results) {
  const lines = [];
  for (const server of results.filter((result) => !result.reachable)) {
    lines.push(`${server.name} is not reachable at ${server.host}:${server.port} (${server.variable}=${server.url}).`);
    if (isLocal(server.host)) {
      lines.push(`  Start it (Debian, as root):  ${server.startCommand.replace('{port}', String(server.port))}`);
      lines.push(`  Not installed?               apt-get install -y ${server.debianPackage}`);
    } else {
      lines.push(`  Start that server, or point ${server.variable} at one that is running.`);
    }
  }
  return lines;
}

module.exports = { checkServers, describeUnreachable, canConnect, servers };
