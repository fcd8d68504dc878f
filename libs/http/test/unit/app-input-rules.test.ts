import { request as httpRequest } from 'node:http';
import express from 'express';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createCapturedLogger } from '../../../../test/support/captured-logger';
import { expectedForms } from '@pwa/errors';
import { createApp, declareBodyTypes, jsonBodyAsWritten, listen, rawJsonBodyOf, type RunningServer } from '../../src';

/**
 * The input rules every app made by createApp applies before its routes: the request target, the
 * body's headers and bytes, the nesting depth and the text rule. Each refusal is the 400 envelope,
 * and no route ever runs for it (the routes here count their calls).
 */
const { logger, text: loggedText } = createCapturedLogger('http-input-test');

let server: RunningServer;
let routeCalls = 0;

beforeAll(async () => {
  const { app } = createApp({
    serviceName: 'http-input-test',
    logger,
    jsonBodyLimit: '1kb',
    before: [
      (req, res, next) => {
        if (req.path !== '/form' && req.path !== '/undeclared') declareBodyTypes(res, 'json');
        if (req.path === '/form') declareBodyTypes(res, 'json or form');
        next();
      },
    ],
    routes: (expressApp) => {
      expressApp.all('/echo/:id', (req, res) => {
        routeCalls += 1;
        res.json({ success: true, data: { id: req.params.id, query: req.query, body: req.body as unknown, raw: rawJsonBodyOf(req)?.toString('utf8') ?? null } });
      });
      // As auth's token route does: its own form parser, which finds the body already read.
      expressApp.post(['/form', '/undeclared'], express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
        routeCalls += 1;
        res.json({ success: true, data: { contentType: req.header('content-type') ?? null, body: req.body as unknown } });
      });
      expressApp.post('/written', (req, res) => {
        routeCalls += 1;
        const written = jsonBodyAsWritten(req, (text) => `number:${text}`);
        res.json({ success: true, data: written });
      });
    },
  });
  server = await listen(app, 0, '127.0.0.1');
});

afterAll(async () => {
  await server.close();
});

interface Reply {
  status: number;
  body: unknown;
}

