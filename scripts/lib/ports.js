// Free TCP ports for processes a script starts (the benchmark, say), so they never collide with a
// running npm start. The port is released before the child binds it; a race is possible but the
// child then fails loudly at listen, which the caller reports.
'use strict';
const net = require('node:net');

function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function freePorts(count, host) {
  const ports = new Set();
  for (let attempt = 0; ports.size < count; attempt += 1) {
    if (attempt >= count * 20) throw new Error(`could not find ${count} distinct free ports`);
    ports.add(await freePort(host));
  }
  return [...ports];
}

module.exports = { freePort, freePorts };
