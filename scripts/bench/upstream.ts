// The trivial upstream of the gateway benchmark: answers GET /partner/v1/balance with a fixed
// success envelope, and the health paths the gateway may probe. Runs as its own process so the
// load generator and the server do not share an event loop. Usage: node upstream.js <port>
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { endProcess } from '../lib/end-process';

const port = Number(process.argv[2] || 0);
const balanceBody = JSON.stringify({ success: true, data: { ok: true } });
const healthBody = JSON.stringify({ status: 'ok' });
const notFoundBody = JSON.stringify({ success: false, code: 'PKC_6002', message: 'No such endpoint' });

const server = http.createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  let status = 404;
  let body = notFoundBody;
  if (request.method === 'GET' && path === '/partner/v1/balance') {
    status = 200;
    body = balanceBody;
  } else if (path === '/healthz' || path === '/readyz') {
    status = 200;
    body = healthBody;
  }
  // Drain any request body before answering, so keep-alive connections stay usable.
  request.resume();
  request.on('end', () => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`upstream listening on 127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
const stop = (): void => {
  server.close(() => endProcess(0));
  server.closeIdleConnections();
  setTimeout(() => endProcess(0), 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
