import fc from 'fast-check';
import { publicPathPrefix, routeTable, type RouteDefinition } from '../../services/gateway/src/domain/routes';
import { databaseFingerprint, type DatabaseFingerprint } from '../support/database-fingerprint';
import { answerProblemOf, RawHttpsClient, sendConcurrently, type RawRequest } from '../support/fuzz-client';
import { bodyFor, encodeBody, headers, pathOf, pathParameter, queryString, type BodyShape, type GeneratedBody } from '../support/fuzz-inputs';
import { accessTokenFor, onboardPartner, type OnboardedPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner, type WalletUser } from '../support/wallet-users';

/**
 * A seeded, bounded sweep of bad input through the gateway over HTTPS, to every route of its table
 * (iterated, so a new route is covered as soon as it is listed) and to paths it does not list:
 * generated bodies (strings with control characters and lone surrogates, bytes that are not UTF-8,
 * huge and deeply nested values, numbers as written), path parameters, query strings and headers.
 * Every answer must be well formed (no 5xx; the error envelope with a catalogue code and its status,
 * or a success envelope), and nothing may change after a refusal: the partner's balances, the
 * collections, disbursements, wallet and webhooks schemas, and a prepared quote and externalId of
 * each confirm route (the fuzz sends them in bodies that must be refused) still work at the end.
 */
const seed = 20_261_125;
const casesPerPostRoute = 36;
const casesPerGetRoute = 20;
const unlistedPathCaseCount = 24;
const concurrency = 6;

interface FuzzCase {
  description: string;
  request: RawRequest;
  /** The body breaks a rule whatever the rest of the request: the answer must be a refusal. */
  mustBeRefused: boolean;
}

