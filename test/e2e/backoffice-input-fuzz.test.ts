import express from 'express';
import fc from 'fast-check';
import { consoleErrorCatalogue, httpStatusOf, isConsoleCode, isPkcCode } from '@pwa/errors';
import { mountConsoleRoutes, type ConsoleRouteContext } from '../../services/backoffice/src/http/console-route-table';
import { databaseFingerprint, type DatabaseFingerprint } from '../support/database-fingerprint';
import { RawHttpsClient, sendConcurrently, type RawRequest, type RawResponse } from '../support/fuzz-client';
import { bodyFor, encodeBody, headers, pathParameter, queryString, type GeneratedBody } from '../support/fuzz-inputs';
import type { ConsoleHttpsClient } from '../support/https-client';
import { onboardPartner } from '../support/partners';
import { startBackofficeStack, type BackofficeStack } from '../support/stack';

/**
 * A seeded, bounded sweep of bad input through the back-office's console API over HTTPS, signed in
 * as a person with every role (the session cookie and its CSRF token on most requests, so the input
 * reaches the routes' own rules): every route of its route table (read from the table itself, so a
 * new route is swept as soon as it is mounted) with generated path parameters, query strings,
 * bodies and headers, and paths it does not list. Every answer must be well formed (never a 5xx;
 * the error envelope with a CON_ or PKC_ code answered with that code's status), and the refusals
 * change nothing: every table of the services' schemas is as it was, but the audit log, which
 * gains the refusals.
 */
const seed = 20_261_128;
const casesPerChangeRoute = 24;
const casesPerReadRoute = 12;
const unlistedPathCaseCount = 16;
const concurrency = 4;
/** Routes not swept: signing out would end the sweep's own session. */
const notSwept = new Set(['DELETE /api/v1/session']);

interface ConsoleRoute {
  method: string;
  pathTemplate: string;
}

interface FuzzCase {
  description: string;
  request: RawRequest;
}

/** The console API's routes as its route table mounts them (nothing is called: the handlers only close over the context). */
function consoleRoutes(): ConsoleRoute[] {
  const app = express();
  const unused = {} as never;
  const context: ConsoleRouteContext = {
    deps: { sessions: {}, throttle: {} } as never,
    consoleOrigin: 'https://backoffice.invalid',
    upstream: { targets: unused, partners: unused, partnerActions: unused, webhooks: unused, wallet: unused } as never,
    wakeBacklog: () => undefined,
    logger: unused,
  };
  mountConsoleRoutes(app, context);
  const layers = (app as unknown as { router: { stack: { route?: { path: unknown; methods: Record<string, boolean> } }[] } }).router.stack;
  return layers.flatMap((layer) => {
    const route = layer.route;
    if (route === undefined || typeof route.path !== 'string' || !route.path.startsWith('/api/v1/')) return [];
    return Object.keys(route.methods)
      .map((method) => ({ method: method.toUpperCase(), pathTemplate: route.path as string }))
      .filter((each) => !notSwept.has(`${each.method} ${each.pathTemplate}`));
  });
}

