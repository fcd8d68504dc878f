import { mountDashboardRoutes } from '../../services/dashboard/src/http/route-table';
import { admissionHeadersOf, consoleAnswerProblemOf, consoleFuzzCases, consoleRoutesOf, unlistedPathCases, type Admission, type SweepSettings } from '../support/console-fuzz';
import { databaseFingerprint, type DatabaseFingerprint } from '../support/database-fingerprint';
import { RawHttpsClient, sendConcurrently } from '../support/fuzz-client';
import type { ConsoleHttpsClient } from '../support/https-client';
import { onboardPartner } from '../support/partners';
import { startDashboardStack, type DashboardStack } from '../support/stack';

/**
 * A seeded, bounded sweep of bad input through the partner dashboard's API over HTTPS, signed in as
 * a partner's admin (every action a role may take): every route of its route table with generated
 * path parameters, query strings, bodies and headers, and paths it does not list. Every answer is
 * well formed (never a 5xx; the envelope with a CON_ or PKC_ code answered with its status), and
 * nothing changes but the audit log, which gains the refusals. The admin's changes need a fresh
 * code here (DASHBOARD_FRESH_MFA_MINUTES 0), which no generated body holds.
 */
const seed = 20_261_129;
const notSwept = new Set(['DELETE /api/v1/session']);

describe('input fuzz through the partner dashboard API', () => {
  let stack: DashboardStack;
  let client: RawHttpsClient;
  let session: ConsoleHttpsClient;

  beforeAll(async () => {
    // Every admin change needs a fresh code (none is generated), so the sweep changes nothing a person did not confirm.
    stack = await startDashboardStack({ logLevel: 'warn', dashboard: { env: { DASHBOARD_FRESH_MFA_MINUTES: '0' } } });
    const partner = await onboardPartner(stack);
    const admin = await stack.dashboard.seedAdmin(partner.partnerId, 'Fuzz Admin');
    session = await admin.signIn();
    client = new RawHttpsClient({ port: stack.dashboard.port, certificatePem: stack.certificatePem });
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  const admissionHeaders = (kind: Admission): Record<string, string> => admissionHeadersOf(stack.dashboard.baseUrl, session)(kind);

  /** Every table the dashboard or what it calls owns, but the audit logs (they gain the refusals). */
  async function fingerprint(): Promise<DatabaseFingerprint> {
    const all = await databaseFingerprint(stack.databaseUrl, ['dashboard', 'auth', 'wallet', 'disbursements', 'collections', 'webhooks']);
    return Object.fromEntries(Object.entries(all).filter(([table]) => table !== 'dashboard.audit_log'));
  }

  test('when generated bad input reaches every route of the dashboard API, then every answer is well formed and nothing but the audit log changes', async () => {
    const unused = {} as never;
    const routes = consoleRoutesOf((app) => mountDashboardRoutes(app, { deps: unused, consoleOrigin: 'https://dashboard.invalid', partnerApi: unused, environment: 'sandbox' }), notSwept);
    expect(routes.length).toBeGreaterThan(20);
    const before = await fingerprint();
    const settings: SweepSettings = { seed, casesPerChangeRoute: 20, casesPerReadRoute: 10, unlistedPathCaseCount: 16, pathWords: ['members', 'transactions', 'bulk-payouts', 'credentials'], admissionHeaders };
    const cases = [...routes.flatMap((route, index) => consoleFuzzCases(route, index, settings)), ...unlistedPathCases(settings)];

    const results = await sendConcurrently(client, cases, 4);

    const problems = results.flatMap(({ fuzzCase, response }) => {
      const problem = consoleAnswerProblemOf(response);
      return problem === undefined ? [] : [`${fuzzCase.description} ${fuzzCase.request.path.slice(0, 120)}: ${problem}: ${response.text.slice(0, 200)}`];
    });
    const statusCounts = results.reduce<Record<string, number>>((counts, { response }) => ({ ...counts, [response.status]: (counts[response.status] ?? 0) + 1 }), {});
    console.log(`dashboard input fuzz (seed ${seed}): ${results.length} cases over ${routes.length} routes and unlisted paths; statuses ${JSON.stringify(statusCounts)}`);
    expect(problems).toEqual([]);
    expect(stack.logs()).not.toContain('"msg":"unhandled error"');
    expect(await fingerprint()).toEqual(before);
    expect((await session.get('/api/v1/session')).status).toBe(200);
  });
});
