import { z } from 'zod';
import {
  describeInvalidField,
  errorEnvelope,
  expectedForms,
  fieldProblems,
  invalidCursorError,
  invalidFieldError,
  invalidFieldsError,
  invalidFieldsErrorOf,
  invalidFieldsNestedUnder,
  invalidFieldsOf,
  invalidFieldsOfError,
  invalidParametersErrorOf,
  isInvalidFieldList,
  PkcError,
  type InvalidField,
} from '../../src';

/** What a refusal answers: its status, code, message and invalidFields, as the error handler writes them. */
function answerOf(error: ReturnType<typeof invalidFieldsError>) {
  return { status: error.httpStatus, body: JSON.parse(JSON.stringify(errorEnvelope(error.code, error.message, error.fields))) as Record<string, unknown> };
}

function issuesOf(schema: z.ZodType, input: unknown) {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected the parse to fail');
  return parsed.error.issues;
}

describe('the refusal of a request’s fields (invalidFieldsError)', () => {
  test('when PKC_2008 names a missing field, then the body lists it with its problem and what is expected, and the message says the same in words', () => {
    const answer = answerOf(invalidFieldsError('PKC_2008', [{ field: 'currency', problem: 'missing', expected: 'LRD or USD' }]));
    expect(answer).toEqual({
      status: 400,
      body: { success: false, code: 'PKC_2008', message: 'currency is missing (expected LRD or USD)', invalidFields: [{ field: 'currency', problem: 'missing', expected: 'LRD or USD' }] },
    });
  });

  test('when another validation code names a field, then the message leads with the catalogue meaning', () => {
    const error = invalidFieldError('PKC_2001', 'phone', 'wrong_format', '0770123456 or +231770123456');
    expect([error.code, error.httpStatus, error.message]).toEqual(['PKC_2001', 400, 'Invalid Liberian phone number: phone has the wrong format (expected 0770123456 or +231770123456)']);
    expect(error.fields).toEqual({ invalidFields: [{ field: 'phone', problem: 'wrong_format', expected: '0770123456 or +231770123456' }] });
  });

  test('when a lead is given, then it replaces the catalogue meaning', () => {
    expect(invalidFieldError('PKC_2010', 'currency', 'not_allowed', 'LRD', { lead: 'USD is not supported for this operation' }).message).toBe('USD is not supported for this operation: currency is not an accepted value (expected LRD)');
  });

  test('when fields are missing and unknown together, then each is listed once per problem, in order, and an unknown one has no expectation', () => {
    const error = invalidFieldsError('PKC_2008', [
      { field: 'currency', problem: 'missing', expected: 'LRD or USD' },
      { field: 'curency', problem: 'unknown' },
      { field: 'currency', problem: 'missing', expected: 'LRD or USD' },
    ]);
    expect(error.fields.invalidFields).toEqual([
      { field: 'currency', problem: 'missing', expected: 'LRD or USD' },
      { field: 'curency', problem: 'unknown' },
    ]);
    expect(error.message).toBe('currency is missing (expected LRD or USD); curency is not a field of this request: remove it');
  });

  test('when more than ten fields are named, then ten are listed and the message counts the rest', () => {
    const unknown: InvalidField[] = Array.from({ length: 13 }, (_, index) => ({ field: `p${index}`, problem: 'unknown' }));
    const error = invalidFieldsError('PKC_2008', unknown);
    expect((error.fields.invalidFields as unknown[]).length).toBe(10);
    expect(error.message).toMatch(/p9 is not a field of this request: remove it; and 3 more$/);
  });

  test('when a field name sent is long, then it is capped in the list and the message, never echoed whole', () => {
    const error = invalidFieldsError('PKC_2008', [{ field: 'n'.repeat(200), problem: 'unknown' }]);
    expect(error.fields.invalidFields).toEqual([{ field: `${'n'.repeat(64)}…`, problem: 'unknown' }]);
    expect(error.message).toBe(`${'n'.repeat(64)}… is not a field of this request: remove it`);
  });

  test('when each problem is described, then the sentence names the field and the problem', () => {
    expect(fieldProblems.map((problem) => describeInvalidField({ field: 'f', problem }))).toEqual([
      'f is missing',
      'f is not a field of this request: remove it',
      'f has the wrong type',
      'f has the wrong format',
      'f is not an accepted value',
      'f is out of range',
      'f is too long',
    ]);
  });

  test('when a cursor is refused, then it is PKC_2008 naming cursor as not allowed, saying which cursor is', () => {
    expect(invalidCursorError().fields).toEqual({ invalidFields: [{ field: 'cursor', problem: 'not_allowed', expected: expectedForms.cursor }] });
  });

  test('when an error or an answer is read back, then its invalidFields are found only when well formed', () => {
    expect(invalidFieldsOfError(invalidCursorError())).toEqual([{ field: 'cursor', problem: 'not_allowed', expected: expectedForms.cursor }]);
    expect(isInvalidFieldList([{ field: 'a', problem: 'missing' }])).toBe(true);
    expect(isInvalidFieldList([{ field: 'a', problem: 'gone' }])).toBe(false);
    expect(isInvalidFieldList([{ field: 1, problem: 'missing' }])).toBe(false);
    expect(isInvalidFieldList('a')).toBe(false);
  });
});

