import express, { type Express } from 'express';
import fc from 'fast-check';
import { consoleErrorCatalogue, httpStatusOf, isConsoleCode, isPkcCode } from '@pwa/errors';
import type { RawRequest, RawResponse } from './fuzz-client';
import { bodyFor, encodeBody, headers, pathParameter, queryString, type GeneratedBody } from './fuzz-inputs';

/**
 * What the consoles' input sweeps share (the back-office's and the dashboard's): their routes read
 * from their route tables, the generated cases of one route (path parameters, query, headers, a
 * body, and how the request is admitted), odd paths no table lists, and the rule for a well-formed
 * console answer.
 */
export interface ConsoleRoute {
  method: string;
  pathTemplate: string;
}

export interface FuzzCase {
  description: string;
  request: RawRequest;
}

export type Admission = 'session' | 'none' | 'other-site' | 'no-csrf';

/** A console API's routes as its route table mounts them (nothing is called: the handlers only close over what they were given). */
export function consoleRoutesOf(mount: (app: Express) => void, notSwept: ReadonlySet<string>): ConsoleRoute[] {
  const app = express();
  mount(app);
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
export function consoleAnswerProblemOf(response: RawResponse): string | undefined {
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

/** The headers of each way a sweep's request is admitted: the signed-in person's (cookie, CSRF token, the console's origin), none, another site's origin, or no CSRF token. */
export function admissionHeadersOf(consoleUrl: string, session: { cookie: string | undefined; csrfToken: string | undefined }): (kind: Admission) => Record<string, string> {
  return (kind): Record<string, string> => {
    const origin = new URL(consoleUrl).origin;
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
  };
}

/** The signed-in person's headers on most cases; now and then none, or another site's origin, or no CSRF token. */
export const admission = fc.oneof(
  { arbitrary: fc.constant('session' as const), weight: 8 },
  { arbitrary: fc.constantFrom('none' as const, 'other-site' as const, 'no-csrf' as const), weight: 2 },
);

export interface SweepSettings {
  seed: number;
  casesPerChangeRoute: number;
  casesPerReadRoute: number;
  unlistedPathCaseCount: number;
  /** Words an odd path is made of beside generated segments. */
  pathWords: readonly string[];
  admissionHeaders: (kind: Admission) => Record<string, string>;
}

export function consoleFuzzCases(route: ConsoleRoute, routeIndex: number, settings: SweepSettings): FuzzCase[] {
const { seed, casesPerChangeRoute, casesPerReadRoute, admissionHeaders } = settings;
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

export function unlistedPathCases(settings: SweepSettings): FuzzCase[] {
const { seed, unlistedPathCaseCount, pathWords, admissionHeaders } = settings;
  const generated = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    segments: fc.array(fc.oneof(pathParameter, fc.constantFrom(...pathWords, '..')), { minLength: 1, maxLength: 4 }),
    query: fc.option(queryString),
  });
  return fc.sample(generated, { numRuns: unlistedPathCaseCount, seed }).map(({ method, segments, query }) => ({
    description: `${method} an unlisted or odd path`,
    request: { method, path: `/${segments.join('/')}${query === null ? '' : `?${query}`}`, headers: admissionHeaders('session') },
  }));
}