/** What is wrong with a console answer, or undefined when it is well formed. */
function consoleAnswerProblemOf(response: RawResponse): string | undefined {
  if (response.status >= 500) return `answered ${response.status}`;
  const body = response.body as Record<string, unknown> | undefined;
  if (response.status >= 200 && response.status < 300) {
    if (response.headers['content-type']?.toString().startsWith('text/csv') || response.headers['content-type']?.toString().startsWith('application/x-ndjson')) return undefined;
    if (typeof body === 'object' && body !== null && body.success === true) return undefined;
    if (response.status === 204) return undefined;
    return `answered ${response.status} without the success envelope`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `answered ${response.status} with a body that is not a JSON object`;
  if (body.success !== false) return `answered ${response.status} without success: false`;
  if (typeof body.message !== 'string' || body.message === '') return 'answered an error without a message';
  if (isConsoleCode(body.code)) return consoleErrorCatalogue[body.code].httpStatus === response.status ? undefined : `answered ${body.code} with status ${response.status}`;
  if (isPkcCode(body.code)) return httpStatusOf(body.code) === response.status ? undefined : `answered ${body.code} with status ${response.status}`;
  return `answered code ${String(body.code)}, not a catalogue code`;
}

describe('input fuzz through the back-office console API', () => {
  let stack: BackofficeStack;
  let client: RawHttpsClient;
  let session: ConsoleHttpsClient;

  beforeAll(async () => {
    stack = await startBackofficeStack({ logLevel: 'warn' });
    await onboardPartner(stack);
    const person = await stack.backoffice.seedOperator({ name: 'Fuzz Every-Role', roles: ['viewer', 'maker', 'checker', 'admin'] });
    session = await person.signIn();
    client = new RawHttpsClient({ port: stack.backoffice.port, certificatePem: stack.certificatePem });
  });

  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  /** The signed-in person's headers on most cases; now and then none, or another site's origin. */
  const admission = fc.oneof(
    { arbitrary: fc.constant('session' as const), weight: 8 },
    { arbitrary: fc.constantFrom('none' as const, 'other-site' as const, 'no-csrf' as const), weight: 2 },
  );

  function admissionHeaders(kind: 'session' | 'none' | 'other-site' | 'no-csrf'): Record<string, string> {
    const origin = new URL(stack.backoffice.baseUrl).origin;
    const cookie = session.cookie ?? '';
    const csrf = session.csrfToken ?? '';
    switch (kind) {
      case 'session':
        return { origin, cookie, 'x-csrf-token': csrf };
      case 'no-csrf':
        return { origin, cookie };
      case 'other-site':
        return { origin: 'https://evil.example', cookie, 'x-csrf-token': csrf };
      case 'none':
        return {};
    }
  }

  function casesFor(route: ConsoleRoute, routeIndex: number): FuzzCase[] {
    const parameterCount = route.pathTemplate.split('/').filter((segment) => segment.startsWith(':')).length;
    const withBody = route.method !== 'GET' && route.method !== 'DELETE';
    const generated = fc.record({
      parameters: fc.array(pathParameter, { minLength: parameterCount, maxLength: parameterCount }),
      query: fc.option(queryString, { freq: withBody ? 4 : 1 }),
      headers,
      admission,
      body: withBody ? bodyFor({}, false).map((body): GeneratedBody | undefined => body) : fc.constant(undefined),
    });
    const samples = fc.sample(generated, { numRuns: withBody ? casesPerChangeRoute : casesPerReadRoute, seed: seed + routeIndex });
    return samples.map((sample) => {
      let index = 0;
      const path = route.pathTemplate
        .replace(/^\/api\/v1/, '')
        .split('/')
        .map((segment) => (segment.startsWith(':') ? (sample.parameters[index++] ?? 'x') : segment))
        .join('/');
      // The generated Authorization is left out on a signed-in case: a cookie with a bearer token is refused before any rule.
      const { authorization, ...rest } = { ...sample.headers.extra, authorization: sample.headers.authorization };
      const requestHeaders: Record<string, string> = { ...rest, ...(sample.admission === 'none' && authorization !== 'valid' && authorization !== '' ? { authorization } : {}), ...admissionHeaders(sample.admission) };
      let body: Buffer | undefined;
      if (sample.body !== undefined) {
        const encoded = encodeBody(sample.body, sample.headers);
        body = encoded.bytes;
        Object.assign(requestHeaders, encoded.headers);
      }
      return {
        description: `${route.method} ${route.pathTemplate} [${sample.admission}${sample.body === undefined ? '' : `, ${sample.body.kind}, ${sample.headers.contentType ?? 'no type'}`}]`,
        request: { method: route.method, path: `${path}${sample.query === null ? '' : `?${sample.query}`}`, headers: requestHeaders, ...(body === undefined ? {} : { body }) },
      };
    });
  }

  function unlistedPathCases(): FuzzCase[] {
    const generated = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      segments: fc.array(fc.oneof(pathParameter, fc.constantFrom('partners', 'operators', 'approval-requests', 'audit-log', '..')), { minLength: 1, maxLength: 4 }),
      query: fc.option(queryString),
    });
    return fc.sample(generated, { numRuns: unlistedPathCaseCount, seed }).map(({ method, segments, query }) => ({
      description: `${method} an unlisted or odd path`,
      request: { method, path: `/${segments.join('/')}${query === null ? '' : `?${query}`}`, headers: admissionHeaders('session') },
    }));
  }

  /** Every table of the services' schemas but the audit log (it gains an entry for each refusal). */
  async function fingerprint(): Promise<DatabaseFingerprint> {
    const all = await databaseFingerprint(stack.databaseUrl, ['backoffice', 'auth', 'wallet', 'quotes', 'webhooks']);
    return Object.fromEntries(Object.entries(all).filter(([table]) => table !== 'backoffice.audit_log'));
  }

  test('when generated bad input reaches every route of the console API, then every answer is well formed and nothing but the audit log changes', async () => {
    const routes = consoleRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const before = await fingerprint();
    const cases = [...routes.flatMap((route, index) => casesFor(route, index)), ...unlistedPathCases()];

    const results = await sendConcurrently(client, cases, concurrency);

    const problems = results.flatMap(({ fuzzCase, response }) => {
      const problem = consoleAnswerProblemOf(response);
      return problem === undefined ? [] : [`${fuzzCase.description} ${fuzzCase.request.path.slice(0, 120)}: ${problem}: ${response.text.slice(0, 200)}`];
    });
    const statusCounts = results.reduce<Record<string, number>>((counts, { response }) => ({ ...counts, [response.status]: (counts[response.status] ?? 0) + 1 }), {});
    console.log(`back-office input fuzz (seed ${seed}): ${results.length} cases over ${routes.length} routes and unlisted paths; statuses ${JSON.stringify(statusCounts)}`);
    expect(problems).toEqual([]);
    expect(results).toHaveLength(cases.length);
    expect(stack.logs()).not.toContain('"msg":"unhandled error"');
    expect(await fingerprint()).toEqual(before);
    // The session the sweep used still works: nothing in the input ended or confused it.
    expect((await session.get('/api/v1/session')).status).toBe(200);
  });
});