describe('a refusal nested under a parent (invalidFieldsNestedUnder)', () => {
  test('when a part of a body is refused, then its fields are dotted under the parent, in the list and the message, and the code and lead stay', () => {
    const nested = invalidFieldsNestedUnder(invalidFieldError('PKC_2002', 'amount', 'wrong_format', 'at most 2 decimals', { lead: 'Amount must have at most 2 decimal places' }), 'items.3');
    expect({ code: nested.code, message: nested.message, fields: nested.fields }).toEqual({
      code: 'PKC_2002',
      message: 'Amount must have at most 2 decimal places: items.3.amount has the wrong format (expected at most 2 decimals)',
      fields: { invalidFields: [{ field: 'items.3.amount', problem: 'wrong_format', expected: 'at most 2 decimals' }] },
    });
  });

  test('when several fields and more than ten are nested, then each is dotted and the count of the rest is kept', () => {
    const unknown = Array.from({ length: 12 }, (_, index): InvalidField => ({ field: `extra${index}`, problem: 'unknown' }));
    const nested = invalidFieldsNestedUnder(invalidFieldsError('PKC_2008', [{ field: 'phone', problem: 'missing', expected: 'a phone' }, ...unknown]), 'items.0');
    expect(nested.message).toMatch(/^items\.0\.phone is missing \(expected a phone\); items\.0\.extra0 is not a field/);
    expect(nested.message).toMatch(/items\.0\.extra8 is not a field of this request: remove it; and 3 more$/);
    expect(invalidFieldsOfError(nested)?.map((invalid) => invalid.field)).toEqual(['items.0.phone', ...unknown.slice(0, 9).map((invalid) => `items.0.${invalid.field}`)]);
  });

  test('when the refusal names no field, then it is given back unchanged', () => {
    const refusal = new PkcError('PKC_3001');
    expect(invalidFieldsNestedUnder(refusal, 'items.1')).toBe(refusal);
  });
});