/** A raw HTTP exchange: the path as given (no normalisation) and the body's bytes as given. */
function send(method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const json = { 'content-type': 'application/json' };

/** The field a refusal names (decision 0075): a query parameter or a body field whose value breaks the text rule. */
const textField = (field: string, expected: string = expectedForms.text) => ({ invalidFields: [{ field, problem: 'wrong_format', expected }] });

async function expectRefusedBeforeRoute(reply: Promise<Reply>, message: string | RegExp, fields: Record<string, unknown> = {}): Promise<void> {
  const callsBefore = routeCalls;
  const { status, body } = await reply;
  expect({ status, body }).toEqual({ status: 400, body: { success: false, code: 'PKC_2008', message: typeof message === 'string' ? message : expect.stringMatching(message), ...fields } });
  expect(routeCalls).toBe(callsBefore);
}

describe('the input rules of createApp', () => {
  it('when a path parameter does not decode or decodes to NUL, then the answer is 400 PKC_2008, never a 500', async () => {
    await expectRefusedBeforeRoute(send('GET', '/echo/%E0%A4%A'), 'The path is not valid: percent-encoded bytes must be UTF-8');
    await expectRefusedBeforeRoute(send('GET', '/echo/PKC-1-%00'), 'The path is not valid: a path segment contains a control character');
    await expectRefusedBeforeRoute(send('GET', '/nowhere/%E0%A4%A'), /^The path is not valid/);
    expect(loggedText()).not.toContain('unhandled error');
  });

  it('when a query value holds NUL or bytes that are not UTF-8, then the answer is 400 PKC_2008 naming the parameter', async () => {
    const expected = `percent-encoded UTF-8 ${expectedForms.text}`;
    const named = `referenceId has the wrong format (expected ${expected})`;
    await expectRefusedBeforeRoute(send('GET', '/echo/1?referenceId=%00'), `Query parameter referenceId is not valid: ${named}`, textField('referenceId', expected));
    await expectRefusedBeforeRoute(send('GET', '/echo/1?referenceId=%C3'), `Query parameter referenceId is not valid: ${named}`, textField('referenceId', expected));
  });

  it('when a JSON body is sent as text/plain or without a Content-Type, then the answer names the Content-Type', async () => {
    const body = JSON.stringify({ a: 1 });
    await expectRefusedBeforeRoute(send('POST', '/echo/1', body, { 'content-type': 'text/plain' }), 'Content-Type must be application/json (this body was sent as text/plain)');
    await expectRefusedBeforeRoute(send('POST', '/echo/1', body), 'Content-Type must be application/json; the body was sent without one');
    await expectRefusedBeforeRoute(send('POST', '/echo/1', body, { 'content-type': 'application/json; charset=iso-8859-1' }), 'Content-Type charset must be utf-8');
  });

  it('when a route takes form bodies (declared, or by default), then a form passes to it; a route declared JSON-only refuses one', async () => {
    for (const path of ['/form', '/undeclared']) {
      const form = await send('POST', path, 'a=1&b=caf%C3%A9+au+lait', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(form).toEqual({ status: 200, body: { success: true, data: { contentType: 'application/x-www-form-urlencoded', body: { a: '1', b: 'café au lait' } } } });
    }
    await expectRefusedBeforeRoute(
      send('POST', '/echo/1', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }),
      'Content-Type must be application/json (this body was sent as application/x-www-form-urlencoded)',
    );
    await expectRefusedBeforeRoute(
      send('POST', '/undeclared', 'a=1', { 'content-type': 'text/plain' }),
      'Content-Type must be application/json or application/x-www-form-urlencoded (this body was sent as text/plain)',
    );
  });

  it('when a form field decodes to a control character or to bytes that are not UTF-8, then the form is refused like a JSON body', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    await expectRefusedBeforeRoute(send('POST', '/form', 'client_id=a%00b', form), 'Form field client_id contains a control character');
    await expectRefusedBeforeRoute(send('POST', '/form', 'client_id=%E0%A4%A', form), 'Form field client_id is not valid: percent-encoded bytes must be UTF-8');
    await expectRefusedBeforeRoute(send('POST', '/form', Buffer.from([0x61, 0x3d, 0xff]), form), 'Request body is not valid UTF-8');
  });

  it('when a POST carries no body, then no Content-Type is needed', async () => {
    const reply = await send('POST', '/echo/1', '');
    expect(reply).toMatchObject({ status: 200, body: { success: true, data: { raw: null } } });
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('when a JSON body is sent with Content-Encoding %s, then it is decoded and the raw bytes are the decoded JSON', async (encoding, compress) => {
    const text = '{"amount":1.999999999999999999,"note":"café"}';
    const reply = await send('POST', '/echo/1', compress(Buffer.from(text)), { ...json, 'content-encoding': encoding });
    expect(reply).toMatchObject({ status: 200, body: { data: { raw: text, body: { note: 'café' } } } });
  });

  it('when a compressed body does not decode, or its encoding is unknown, then the answer is 400 PKC_2008 saying so', async () => {
    await expectRefusedBeforeRoute(send('POST', '/echo/1', '{"a":1}', { ...json, 'content-encoding': 'gzip' }), 'Request body is not valid gzip data');
    await expectRefusedBeforeRoute(send('POST', '/echo/1', '{"a":1}', { ...json, 'content-encoding': 'br' }), 'Request body is not valid br data');
    await expectRefusedBeforeRoute(
      send('POST', '/echo/1', '{"a":1}', { ...json, 'content-encoding': 'compress' }),
      'Content-Encoding compress is not supported: send the body uncompressed or with one of gzip, deflate or br',
    );
    expect(loggedText()).not.toContain('unhandled error');
  });

  it('when a compressed body decodes to more than the limit, then it is too large (the decoded size counts)', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ pad: 'x'.repeat(100_000) })));
    expect(bomb.length).toBeLessThan(1024);
    await expectRefusedBeforeRoute(send('POST', '/echo/1', bomb, { ...json, 'content-encoding': 'gzip' }), 'Request body is too large');
  });

  it('when the body is not valid UTF-8, then it is refused rather than decoded with replacement characters', async () => {
    const invalid = Buffer.concat([Buffer.from('{"note":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    await expectRefusedBeforeRoute(send('POST', '/echo/1', invalid, json), 'Request body is not valid UTF-8');
    const encodedSurrogate = Buffer.concat([Buffer.from('{"note":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    await expectRefusedBeforeRoute(send('POST', '/echo/1', encodedSurrogate, json), 'Request body is not valid UTF-8');
  });

  it('when JSON nests deeper than 32 levels, then the answer is 400 PKC_2008 before any parser recurses', async () => {
    await expectRefusedBeforeRoute(send('POST', '/echo/1', `${'['.repeat(500)}${']'.repeat(500)}`, json), 'Request body nests JSON arrays and objects more than 32 levels deep');
    const atLimit = `${'['.repeat(32)}${']'.repeat(32)}`;
    expect((await send('POST', '/echo/1', atLimit, json)).status).toBe(200);
  });

  it('when a string or field name in the body breaks the text rule, then the field is named and the route never runs', async () => {
    const rule = 'text must not contain control characters (such as NUL, tab or line breaks) or lone surrogates';
    const named = (field: string) => `${field} has the wrong format (expected ${expectedForms.text})`;
    await expectRefusedBeforeRoute(send('POST', '/echo/1', '{"externalId":"a\\u0000b"}', json), `Field externalId contains a control character: ${named('externalId')}`, textField('externalId'));
    await expectRefusedBeforeRoute(send('POST', '/echo/1', '{"note":"\\ud800"}', json), `Field note contains a lone surrogate (not valid Unicode): ${named('note')}`, textField('note'));
    await expectRefusedBeforeRoute(send('POST', '/echo/1', '{"items":[{"x":"\u0085"}]}', json), `Field items[0].x contains a control character: ${named('items.0.x')}`, textField('items.0.x'));
    await expectRefusedBeforeRoute(send('POST', '/echo/1', '{"a\\u0000":1}', json), `A field name in (body) contains a control character: ${rule}`);
  });

  it('when a route reads the body as written, then each number arrives as its lexeme and a repeated field keeps its last value', async () => {
    const reply = await send('POST', '/written', '{"amount":1.999999999999999999,"big":1e400,"n":[10.50],"amount":10.500}', json);
    expect(reply).toEqual({ status: 200, body: { success: true, data: { amount: 'number:10.500', big: 'number:1e400', n: ['number:10.50'] } } });
  });
});
