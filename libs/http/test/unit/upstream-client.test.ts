import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@pwa/logging';
import {
  circuitBreakerStateOf,
  createUpstreamClient,
  isUpstreamFailure,
  neverReachedUpstream,
  type BreakerStateSource,
  type UpstreamClient,
  type UpstreamFailure,
} from '../../src';

/**
 * The one upstream client (libs/http upstream-client): every call to another service has a
 * deadline, sits behind its upstream's breaker, and fails with one UpstreamFailure whose reason
 * says whether the upstream can have seen the request. Against real local HTTP servers.
 */
const logger = createLogger({ service: 'upstream-client-test', level: 'silent', environment: 'sandbox' });
const breaker = { errorThresholdPercent: 50, volumeThreshold: 3, resetTimeoutMs: 60_000, rollingWindowMs: 10_000 };

interface FakeUpstream {
  url: string;
  calls: { path: string; headers: http.IncomingHttpHeaders; body: string }[];
  answer: (res: http.ServerResponse) => void;
  stop(): Promise<void>;
}

async function startUpstream(): Promise<FakeUpstream> {
  const fake: FakeUpstream = { url: '', calls: [], answer: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), stop: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fake.calls.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      fake.answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.stop = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}

async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function failureOf(call: Promise<unknown>): Promise<UpstreamFailure> {
  try {
    await call;
  } catch (error) {
    if (isUpstreamFailure(error)) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

describe('upstream client', () => {
  let fake: FakeUpstream;
  let client: UpstreamClient;
  const watched = new Map<string, BreakerStateSource>();

  beforeEach(async () => {
    fake = await startUpstream();
    client = createUpstreamClient({ name: 'wallet', baseUrl: fake.url, breaker, logger, watchBreaker: (name, source) => watched.set(name, source) });
  });

  afterEach(async () => {
    client.shutdown();
    await fake.stop();
  });

  it('when the upstream answers 200 or refuses with 4xx, then both are answers, with the request id passed on', async () => {
    expect(await client.post('/internal/checks', { a: 1 }, { timeoutMs: 1_000, requestId: 'req-1' })).toEqual({ status: 200, body: { ok: true } });
    fake.answer = (res) => res.writeHead(422, { 'content-type': 'application/json' }).end('{"success":false,"code":"PKC_3001"}');
    expect(await client.post('/internal/checks', {}, { timeoutMs: 1_000 })).toEqual({ status: 422, body: { success: false, code: 'PKC_3001' } });
    expect(fake.calls[0]).toMatchObject({ path: '/internal/checks', body: '{"a":1}', headers: { 'x-request-id': 'req-1', 'content-type': 'application/json' } });
  });

  it('when a GET is answered, then it is an answer like a POST, sent without a body', async () => {
    fake.answer = (res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"code":"PKC_1009"}');
    expect(await client.get('/internal/partners/x', { timeoutMs: 1_000 })).toEqual({ status: 404, body: { success: false, code: 'PKC_1009' } });
    expect(fake.calls.at(-1)).toMatchObject({ path: '/internal/partners/x', body: '' });
  });

  it('when the upstream answers 5xx or text that is not JSON, then it is an UpstreamFailure "unavailable" (fate unknown)', async () => {
    fake.answer = (res) => res.writeHead(503).end('down');
    const failed = await failureOf(client.post('/x', {}, { timeoutMs: 1_000 }));
    expect([failed.upstream, failed.reason, neverReachedUpstream(failed)]).toEqual(['wallet', 'unavailable', false]);
    fake.answer = (res) => res.writeHead(200).end('not json');
    expect((await failureOf(client.post('/x', {}, { timeoutMs: 1_000 }))).reason).toBe('unavailable');
  });

  it('when the upstream is slower than the deadline, then it is "deadline_exceeded"; with no time left nothing is sent', async () => {
    fake.answer = (res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 500);
    const slow = await failureOf(client.post('/slow', {}, { timeoutMs: 50 }));
    expect([slow.reason, neverReachedUpstream(slow)]).toEqual(['deadline_exceeded', false]);
    const before = fake.calls.length;
    expect((await failureOf(client.postWithoutBreaker('/none', {}, { timeoutMs: 0 }))).reason).toBe('deadline_exceeded');
    expect(fake.calls.length).toBe(before);
  });

  it('when nothing listens, then it is "not_delivered": the upstream never saw the request', async () => {
    const nobody = createUpstreamClient({ name: 'quotes', baseUrl: await closedPortUrl(), breaker, logger });
    try {
      const failed = await failureOf(nobody.post('/internal/quotes/x/consume', {}, { timeoutMs: 1_000 }));
      expect([failed.upstream, failed.reason, neverReachedUpstream(failed)]).toEqual(['quotes', 'not_delivered', true]);
    } finally {
      nobody.shutdown();
    }
  });

  it('when failures pass the threshold, then the breaker opens: calls fail fast as "circuit_open" without reaching the upstream, the gauge reads open, and postWithoutBreaker still calls', async () => {
    fake.answer = (res) => res.writeHead(500).end();
    for (let attempt = 0; attempt < 3; attempt += 1) await failureOf(client.post('/x', {}, { timeoutMs: 1_000 }));
    const reached = fake.calls.length;
    const fast = await failureOf(client.post('/x', {}, { timeoutMs: 1_000 }));
    expect([fast.reason, neverReachedUpstream(fast)]).toEqual(['circuit_open', true]);
    expect(fake.calls.length).toBe(reached);
    const source = watched.get('wallet');
    expect(source && circuitBreakerStateOf(source)).toBe(2);
    fake.answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"state":"cancelled"}');
    expect(await client.postWithoutBreaker('/internal/transfers/t/cancel', {}, { timeoutMs: 1_000 })).toEqual({ status: 200, body: { state: 'cancelled' } });
    expect(fake.calls.length).toBe(reached + 1);
  });

  it('when the upstream refuses with 4xx many times, then the breaker stays closed (a refusal is an answer)', async () => {
    fake.answer = (res) => res.writeHead(409, { 'content-type': 'application/json' }).end('{"success":false,"code":"PKC_7004"}');
    for (let attempt = 0; attempt < 6; attempt += 1) expect((await client.post('/x', {}, { timeoutMs: 1_000 })).status).toBe(409);
    const source = watched.get('wallet');
    expect(source && circuitBreakerStateOf(source)).toBe(0);
  });

  describe('relay (bytes in, bytes out, as the gateway passes them on)', () => {
    const relayOf = (path: string, overrides: { timeoutMs?: number; responseBodyMaxBytes?: number } = {}) =>
      client.relay({ method: 'GET', path, headers: { accept: 'application/json', 'x-request-id': 'req-9' }, timeoutMs: 1_000, ...overrides });

    it('when the upstream answers 5xx many times, then each is an answer with its headers and bytes, and the breaker stays closed', async () => {
      const envelope = '{"success":false,"code":"PKC_9001","message":"from the upstream"}';
      fake.answer = (res) => res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' }).end(envelope);
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const answer = await relayOf('/internal/x?page=2');
        expect([answer.status, answer.headers['retry-after'], answer.body.toString('utf8')]).toEqual([503, '5', envelope]);
      }
      expect(fake.calls.at(-1)).toMatchObject({ path: '/internal/x?page=2', headers: { accept: 'application/json', 'x-request-id': 'req-9' } });
      const source = watched.get('wallet');
      expect(source && circuitBreakerStateOf(source)).toBe(0);
    });

    it('when the upstream is slower than the deadline or its answer is over the call\'s bound, then it is an UpstreamFailure, fate unknown', async () => {
      fake.answer = (res) => setTimeout(() => res.writeHead(200).end('{}'), 500);
      expect((await failureOf(relayOf('/slow', { timeoutMs: 50 }))).reason).toBe('deadline_exceeded');
      fake.answer = (res) => res.writeHead(200).end('x'.repeat(2_048));
      const tooLarge = await failureOf(relayOf('/large', { responseBodyMaxBytes: 1_024 }));
      expect([tooLarge.reason, neverReachedUpstream(tooLarge)]).toEqual(['unavailable', false]);
      expect((await relayOf('/large')).body.length).toBe(2_048);
    });

    it('when relays find nobody listening past the threshold, then the breaker opens for relays and JSON calls alike, without reaching the upstream', async () => {
      const nobody = createUpstreamClient({ name: 'quotes', baseUrl: await closedPortUrl(), breaker, logger, watchBreaker: (name, source) => watched.set(name, source) });
      try {
        const relay = () => nobody.relay({ method: 'POST', path: '/x', headers: {}, body: Buffer.from('{}'), timeoutMs: 1_000 });
        for (let attempt = 0; attempt < 3; attempt += 1) expect((await failureOf(relay())).reason).toBe('not_delivered');
        expect((await failureOf(relay())).reason).toBe('circuit_open');
        expect((await failureOf(nobody.get('/x', { timeoutMs: 1_000 }))).reason).toBe('circuit_open');
        const source = watched.get('quotes');
        expect(source && circuitBreakerStateOf(source)).toBe(2);
      } finally {
        nobody.shutdown();
      }
    });
  });
});
