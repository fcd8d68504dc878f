import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { createInternalJsonClient, isInternalTransportError, type InternalJsonClient, type InternalTransportError } from '../../src';

/** A real local HTTP server whose answer each test chooses; it records what it received. */
interface Upstream {
  url: string;
  received: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  connections: number;
  closedSockets: number;
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  stop(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const sockets = new Set<Socket>();
  const upstream: Upstream = {
    url: '',
    received: [],
    connections: 0,
    closedSockets: 0,
    handle: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    stop: () => Promise.resolve(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      upstream.received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      upstream.handle(req, res);
    });
  });
  server.on('connection', (socket: Socket) => {
    upstream.connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      upstream.closedSockets += 1;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.stop = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return upstream;
}

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function transportErrorOf(call: Promise<unknown>): Promise<InternalTransportError> {
  try {
    await call;
  } catch (error) {
    if (isInternalTransportError(error)) return error;
    throw error;
  }
  throw new Error('the call answered instead of failing');
}

const waitUntil = async (condition: () => boolean, timeoutMs = 2_000): Promise<void> => {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('internal JSON client against a real HTTP server', () => {
  let upstream: Upstream;
  let client: InternalJsonClient;

  beforeEach(async () => {
    upstream = await startUpstream();
    client = createInternalJsonClient({ baseUrl: upstream.url });
  });

  afterEach(async () => {
    client.close();
    await upstream.stop();
  });

  test('when a JSON body is posted, then it arrives as JSON with the request id, and the answer comes back parsed and as text', async () => {
    upstream.handle = (_req, res) => res.writeHead(409, { 'content-type': 'application/json' }).end('{"success":false,"code":"PKC_4001"}');

    const answer = await client.postJson('/internal/checks', { amountMinor: '100' }, { timeoutMs: 1_000, requestId: 'req-1' });

    expect(answer).toEqual({ status: 409, body: { success: false, code: 'PKC_4001' }, text: '{"success":false,"code":"PKC_4001"}' });
    expect(upstream.received).toHaveLength(1);
    const [received] = upstream.received;
    expect(received).toMatchObject({ method: 'POST', path: '/internal/checks', body: '{"amountMinor":"100"}' });
    expect(received?.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json', 'x-request-id': 'req-1' });
  });

  test('when no request id is given, then no x-request-id header is sent; GET sends no body', async () => {
    await client.getJson('/healthz', { timeoutMs: 1_000 });

    expect(upstream.received[0]).toMatchObject({ method: 'GET', path: '/healthz', body: '' });
    expect(upstream.received[0]?.headers['x-request-id']).toBeUndefined();
  });

  test('when the answer is not JSON, then the body is undefined and the text is kept', async () => {
    upstream.handle = (_req, res) => res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway');

    await expect(client.postJson('/x', {}, { timeoutMs: 1_000 })).resolves.toEqual({ status: 502, body: undefined, text: 'Bad gateway' });
  });

  test('when calls follow one another, then they reuse one keep-alive connection', async () => {
    for (let call = 0; call < 5; call += 1) await client.postJson('/x', { call }, { timeoutMs: 1_000 });

    expect(upstream.received).toHaveLength(5);
    expect(upstream.connections).toBe(1);
  });

  test('when more calls run at once than maxSockets allows, then no more connections than that are opened and every call is answered', async () => {
    const bounded = createInternalJsonClient({ baseUrl: upstream.url, maxSockets: 2 });
    upstream.handle = (_req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 20);
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => bounded.postJson('/x', {}, { timeoutMs: 2_000 })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(upstream.connections).toBe(2);
    } finally {
      bounded.close();
    }
  });

  test('when the upstream does not answer within the deadline, then the call fails with timeout soon after it and the socket is destroyed', async () => {
    upstream.handle = () => undefined; // never answers
    const startedAt = Date.now();

    const error = await transportErrorOf(client.postJson('/slow', {}, { timeoutMs: 150 }));

    const elapsedMs = Date.now() - startedAt;
    expect(error).toMatchObject({ code: 'INTERNAL_HTTP_TRANSPORT', kind: 'timeout', requestNeverSent: false });
    expect(elapsedMs).toBeGreaterThanOrEqual(140);
    expect(elapsedMs).toBeLessThan(1_000);
    await waitUntil(() => upstream.closedSockets === 1);
  });

  test('when the upstream answers after a timed-out call, then the next call gets its own answer on a fresh connection', async () => {
    let calls = 0;
    upstream.handle = (_req, res) => {
      calls += 1;
      const late = calls === 1;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ call: late ? 'late' : 'second' })), late ? 200 : 0);
    };

    await transportErrorOf(client.postJson('/x', {}, { timeoutMs: 50 }));
    const answer = await client.postJson('/x', {}, { timeoutMs: 1_000 });

    expect(answer.body).toEqual({ call: 'second' });
    expect(upstream.connections).toBe(2);
  });

  test('when no time is left, then nothing is sent and the call fails with timeout', async () => {
    const error = await transportErrorOf(client.postJson('/x', {}, { timeoutMs: 0 }));

    expect(error.kind).toBe('timeout');
    expect(upstream.received).toEqual([]);
    expect(upstream.connections).toBe(0);
  });

  test('when the connection is refused, then the call fails with not_connected and the request was never sent', async () => {
    const refusing = createInternalJsonClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    try {
      const error = await transportErrorOf(refusing.postJson('/x', {}, { timeoutMs: 1_000 }));
      expect(error).toMatchObject({ kind: 'not_connected', systemCode: 'ECONNREFUSED', requestNeverSent: true });
    } finally {
      refusing.close();
    }
  });

  test('when the upstream drops the connection mid-request, then the call fails with connection_lost (its fate unknown)', async () => {
    upstream.handle = (req) => req.socket.destroy();

    const error = await transportErrorOf(client.postJson('/x', {}, { timeoutMs: 1_000 }));

    expect(error).toMatchObject({ kind: 'connection_lost', requestNeverSent: false });
  });

  test('when the answer is larger than the bound, then the call fails with response_too_large', async () => {
    upstream.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(5 * 1024 * 1024)}"`);

    const error = await transportErrorOf(client.postJson('/x', {}, { timeoutMs: 5_000 }));

    expect(error.kind).toBe('response_too_large');
  });

  test('when a request is exchanged as bytes, then its headers go out as given (nothing added but the length) and the answer comes back as status, headers and bytes', async () => {
    const csv = Buffer.from('postedAt,amount\r\n2026-11-01,"1,000.00"\r\n');
    upstream.handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'x-next-cursor': 'c2' }).end(csv);
    const body = Buffer.from('{"amount": 1.50}');

    const answer = await client.exchange({ method: 'POST', path: '/statement?format=csv', headers: { accept: 'text/csv', 'x-request-id': 'req-2', 'content-type': 'application/json' }, body, timeoutMs: 1_000 });

    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({ 'content-type': 'text/csv; charset=utf-8', 'x-next-cursor': 'c2' });
    expect(answer.body.equals(csv)).toBe(true);
    const [received] = upstream.received;
    expect(received).toMatchObject({ method: 'POST', path: '/statement?format=csv', body: '{"amount": 1.50}' });
    expect(received?.headers).toMatchObject({ accept: 'text/csv', 'x-request-id': 'req-2', 'content-type': 'application/json', 'content-length': String(body.length) });
  });

  test('when a call sets its own answer bound, then an answer over it fails with response_too_large and one under it is read whole', async () => {
    upstream.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(3 * 1024 * 1024)}"`);

    const bounded = await transportErrorOf(client.exchange({ method: 'GET', path: '/x', headers: {}, timeoutMs: 5_000, responseBodyMaxBytes: 2 * 1024 * 1024 }));
    const unbounded = await client.getJson('/x', { timeoutMs: 5_000 });

    expect(bounded.kind).toBe('response_too_large');
    expect(unbounded.text.length).toBe(3 * 1024 * 1024 + 2);
  });

  test('when the base URL has a path, then call paths are below it', async () => {
    const prefixed = createInternalJsonClient({ baseUrl: `${upstream.url}/wallet/` });
    try {
      await prefixed.getJson('/internal/checks', { timeoutMs: 1_000 });
      expect(upstream.received[0]?.path).toBe('/wallet/internal/checks');
    } finally {
      prefixed.close();
    }
  });
});