describe('invalid fields from a failed zod parse', () => {
  const query = z
    .object({
      currency: z.enum(['LRD', 'USD']),
      from: z.iso.datetime({ offset: true }),
      limit: z.coerce.number().int().min(1).max(100).default(20),
      cursor: z.string().min(1).max(500).optional(),
      note: z.string().max(3).optional(),
    })
    .strict();
  const instant = '2026-11-28T00:00:00Z';
  const at = (issuesInput: Record<string, unknown>, location: 'query' | 'body' = 'query') => invalidFieldsOf(issuesOf(query, issuesInput), { input: issuesInput, location });

  test.each<[string, Record<string, unknown>, InvalidField]>([
    ['a missing enum', { from: '2026-11-28T00:00:00Z' }, { field: 'currency', problem: 'missing', expected: 'LRD or USD' }],
    ['a missing date', { currency: 'LRD' }, { field: 'from', problem: 'missing', expected: 'text' }],
    ['a value not in the enum', { currency: 'EUR', from: '2026-11-28T00:00:00Z' }, { field: 'currency', problem: 'not_allowed', expected: 'LRD or USD' }],
    ['a date without its time', { currency: 'LRD', from: '2026-11-28' }, { field: 'from', problem: 'wrong_format', expected: expectedForms.dateTime }],
    ['a number that is text', { currency: 'LRD', from: '2026-11-28T00:00:00Z', limit: 'ten' }, { field: 'limit', problem: 'wrong_format', expected: 'a number' }],
    ['a number too large', { currency: 'LRD', from: '2026-11-28T00:00:00Z', limit: '500' }, { field: 'limit', problem: 'out_of_range', expected: 'at most 100' }],
    ['an empty text', { currency: 'LRD', from: '2026-11-28T00:00:00Z', cursor: '' }, { field: 'cursor', problem: 'missing', expected: 'at least 1 characters' }],
    ['a text too long', { currency: 'LRD', from: '2026-11-28T00:00:00Z', note: 'abcd' }, { field: 'note', problem: 'too_long', expected: 'at most 3 characters' }],
    ['an unknown parameter', { currency: 'LRD', from: '2026-11-28T00:00:00Z', foo: '1' }, { field: 'foo', problem: 'unknown' }],
    ['a repeated parameter', { currency: 'LRD', from: ['2026-11-28T00:00:00Z', '2026-11-29T00:00:00Z'] }, { field: 'from', problem: 'wrong_type', expected: 'one value, not a repeated parameter: text' }],
  ])('when a query has %s, then that one field is named with its problem', (_case, input, expected) => {
    expect(at(input)).toEqual([expected]);
  });

  test('when a body field has another JSON type, then it is wrong_type (in a query, text that does not read is wrong_format)', () => {
    expect(at({ currency: 'LRD', from: 5 }, 'body')).toEqual([{ field: 'from', problem: 'wrong_type', expected: 'text' }]);
    expect(at({ currency: 7, from: instant }, 'body')).toEqual([{ field: 'currency', problem: 'wrong_type', expected: 'LRD or USD' }]);
    expect(at({ currency: 'EUR', from: instant }, 'body')).toEqual([{ field: 'currency', problem: 'not_allowed', expected: 'LRD or USD' }]);
  });

  test('when the schema can say what it expects, then that replaces what the issue says', () => {
    const fields = invalidFieldsOf(issuesOf(query, { currency: 'LRD' }), { input: { currency: 'LRD' }, location: 'query', expectedAt: (path) => (path[0] === 'from' ? expectedForms.dateTime : undefined) });
    expect(fields).toEqual([{ field: 'from', problem: 'missing', expected: expectedForms.dateTime }]);
  });

  test('when a refinement declares its problem and expectation, then those are used', () => {
    const ranged = z.object({ a: z.number(), b: z.number() }).superRefine((value, context) => {
      if (value.b < value.a) context.addIssue({ code: 'custom', path: ['b'], message: 'b before a', params: { problem: 'out_of_range', expected: 'not less than a' } });
    });
    expect(invalidFieldsOf(issuesOf(ranged, { a: 2, b: 1 }), { input: { a: 2, b: 1 }, location: 'body' })).toEqual([{ field: 'b', problem: 'out_of_range', expected: 'not less than a' }]);
  });

  test('when a value is refused, then the refusal never repeats it', () => {
    const error = invalidFieldsErrorOf(issuesOf(query, { currency: 'EUR-secret', from: 'secret-date', foo: 1 }), { input: { currency: 'EUR-secret', from: 'secret-date', foo: 1 }, location: 'query' });
    expect([error.code, error.httpStatus]).toEqual(['PKC_2008', 400]);
    expect(JSON.stringify({ message: error.message, fields: error.fields })).not.toContain('secret');
    for (const name of ['currency', 'from', 'foo']) expect(error.message).toContain(name);
  });

  test('when the whole body is of the wrong type, then the refusal names the body', () => {
    const issues = issuesOf(z.strictObject({}), 'text');
    expect(invalidFieldsOf(issues, { input: 'text', location: 'body' })).toEqual([{ field: 'body', problem: 'wrong_type', expected: expectedForms.jsonObject }]);
  });

  test('when the deprecated invalidParametersErrorOf is used without the input, then it still tells missing from wrong by what zod received', () => {
    const error = invalidParametersErrorOf(issuesOf(z.strictObject({ email: z.string(), partnerId: z.uuid(), role: z.enum(['admin', 'viewer']) }), { partnerId: 'x', role: 'owner' }), 'body');
    expect(error.fields.invalidFields).toEqual([
      { field: 'email', problem: 'missing', expected: 'text' },
      { field: 'partnerId', problem: 'wrong_format', expected: expectedForms.uuid },
      { field: 'role', problem: 'not_allowed', expected: 'admin or viewer' },
    ]);
  });
});
