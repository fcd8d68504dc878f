// Fails the integration run early, with a clear message, when a server the tests need is down.
'use strict';
const net = require('node:net');
const { serverUrls } = require('./server-urls');

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

module.exports = async function globalSetup() {
  const urls = serverUrls();
  const problems = [];
  for (const [name, raw] of Object.entries(urls)) {
    const url = new URL(raw);
    const port = Number(url.port) || { postgres: 5432, amqp: 5672, redis: 6379 }[name];
    if (!(await reachable(url.hostname, port))) problems.push(`${name} is not reachable at ${url.hostname}:${port}`);
  }
  if (problems.length > 0) throw new Error(`Integration tests need running servers:\n  ${problems.join('\n  ')}`);
};
