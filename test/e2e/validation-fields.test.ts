import { randomUUID } from 'node:crypto';
import { publicApi } from '@pwa/contracts';
import type { JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';

/**
 * Every validation refusal of the public API names what to fix (issue 29, decision 0075): for each
 * route and each of its body fields, query and path parameters, a missing value, a value of the
 * wrong type and (where the field has a form) one in the wrong format, through the gateway over
 * HTTPS. Each answer must keep the status and code the route always gave, list in `invalidFields`
 * exactly the offending field with the right problem (and what is expected, unless it is unknown),
 * and name the field in its message. The client validates every answer against the OpenAPI
 * document, so `invalidFields` is also held to its documented shape. Unknown fields are refused on
 * every body (decision 0075). Nothing here needs a real quote, collection or bulk: each body or query
 * is refused before anything is looked up. A bulk quote's items are judged one by one: an item
 * refused for its own fields names them under the item (items.0.phone) in its failureReason. Every
 * operation of the contract that takes a body, a query or a path parameter has rows here (a test
 * below reads the contract), so a new route cannot go untested.
 */

type Problem = 'missing' | 'unknown' | 'wrong_type' | 'wrong_format' | 'not_allowed' | 'out_of_range' | 'too_long';
type Body = Record<string, unknown>;
type Query = Record<string, string | readonly string[]>;

interface Refusal {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  code: string;
  field: string;
  problem: Problem;
}

const without = (body: Body, field: string): Body => Object.fromEntries(Object.entries(body).filter(([name]) => name !== field));
const queryText = (query: Query): string => {
  const pairs = Object.entries(query).flatMap(([name, value]) => (typeof value === 'string' ? [value] : value).map((one) => `${encodeURIComponent(name)}=${encodeURIComponent(one)}`));
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
};

/** One refusal per variant of a body field: the field missing, or replaced by the given value. */
function bodyCases(route: string, path: string, valid: Body, variants: readonly (readonly [field: string, problem: Problem, value: unknown, code: string])[]): Refusal[] {
  return variants.map(([field, problem, value, code]) => ({
    label: `${route}: ${field} ${problem} (${code})`,
    method: 'POST',
    path,
    body: problem === 'missing' ? without(valid, field) : { ...valid, [field]: value },
    code,
    field,
    problem,
  }));
}

/** One refusal per variant of a query parameter: left out of a valid query, or set to the given value(s). */
function queryCases(route: string, path: string, valid: Query, variants: readonly (readonly [field: string, problem: Problem, value: string | readonly string[] | undefined, extra?: Query])[]): Refusal[] {
  return variants.map(([field, problem, value, extra]) => {
    const query = value === undefined ? Object.fromEntries(Object.entries(valid).filter(([name]) => name !== field)) : { ...valid, ...extra, [field]: value };
    return { label: `${route}: ${field} ${problem}`, method: 'GET', path: `${path}${queryText(query)}`, code: 'PKC_2008', field, problem };
  });
}

const tooLong = (length: number) => 'x'.repeat(length + 1);
const day = '2026-11-28';
const instant = '2026-11-28T00:00:00Z';

const quoteVariants = [
  ['phone', 'missing', undefined, 'PKC_2008'],
  ['phone', 'wrong_type', 770000001, 'PKC_2001'],
  ['phone', 'wrong_format', '12345', 'PKC_2001'],
  ['amount', 'missing', undefined, 'PKC_2008'],
  ['amount', 'wrong_type', '100', 'PKC_2002'],
  ['amount', 'wrong_format', 10.005, 'PKC_2002'],
  ['amount', 'out_of_range', 0.5, 'PKC_2003'],
  ['amount', 'out_of_range', 10_001, 'PKC_2004'],
  ['currency', 'missing', undefined, 'PKC_2008'],
  ['currency', 'wrong_type', 1, 'PKC_2005'],
  ['currency', 'not_allowed', 'EUR', 'PKC_2005'],
  ['memo', 'unknown', 'a field no quote takes', 'PKC_2008'],
] as const;

const confirmVariants = [
  ['quoteId', 'missing', undefined, 'PKC_2008'],
  ['quoteId', 'wrong_type', 7, 'PKC_2009'],
  ['quoteId', 'wrong_format', 'not-a-uuid', 'PKC_2009'],
  ['externalId', 'missing', undefined, 'PKC_2008'],
  ['externalId', 'wrong_type', 12, 'PKC_2008'],
  ['externalId', 'wrong_format', 'order\u0000-1', 'PKC_2008'],
  ['externalId', 'too_long', tooLong(100), 'PKC_2006'],
  ['note', 'wrong_type', 5, 'PKC_2008'],
  ['note', 'too_long', tooLong(200), 'PKC_2007'],
  ['notes', 'unknown', 'a misspelt note', 'PKC_2008'],
] as const;

const listVariants = (statusExample: string) =>
  [
    ['status', 'not_allowed', statusExample],
    ['status', 'wrong_type', ['completed', 'failed']],
    ['currency', 'not_allowed', 'EUR'],
    ['externalId', 'too_long', tooLong(100)],
    ['createdFrom', 'wrong_format', day],
    ['createdTo', 'wrong_format', day],
    ['createdTo', 'out_of_range', '2026-11-27T00:00:00Z', { createdFrom: instant }],
    ['limit', 'wrong_format', 'ten'],
    ['limit', 'out_of_range', '500'],
    ['cursor', 'not_allowed', 'Zm9yZ2Vk'],
    ['foo', 'unknown', '1'],
  ] as const;

const statementQuery: Query = { currency: 'USD', from: instant, to: '2026-11-29T00:00:00Z' };

/** A path parameter holding a control character (%00): the gateway refuses it, naming the parameter, before any lookup. */
const pathCase = (route: string, method: Refusal['method'], path: string, field: string): Refusal => ({ label: `${route}: ${field} with a control character`, method, path, code: 'PKC_2008', field, problem: 'wrong_format' });

const bulkId = 'PKB-1718000000000-1A2B3C4D';
const pageCursorTooLong = 'x'.repeat(501);

const refusals: Refusal[] = [
  ...(['collection', 'disbursement'] as const).flatMap((type) => bodyCases(`${type} quote`, `/partner/v1/${type}/quote`, { phone: '0770000001', amount: 100, currency: 'USD' }, quoteVariants)),
  ...bodyCases('collection request', '/partner/v1/collection/request', { quoteId: randomUUID(), externalId: 'order-1', note: 'Invoice 1' }, confirmVariants),
  ...bodyCases('disbursement transfer', '/partner/v1/disbursement/transfer', { quoteId: randomUUID(), externalId: 'payout-1', note: 'Salary' }, confirmVariants),
  ...bodyCases('refund', '/partner/v1/collection/PKC-1718000000000-9F3A6C1E84B25D07/refund', { externalId: 'refund-1', amount: 1, reason: 'Returned' }, [
    ['externalId', 'missing', undefined, 'PKC_2008'],
    ['externalId', 'wrong_type', 12, 'PKC_2008'],
    ['externalId', 'too_long', tooLong(100), 'PKC_2006'],
    ['amount', 'wrong_type', '1', 'PKC_2002'],
    ['amount', 'wrong_format', 1.001, 'PKC_2002'],
    ['reason', 'wrong_type', 5, 'PKC_2008'],
    ['reason', 'too_long', tooLong(200), 'PKC_2007'],
    ['ammount', 'unknown', 1, 'PKC_2008'],
  ]),
  ...bodyCases('bulk quote', '/partner/v1/disbursement/bulk/quote', { currency: 'USD', items: [{ phone: '0770000001', amount: 10, externalId: 'pay-1' }] }, [
    ['currency', 'missing', undefined, 'PKC_2008'],
    ['currency', 'wrong_type', 1, 'PKC_2005'],
    ['currency', 'not_allowed', 'EUR', 'PKC_2005'],
    ['items', 'missing', undefined, 'PKC_2008'],
    ['items', 'wrong_type', 'one payout', 'PKC_2008'],
    ['items', 'out_of_range', [], 'PKC_2008'],
    ['reference', 'unknown', 'payroll', 'PKC_2008'],
  ]),
  ...bodyCases('collection quote', '/partner/v1/collection/quote', { phone: '0770000001', amount: 100, currency: 'USD' }, [['currency', 'not_allowed', 'LRD', 'PKC_2010']]),
  {
    // Text with a control character is refused for the whole body, wherever it is: in an item, the field is named dotted.
    label: 'bulk quote: an item’s externalId with a control character',
    method: 'POST',
    path: '/partner/v1/disbursement/bulk/quote',
    body: { currency: 'USD', items: [{ phone: '0770000001', amount: 10, externalId: 'pay\u0000-1' }] },
    code: 'PKC_2008',
    field: 'items.0.externalId',
    problem: 'wrong_format',
  },
  ...bodyCases('bulk transfer', '/partner/v1/disbursement/bulk/transfer', { bulkQuoteId: randomUUID(), externalId: 'bulk-1' }, [
    ['bulkQuoteId', 'missing', undefined, 'PKC_2008'],
    ['bulkQuoteId', 'wrong_type', 7, 'PKC_2009'],
    ['bulkQuoteId', 'wrong_format', 'not-a-uuid', 'PKC_2009'],
    ['externalId', 'missing', undefined, 'PKC_2008'],
    ['externalId', 'wrong_type', 12, 'PKC_2008'],
    ['externalId', 'too_long', tooLong(100), 'PKC_2006'],
    ['quoteId', 'unknown', randomUUID(), 'PKC_2008'],
  ]),
  ...bodyCases('redelivery', '/partner/v1/webhooks/redeliver', { status: 'failed', since: instant }, [
    ['status', 'missing', undefined, 'PKC_2008'],
    ['status', 'wrong_type', 1, 'PKC_2008'],
    ['status', 'not_allowed', 'delivered', 'PKC_2008'],
    ['since', 'missing', undefined, 'PKC_2008'],
    ['since', 'wrong_type', 5, 'PKC_2008'],
    ['since', 'wrong_format', day, 'PKC_2008'],
    ['until', 'unknown', instant, 'PKC_2008'],
  ]),
  ...queryCases('statement', '/partner/v1/statement', statementQuery, [
    ['currency', 'missing', undefined],
    ['currency', 'not_allowed', 'EUR'],
    ['currency', 'wrong_type', ['USD', 'LRD']],
    ['from', 'missing', undefined],
    ['from', 'wrong_format', day],
    ['to', 'missing', undefined],
    ['to', 'wrong_format', '2026-11-29'],
    ['to', 'out_of_range', '2026-11-27T00:00:00Z'],
    ['format', 'not_allowed', 'xml'],
    ['limit', 'wrong_format', 'ten'],
    ['limit', 'out_of_range', '500'],
    ['cursor', 'not_allowed', 'Zm9yZ2Vk'],
    ['foo', 'unknown', '1'],
  ]),
  ...queryCases('collections list', '/partner/v1/collections', {}, [...listVariants('refunded'), ['phone', 'wrong_format', '12345']]),
  ...queryCases('disbursements list', '/partner/v1/disbursements', {}, [...listVariants('approved'), ['phone', 'wrong_format', '12345']]),
  ...queryCases('refunds list', '/partner/v1/refunds', {}, [...listVariants('pending'), ['collectionReferenceId', 'too_long', tooLong(100)]]),
  ...queryCases('events', '/partner/v1/events', {}, [
    ['type', 'not_allowed', 'payout.sent'],
    ['since', 'wrong_format', day],
    ['since', 'wrong_type', [instant, instant]],
    ['limit', 'out_of_range', '0'],
    ['cursor', 'not_allowed', 'Zm9yZ2Vk'],
    ['foo', 'unknown', '1'],
  ]),
  ...queryCases('webhook deliveries', '/partner/v1/webhooks/deliveries', {}, [
    ['status', 'not_allowed', 'lost'],
    ['event', 'not_allowed', 'payout.sent'],
    ['referenceId', 'too_long', tooLong(100)],
    ['from', 'wrong_format', day],
    ['to', 'wrong_format', day],
    ['limit', 'wrong_format', 'ten'],
    ['cursor', 'not_allowed', 'Zm9yZ2Vk'],
    ['foo', 'unknown', '1'],
  ]),
  ...queryCases('bulk status', `/partner/v1/disbursement/bulk/${bulkId}`, {}, [
    ['limit', 'out_of_range', '101'],
    ['limit', 'wrong_type', ['1', '2']],
    ['cursor', 'too_long', pageCursorTooLong],
    ['foo', 'unknown', '1'],
  ]),
  ...queryCases('bulk items', `/partner/v1/disbursement/bulk/${bulkId}/items`, {}, [
    ['limit', 'wrong_format', 'ten'],
    ['limit', 'out_of_range', '101'],
    ['limit', 'wrong_type', ['1', '2']],
    ['cursor', 'too_long', pageCursorTooLong],
    ['foo', 'unknown', '1'],
  ]),
  ...queryCases('bulks list', '/partner/v1/disbursement/bulks', {}, [
    ['status', 'not_allowed', 'failed'],
    ['status', 'wrong_type', ['completed', 'processing']],
    ['createdFrom', 'wrong_format', day],
    ['createdTo', 'wrong_format', day],
    ['createdTo', 'out_of_range', '2026-11-27T00:00:00Z', { createdFrom: instant }],
    ['limit', 'wrong_format', 'ten'],
    ['limit', 'out_of_range', '500'],
    ['cursor', 'not_allowed', 'Zm9yZ2Vk'],
    ['currency', 'unknown', 'USD'],
    ['foo', 'unknown', '1'],
  ]),
  pathCase('collection status', 'GET', '/partner/v1/collection/PKC-1%00', 'referenceId'),
  pathCase('collection cancel', 'POST', '/partner/v1/collection/PKC-1%00/cancel', 'referenceId'),
  pathCase('refund', 'POST', '/partner/v1/collection/PKC-1%00/refund', 'referenceId'),
  pathCase('refund status', 'GET', '/partner/v1/refund/PKR-1%00', 'referenceId'),
  pathCase('disbursement status', 'GET', '/partner/v1/disbursement/PKD-1%00', 'referenceId'),
  pathCase('bulk status', 'GET', '/partner/v1/disbursement/bulk/PKB-1%00', 'bulkId'),
  pathCase('bulk items', 'GET', '/partner/v1/disbursement/bulk/PKB-1%00/items', 'bulkId'),
  pathCase('event', 'GET', '/partner/v1/events/1%00', 'eventId'),
  pathCase('delivery redelivery', 'POST', '/partner/v1/webhooks/deliveries/1%00/redeliver', 'deliveryId'),
  ...(['approve', 'decline', 'expire'] as const).map((decision) => pathCase(`sandbox ${decision}`, 'POST', `/partner/v1/sandbox/collection/PKC-1%00/${decision}`, 'referenceId')),
  { label: 'account lookup: phone wrong_format', method: 'GET', path: '/partner/v1/account/12345', code: 'PKC_2001', field: 'phone', problem: 'wrong_format' },
  { label: 'account lookup: phone with a control character', method: 'GET', path: '/partner/v1/account/0770%00', code: 'PKC_2008', field: 'phone', problem: 'wrong_format' },
];

/** One item of a bulk quote refused for its own field: the bulk is 400 PKC_5005 (no valid item) and the item's failureReason names the field under it. */
interface ItemRefusal {
  label: string;
  item: unknown;
  code: string;
  field: string;
  problem: Problem;
}

const validItem: Body = { phone: '0770000001', amount: 10, externalId: 'pay-1', note: 'Salary' };
const itemRefusals: ItemRefusal[] = (
  [
    ['phone', 'missing', undefined, 'PKC_2008'],
    ['phone', 'wrong_type', 770000001, 'PKC_2001'],
    ['phone', 'wrong_format', '12345', 'PKC_2001'],
    ['amount', 'missing', undefined, 'PKC_2008'],
    ['amount', 'wrong_type', '10', 'PKC_2002'],
    ['amount', 'wrong_format', 10.005, 'PKC_2002'],
    ['amount', 'out_of_range', 0.5, 'PKC_2003'],
    ['amount', 'out_of_range', 10_001, 'PKC_2004'],
    ['externalId', 'missing', undefined, 'PKC_2008'],
    ['externalId', 'wrong_type', 12, 'PKC_2008'],
    ['externalId', 'too_long', tooLong(100), 'PKC_2006'],
    ['note', 'wrong_type', 5, 'PKC_2008'],
    ['note', 'too_long', tooLong(200), 'PKC_2007'],
    ['memo', 'unknown', 'a field no item takes', 'PKC_2008'],
  ] as const
).map(([field, problem, value, code]) => ({
  label: `${field} ${problem} (${code})`,
  item: problem === 'missing' ? without(validItem, field) : { ...validItem, [field]: value },
  code,
  field: `items.0.${field}`,
  problem,
}));
itemRefusals.push({ label: 'an item that is not an object', item: 'one payout', code: 'PKC_2008', field: 'items.0', problem: 'wrong_type' });

/**
 * Which operation of the contract a row sends: the one of that method whose path template fits
 * the path, literal segments winning over parameters (as the gateway routes).
 */
function operationIdOf(method: string, path: string): string | undefined {
  const segments = (path.split('?')[0] ?? '').split('/').slice(1);
  let best: { operationId: string; literalCount: number } | undefined;
  for (const operation of publicApi.publicOperations) {
    const template = operation.pathTemplate.split('/').slice(1);
    if (operation.method !== method || template.length !== segments.length) continue;
    if (!template.every((part, index) => part.startsWith(':') || part === segments[index])) continue;
    const literalCount = template.filter((part) => !part.startsWith(':')).length;
    if (best === undefined || literalCount > best.literalCount) best = { operationId: operation.operationId, literalCount };
  }
  return best?.operationId;
}

/** The operations that take input but have no row, each with why: their refusals are not validation refusals of named fields. */
const withoutRows: Readonly<Record<string, string>> = {
  getAccessToken: 'the token endpoint answers OAuth 2.0 refusals (RFC 6749 error), tested in token-endpoint.test.ts',
};

describe('every validation refusal names its fields', () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    // LRD collections switched off, so a collection quote in LRD is PKC_2010 (every other row uses USD).
    stack = await startStack({ logLevel: 'warn', serviceEnv: { quotes: { QUOTES_COLLECTION_CURRENCIES: 'USD' } } });
    // Two hundred refusals in a few seconds: far above the default 60 a minute.
    const partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    token = await accessTokenFor(stack.client, partner);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const send = (refusal: Refusal): Promise<JsonResponse> =>
    refusal.method === 'GET' ? stack.client.get(refusal.path, { bearer: token }) : stack.client.post(refusal.path, refusal.body, { bearer: token });

  test.each(refusals)('when $label is sent, then 400 $code lists exactly $field as $problem and the message names it', async (refusal) => {
    const answer = await send(refusal);
    expect({ label: refusal.label, status: answer.status, code: answer.body?.code }).toEqual({ label: refusal.label, status: 400, code: refusal.code });
    const expectedEntry = refusal.problem === 'unknown' ? { field: refusal.field, problem: 'unknown' } : { field: refusal.field, problem: refusal.problem, expected: expect.any(String) };
    expect(answer.body.invalidFields).toEqual([expectedEntry]);
    expect(answer.body.message).toContain(refusal.field);
    if (refusal.problem !== 'unknown') expect(answer.body.message).toContain(answer.body.invalidFields[0].expected);
  });

  test.each(itemRefusals)('when a bulk quote item has $label, then the bulk is 400 PKC_5005 and the item is invalid with $code naming $field as $problem', async (refusal) => {
    const answer = await stack.client.post('/partner/v1/disbursement/bulk/quote', { currency: 'USD', items: [refusal.item] }, { bearer: token });
    expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 400, code: 'PKC_5005' });
    const failureReason = answer.body.items[0].failureReason;
    const expectedEntry = refusal.problem === 'unknown' ? { field: refusal.field, problem: 'unknown' } : { field: refusal.field, problem: refusal.problem, expected: expect.any(String) };
    expect({ code: failureReason.code, invalidFields: failureReason.invalidFields }).toEqual({ code: refusal.code, invalidFields: [expectedEntry] });
    expect(failureReason.message).toContain(`${refusal.field} `);
  });

  test('when the contract’s operations are compared with the table, then every one that takes a body, a query or a path parameter has rows (or a stated reason not to)', () => {
    const rows = [...refusals.map(({ method, path }) => ({ method, path })), { method: 'POST', path: '/partner/v1/disbursement/bulk/quote' }];
    const unmatched = rows.filter((row) => operationIdOf(row.method, row.path) === undefined);
    expect(unmatched).toEqual([]);
    const covered = new Set(rows.map((row) => operationIdOf(row.method, row.path)));
    const takingInput = publicApi.publicOperations.filter(({ request }) => request?.body !== undefined || request?.query !== undefined || request?.params !== undefined).map(({ operationId }) => operationId);
    expect(takingInput.filter((operationId) => !covered.has(operationId) && withoutRows[operationId] === undefined)).toEqual([]);
    // A stated reason is for an operation that takes input and has no row.
    expect(Object.keys(withoutRows).filter((operationId) => !takingInput.includes(operationId as publicApi.PublicOperationId) || covered.has(operationId))).toEqual([]);
  });

  test('when a quote has no currency, then the answer says currency is missing and which currencies are accepted', async () => {
    const answer = await stack.client.post('/partner/v1/collection/quote', { phone: '0770000001', amount: 100 }, { bearer: token });
    expect(answer.body).toEqual({
      success: false,
      code: 'PKC_2008',
      message: 'currency is missing (expected LRD or USD)',
      invalidFields: [{ field: 'currency', problem: 'missing', expected: 'LRD or USD' }],
    });
  });

  test('when the statement gets dates without a time, then from and to are both named with the ISO 8601 form expected', async () => {
    const answer = await stack.client.get(`/partner/v1/statement?currency=USD&from=${day}&to=2026-11-29`, { bearer: token });
    expect(answer.body.invalidFields).toEqual([
      { field: 'from', problem: 'wrong_format', expected: expect.stringContaining('2026-11-28T00:00:00Z') },
      { field: 'to', problem: 'wrong_format', expected: expect.stringContaining('ISO 8601') },
    ]);
  });

  test('when the phone is not Liberian, then PKC_2001 says which forms are accepted', async () => {
    const answer = await stack.client.get('/partner/v1/account/12345', { bearer: token });
    expect(answer.body.invalidFields).toEqual([{ field: 'phone', problem: 'wrong_format', expected: expect.stringMatching(/0770123456.*\+231770123456/) }]);
  });

  test('when a body has several missing and unknown fields, then they are all listed at once', async () => {
    const answer = await stack.client.post('/partner/v1/disbursement/quote', { phone: '0770000001', ammount: 100, curency: 'USD' }, { bearer: token });
    expect({ code: answer.body.code, fields: answer.body.invalidFields.map(({ field, problem }: { field: string; problem: string }) => `${field}:${problem}`) }).toEqual({
      code: 'PKC_2008',
      fields: ['amount:missing', 'currency:missing', 'ammount:unknown', 'curency:unknown'],
    });
  });
});
