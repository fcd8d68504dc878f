import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createLogger } from '@pwa/logging';
import { expectedForms } from '@pwa/errors';
import { createApp, declareBodyTypes, listen, type RunningServer } from '../../src';

/**
 * createApp's largeJsonBody: the requests it applies to are read within its limit, every other
 * request within jsonBodyLimit, and every other body rule (UTF-8, depth, text rule, decoded size)
 * holds for both. The routes count their calls: a refused body never reaches one.
 */
const logger = createLogger({ service: 'http-large-body-test', level: 'silent' });

let server: RunningServer;
let defaultServer: RunningServer;
let routeCalls = 0;

const largeLimitBytes = 64 * 1024;

function appWith(largeJsonBody: Parameters<typeof createApp>[0]['largeJsonBody']) {
  return createApp({
    serviceName: 'http-large-body-test',
    logger,
    ...(largeJsonBody === undefined ? {} : { largeJsonBody }),
    before: [
      (_req, res, next) => {
        declareBodyTypes(res, 'json');
        next();
      },
    ],
    routes: (expressApp) => {
      expressApp.post(['/large', '/small'], (req, res) => {
        routeCalls += 1;
        const body = req.body as { pad?: string };
        res.json({ success: true, data: { padLength: body.pad?.length ?? null } });
      });
    },
  }).app;
}

beforeAll(async () => {
  server = await listen(appWith({ limit: '64kb', appliesTo: (req) => req.path === '/large' }), 0, '127.0.0.1');
  defaultServer = await listen(appWith(undefined), 0, '127.0.0.1');
});

afterAll(async () => {
  await Promise.all([server.close(), defaultServer.close()]);
});

interface Reply {
  status: number;
  body: unknown;
}

function send(target: RunningServer, path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: target.port, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A JSON body of about `bytes` bytes: one string of 4-byte characters (the largest UTF-8 takes). */
function bodyOfAbout(bytes: number): { text: string; padLength: number } {
  const pad = '😀'.repeat(Math.floor(bytes / 4));
  return { text: JSON.stringify({ pad }), padLength: pad.length };
}

async function expectRefused(reply: Promise<Reply>, message: string | RegExp, fields: Record<string, unknown> = {}): Promise<void> {
  const callsBefore = routeCalls;
  expect(await reply).toEqual({ status: 400, body: { success: false, code: 'PKC_2008', message: typeof message === 'string' ? message : expect.stringMatching(message), ...fields } });
  expect(routeCalls).toBe(callsBefore);
}

describe('a larger JSON body limit for the requests it applies to', () => {
  it('when a body between 16 kb and the large limit goes where the large limit applies, then it is read whole', async () => {
    const { text, padLength } = bodyOfAbout(40 * 1024);
    expect(Buffer.byteLength(text)).toBeGreaterThan(16 * 1024);

    expect(await send(server, '/large', text)).toEqual({ status: 200, body: { success: true, data: { padLength } } });
  });

  it('when the same body goes anywhere else, then it is too large as before (16 kb), and the route never runs', async () => {
    const { text } = bodyOfAbout(40 * 1024);

    await expectRefused(send(server, '/small', text), 'Request body is too large');
    await expectRefused(send(defaultServer, '/large', text), 'Request body is too large');
  });

  it('when a body under 16 kb goes anywhere, then it is read as before', async () => {
    const { text, padLength } = bodyOfAbout(8 * 1024);

    expect(await send(server, '/small', text)).toEqual({ status: 200, body: { success: true, data: { padLength } } });
    expect(await send(defaultServer, '/small', text)).toEqual({ status: 200, body: { success: true, data: { padLength } } });
  });

  it('when a body over the large limit goes where it applies, then it is too large', async () => {
    const { text } = bodyOfAbout(largeLimitBytes + 1024);

    await expectRefused(send(server, '/large', text), 'Request body is too large');
  });

  it('when a compressed body decodes to more than the large limit, then it is too large (the decoded size counts there too)', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ pad: 'x'.repeat(largeLimitBytes * 2) })));
    expect(bomb.length).toBeLessThan(16 * 1024);

    await expectRefused(send(server, '/large', bomb, { 'content-encoding': 'gzip' }), 'Request body is too large');
  });

  it('when a large body breaks another body rule, then it is refused as a small one would be', async () => {
    const { text } = bodyOfAbout(40 * 1024);
    const withNul = text.replace('😀', '\\u0000');
    const notUtf8 = Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xff]), Buffer.from('"}')]);

    await expectRefused(send(server, '/large', withNul), `Field pad contains a control character: pad has the wrong format (expected ${expectedForms.text})`, {
      invalidFields: [{ field: 'pad', problem: 'wrong_format', expected: expectedForms.text }],
    });
    await expectRefused(send(server, '/large', notUtf8), 'Request body is not valid UTF-8');
    await expectRefused(send(server, '/large', `${'['.repeat(200)}${']'.repeat(200)}`), /^Request body nests JSON/);
  });
});
