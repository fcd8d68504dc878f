import { ConsoleError, PkcError } from '@pwa/errors';
import { createApp, listen, type RunningServer } from '../../src';
import { createCapturedLogger } from '../../../../test/support/captured-logger';

const { logger, text: loggedText } = createCapturedLogger('http-test');

let server: RunningServer;
let baseUrl: string;

beforeAll(async () => {
  const { app } = createApp({
    serviceName: 'http-test',
    logger,
    jsonBodyLimit: '1kb',
    isDependencyUnavailable: (error) => (error as { code?: unknown }).code === '57P03',
    routes: (expressApp) => {
      expressApp.post('/echo/:id', (req, res) => {
        res.json({ success: true, data: { id: req.params.id, body: req.body as unknown } });
      });
      expressApp.all('/answer/:status', (req, res) => {
        const status = Number(req.params.status);
        if (req.query.type === 'problem') res.type('application/problem+json');
        res.status(status).json(req.query.empty === '1' ? undefined : { status, word: 'Grüße' });
      });
      expressApp.get('/refuse', () => {
        throw new PkcError('PKC_7001', undefined, { headers: { 'Retry-After': '60' } });
      });
      expressApp.get('/console-refusal', () => {
        throw new ConsoleError('CON_1002', undefined, { headers: { 'Retry-After': '900' } });
      });
      expressApp.get('/database-away', () => {
        throw Object.assign(new Error('the database system is starting up'), { code: '57P03' });
      });
      expressApp.get('/crash', () => {
        throw new Error('database password=hunter2 at postgres://app:hunter2@db/x');
      });
    },
  });
  server = await listen(app, 0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
});

describe('the service app factory', () => {
  it('when a console route refuses with a ConsoleError, then the envelope carries its CON_ code, status, message and headers', async () => {
    const response = await fetch(`${baseUrl}/console-refusal`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('900');
    expect(await response.json()).toEqual({ success: false, code: 'CON_1002', message: 'Too many failed sign-ins: wait, then try again' });
  });

  it('when a handler answers with res.json, then the status, JSON type, exact byte length and body are those of the value', async () => {
    const response = await fetch(`${baseUrl}/answer/201`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Multi-byte characters: the length is in bytes, not characters.
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ status: 201, word: 'Grüße' });
  });

  it('when a handler set its own content type, or answers HEAD, 204 or nothing, then res.json respects it', async () => {
    const typed = await fetch(`${baseUrl}/answer/200?type=problem`);
    expect(typed.headers.get('content-type')).toContain('application/problem+json');
    const head = await fetch(`${baseUrl}/answer/200`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
    const noContent = await fetch(`${baseUrl}/answer/204`);
    expect(noContent.status).toBe(204);
    expect(noContent.headers.get('content-type')).toBeNull();
    expect(await noContent.text()).toBe('');
    const empty = await fetch(`${baseUrl}/answer/200?empty=1`);
    expect(empty.headers.get('content-length')).toBe('0');
    expect(await empty.text()).toBe('');
  });

  it('when a request carries a request id, then it is echoed; otherwise one is made', async () => {
    const echoed = await fetch(`${baseUrl}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when the body is malformed JSON, then the answer is 400 PKC_2008 in the envelope without a stack', async () => {
    const response = await fetch(`${baseUrl}/echo/1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(text)).toEqual({ success: false, code: 'PKC_2008', message: 'Request body is not valid JSON' });
    expect(text).not.toContain('SyntaxError');
  });

  it('when the body is over the limit, then the answer is a 400 envelope', async () => {
    const response = await fetch(`${baseUrl}/echo/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(2048) }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, code: 'PKC_2008' });
  });

  it('when no route matches, then the answer is a 404 envelope, not an HTML page', async () => {
    const response = await fetch(`${baseUrl}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false });
  });

  it('when a route throws a PKC error, then its status, code and headers are sent', async () => {
    const response = await fetch(`${baseUrl}/refuse`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(await response.json()).toMatchObject({ success: false, code: 'PKC_7001' });
  });

  it('when a route crashes, then the partner sees PKC_7002 and the log has the error with its secrets scrubbed', async () => {
    const response = await fetch(`${baseUrl}/crash`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ success: false, code: 'PKC_7002', message: 'Internal error; retry' });
    const logged = loggedText();
    expect(logged).toContain('unhandled error');
    expect(logged).not.toContain('app:hunter2@');
  });

  it('when a route meets an error that says a dependency is away, then the partner sees 503 PKC_7003, not 500', async () => {
    const response = await fetch(`${baseUrl}/database-away`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ success: false, code: 'PKC_7003', message: 'Service temporarily unavailable; nothing was created' });
    expect(loggedText()).toContain('dependency unavailable; answered 503');
  });

  it('when requests were served, then /metrics has RED metrics labelled by route template', async () => {
    await fetch(`${baseUrl}/echo/42`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{[^}]*route="\/echo\/:id"[^}]*status_code="200"/);
    expect(metrics).toContain('http_request_duration_seconds_bucket');
    expect(metrics).not.toContain('route="/echo/42"');
  });
});
