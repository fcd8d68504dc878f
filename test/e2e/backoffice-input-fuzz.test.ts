import { mountConsoleRoutes, type ConsoleRouteContext } from '../../services/backoffice/src/http/console-route-table';
import { databaseFingerprint, type DatabaseFingerprint } from '../support/database-fingerprint';
import { admissionHeadersOf, consoleAnswerProblemOf, consoleFuzzCases, consoleRoutesOf, unlistedPathCases, type Admission, type SweepSettings } from '../support/console-fuzz';
import { RawHttpsClient, sendConcurrently } from '../support/fuzz-client';
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

/** The console API's routes as its route table mounts them. */
function consoleRoutes() {
  const unused = {} as never;
  const context: ConsoleRouteContext = {
    deps: { sessions: {}, throttle: {} } as never,
    consoleOrigin: 'https://backoffice.invalid',
    upstream: { targets: unused, partners: unused, partnerActions: unused, webhooks: unused, wallet: unused } as never,
    wakeBacklog: () => undefined,
    logger: unused,
  };
  return consoleRoutesOf((app) => mountConsoleRoutes(app, context), notSwept);
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

  const admissionHeaders = (kind: Admission): Record<string, string> => admissionHeadersOf(stack.backoffice.baseUrl, session)(kind);

  /** Every table of the services' schemas but the audit log (it gains an entry for each refusal). */
  async function fingerprint(): Promise<DatabaseFingerprint> {
    const all = await databaseFingerprint(stack.databaseUrl, ['backoffice', 'auth', 'wallet', 'quotes', 'webhooks']);
    return Object.fromEntries(Object.entries(all).filter(([table]) => table !== 'backoffice.audit_log'));
  }

  test('when generated bad input reaches every route of the console API, then every answer is well formed and nothing but the audit log changes', async () => {
    const routes = consoleRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const before = await fingerprint();
    const settings: SweepSettings = { seed, casesPerChangeRoute, casesPerReadRoute, unlistedPathCaseCount, pathWords: ['partners', 'operators', 'approval-requests', 'audit-log'], admissionHeaders };
    const cases = [...routes.flatMap((route, index) => consoleFuzzCases(route, index, settings)), ...unlistedPathCases(settings)];

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