describe('input fuzz through the gateway', () => {
  let stack: Stack;
  let client: RawHttpsClient;
  let partner: OnboardedPartner;
  let token: string;
  let user: WalletUser;
  const prepared = { disbursement: { quoteId: '', externalId: 'fuzz-prepared-transfer' }, collection: { quoteId: '', externalId: 'fuzz-prepared-collection' } };

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    client = new RawHttpsClient({ port: stack.gateway.port, certificatePem: stack.certificatePem });
    partner = await onboardPartner(stack, { rateLimitPerMinute: 1_000_000 });
    await Promise.all([fundPartner(stack, partner.partnerId, 'USD', '10000.00'), fundPartner(stack, partner.partnerId, 'LRD', '100000.00')]);
    token = await accessTokenFor(stack.client, partner);
    user = await createWalletUser(stack);
    await creditWallet(stack, user, 'USD', '1000.00');
    prepared.disbursement.quoteId = await quoteId('disbursement');
    prepared.collection.quoteId = await quoteId('collection');
  });

  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  async function quoteId(type: 'collection' | 'disbursement'): Promise<string> {
    const response = await stack.client.post(`/partner/v1/${type}/quote`, { phone: user.localPhone, amount: 10, currency: 'USD' }, { bearer: token });
    if (response.status !== 200) throw new Error(`quote failed: ${response.status} ${response.text}`);
    return response.body.data.quoteId as string;
  }

  /** The body a route takes, and whether every generated body must be refused (it names a prepared quote). */
  function bodyShapeOf(route: RouteDefinition): { shape: BodyShape; refusedOnly: boolean } {
    switch (route.pathTemplate) {
      case '/partner/auth/token':
        return { shape: { client_id: partner.clientId, client_secret: partner.clientSecret, grant_type: 'client_credentials' }, refusedOnly: false };
      case '/partner/v1/collection/quote':
      case '/partner/v1/disbursement/quote':
        return { shape: { phone: user.localPhone, amount: 10, currency: 'USD' }, refusedOnly: false };
      case '/partner/v1/collection/request':
        return { shape: { ...prepared.collection, note: 'fuzz' }, refusedOnly: true };
      case '/partner/v1/disbursement/transfer':
        return { shape: { ...prepared.disbursement, note: 'fuzz' }, refusedOnly: true };
      case '/partner/v1/webhooks/redeliver':
        return { shape: { status: 'failed', since: '2026-01-01T00:00:00Z' }, refusedOnly: false };
      default:
        return { shape: {}, refusedOnly: false };
    }
  }

  function casesFor(route: RouteDefinition, routeIndex: number): FuzzCase[] {
    const parameterCount = route.pathTemplate.split('/').filter((segment) => segment.startsWith(':')).length;
    const { shape, refusedOnly } = bodyShapeOf(route);
    const withBody = route.method === 'POST';
    const generated = fc.record({
      parameters: fc.array(pathParameter, { minLength: parameterCount, maxLength: parameterCount }),
      query: fc.option(queryString, { freq: withBody ? 4 : 1 }),
      headers,
      body: withBody ? bodyFor(shape, refusedOnly).map((body): GeneratedBody | undefined => body) : fc.constant(undefined),
    });
    const samples = fc.sample(generated, { numRuns: withBody ? casesPerPostRoute : casesPerGetRoute, seed: seed + routeIndex });
    return samples.map((sample) => {
      const path = `${pathOf(route, sample.parameters)}${sample.query === null ? '' : `?${sample.query}`}`;
      const authorization = sample.headers.authorization === 'valid' ? `Bearer ${token}` : sample.headers.authorization;
      const requestHeaders: Record<string, string> = { ...sample.headers.extra, ...(authorization === '' ? {} : { authorization }) };
      let body: Buffer | undefined;
      if (sample.body !== undefined) {
        const encoded = encodeBody(sample.body, sample.headers);
        body = encoded.bytes;
        Object.assign(requestHeaders, encoded.headers);
      }
      const bodyKind = sample.body === undefined ? 'no body' : `${sample.body.kind}, ${sample.headers.contentType ?? 'no type'}, ${sample.headers.contentEncoding ?? 'identity'}`;
      return {
        description: `${route.method} ${route.pathTemplate} [${bodyKind}]`,
        request: { method: route.method, path, headers: requestHeaders, ...(body === undefined ? {} : { body }) },
        mustBeRefused: sample.body?.certainlyRefused === true,
      };
    });
  }

  function unlistedPathCases(): FuzzCase[] {
    const generated = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      segments: fc.array(fc.oneof(pathParameter, fc.constantFrom('partner', 'v1', 'internal', 'collection', '..')), { minLength: 1, maxLength: 4 }),
      query: fc.option(queryString),
    });
    return fc.sample(generated, { numRuns: unlistedPathCaseCount, seed }).map(({ method, segments, query }) => ({
      description: `${method} an unlisted or odd path`,
      request: { method, path: `/${segments.join('/')}${query === null ? '' : `?${query}`}`, headers: { authorization: `Bearer ${token}` } },
      mustBeRefused: false,
    }));
  }

  const balances = async (): Promise<unknown> => (await stack.client.get('/partner/v1/balance', { bearer: token })).body;
  const fingerprint = (): Promise<DatabaseFingerprint> => databaseFingerprint(stack.databaseUrl, ['collections', 'disbursements', 'wallet', 'webhooks']);

  test('when generated bad input reaches every route of the table, then every answer is well formed, no refusal changes anything, and the prepared quotes and externalIds still work', async () => {
    const balancesBefore = await balances();
    const fingerprintBefore = await fingerprint();
    const cases = [...routeTable.flatMap((route, index) => casesFor(route, index)), ...unlistedPathCases()];

    const results = await sendConcurrently(client, cases, concurrency);

    const problems = results.flatMap(({ fuzzCase, response }) => {
      const problem = answerProblemOf(response) ?? (fuzzCase.mustBeRefused && response.body?.success !== false ? 'a body that breaks the rules was accepted' : undefined);
      return problem === undefined ? [] : [`${fuzzCase.description} ${fuzzCase.request.path.slice(0, 120)}: ${problem}: ${response.text.slice(0, 200)}`];
    });
    const refusals = results.filter(({ response }) => response.body?.success === false).length;
    const statusCounts = results.reduce<Record<string, number>>((counts, { response }) => ({ ...counts, [response.status]: (counts[response.status] ?? 0) + 1 }), {});
    console.log(`input fuzz (seed ${seed}): ${results.length} cases over ${routeTable.length} routes of ${publicPathPrefix} and unlisted paths; ${refusals} refused; statuses ${JSON.stringify(statusCounts)}`);
    expect(problems).toEqual([]);
    expect(results).toHaveLength(cases.length);
    expect(stack.logs()).not.toContain('"msg":"unhandled error"');

    // Nothing changed: the partner's money, and every row of the schemas a confirm would write.
    expect(await balances()).toEqual(balancesBefore);
    expect(await fingerprint()).toEqual(fingerprintBefore);
    // The prepared quotes are unused and the prepared externalIds free: the real calls succeed now.
    const transfer = await stack.client.post('/partner/v1/disbursement/transfer', { ...prepared.disbursement }, { bearer: token });
    expect({ status: transfer.status, status_: transfer.body?.data?.status }).toEqual({ status: 200, status_: 'completed' });
    const collection = await stack.client.post('/partner/v1/collection/request', { ...prepared.collection }, { bearer: token });
    expect(collection.status).toBe(202);
    expect(await stack.walletOperator(['check-ledger'])).toMatchObject({ ok: true, problems: [] });
  });
});
