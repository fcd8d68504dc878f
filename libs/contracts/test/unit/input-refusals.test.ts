import { expectedForms, isPkcError } from '@pwa/errors';
import { expectedOfSchemaAt, parsePublicInput, publicApi } from '../../src';

/** The refusal parsePublicInput throws, as code, message and invalidFields. */
function refusalOf(run: () => unknown): { code: string; message: string; invalidFields: unknown } {
  try {
    run();
  } catch (error) {
    if (!isPkcError(error)) throw error;
    return { code: error.code, message: error.message, invalidFields: error.fields.invalidFields };
  }
  throw new Error('expected a refusal');
}

const statement = (query: Record<string, unknown>) => refusalOf(() => parsePublicInput(publicApi.statementQuerySchema, query, 'query'));
const period = { from: '2026-11-28T00:00:00Z', to: '2026-11-29T00:00:00Z' };

describe('parsePublicInput: the refusal of a public query or body that does not parse', () => {
  test('when the statement is asked without currency, then currency is missing, not invalid, and the message says what to send', () => {
    expect(statement(period)).toEqual({
      code: 'PKC_2008',
      message: 'currency is missing (expected LRD or USD)',
      invalidFields: [{ field: 'currency', problem: 'missing', expected: 'LRD or USD' }],
    });
  });

  test('when from and to are dates without a time, then both are in the wrong format, with the ISO 8601 form expected', () => {
    const refusal = statement({ currency: 'LRD', from: '2026-11-28', to: '2026-11-29' });
    expect(refusal.invalidFields).toEqual([
      { field: 'from', problem: 'wrong_format', expected: expectedForms.dateTime },
      { field: 'to', problem: 'wrong_format', expected: expectedForms.dateTime },
    ]);
    expect(refusal.message).toBe(`from has the wrong format (expected ${expectedForms.dateTime}); to has the wrong format (expected ${expectedForms.dateTime})`);
  });

  test('when a list is asked with createdFrom as a date, then createdFrom is named with the expected form', () => {
    const refusal = refusalOf(() => parsePublicInput(publicApi.disbursementListQuerySchema, { createdFrom: '2026-11-28' }, 'query'));
    expect(refusal.invalidFields).toEqual([{ field: 'createdFrom', problem: 'wrong_format', expected: expectedForms.dateTime }]);
  });

  test('when createdTo is before createdFrom, then createdTo is out of range', () => {
    const refusal = refusalOf(() => parsePublicInput(publicApi.collectionListQuerySchema, { createdFrom: '2026-11-29T00:00:00Z', createdTo: '2026-11-28T00:00:00Z' }, 'query'));
    expect(refusal.invalidFields).toEqual([{ field: 'createdTo', problem: 'out_of_range', expected: 'a time not before createdFrom' }]);
  });

  test('when the phone filter is not a Liberian mobile number, then phone is in the wrong format with the accepted forms', () => {
    const refusal = refusalOf(() => parsePublicInput(publicApi.collectionListQuerySchema, { phone: '12345' }, 'query'));
    expect(refusal.invalidFields).toEqual([{ field: 'phone', problem: 'wrong_format', expected: expect.stringContaining('+231770123456') }]);
  });

  test('when limit is out of bounds, text, or repeated, then the schema’s bounds are said', () => {
    expect(statement({ currency: 'LRD', ...period, limit: '500' }).invalidFields).toEqual([{ field: 'limit', problem: 'out_of_range', expected: 'a whole number from 1 to 100' }]);
    expect(statement({ currency: 'LRD', ...period, limit: 'ten' }).invalidFields).toEqual([{ field: 'limit', problem: 'wrong_format', expected: 'a whole number from 1 to 100' }]);
    expect(statement({ currency: 'LRD', ...period, limit: ['1', '2'] }).invalidFields).toEqual([{ field: 'limit', problem: 'wrong_type', expected: 'one value, not a repeated parameter: a whole number from 1 to 100' }]);
  });

  test('when an unknown parameter is sent, then it is named as unknown', () => {
    expect(statement({ currency: 'LRD', ...period, foo: '1' })).toEqual({ code: 'PKC_2008', message: 'foo is not a field of this request: remove it', invalidFields: [{ field: 'foo', problem: 'unknown' }] });
  });

  test('when the redelivery body misses since and names another status, then each is named', () => {
    const refusal = refusalOf(() => parsePublicInput(publicApi.webhookRedeliverRequestSchema, { status: 'delivered' }, 'body'));
    expect(refusal.invalidFields).toEqual([
      { field: 'status', problem: 'not_allowed', expected: 'failed' },
      { field: 'since', problem: 'missing', expected: expectedForms.dateTime },
    ]);
  });

  test('when a schema is asked what it expects, then optional, default and transform wrappers are looked through', () => {
    expect(expectedOfSchemaAt(publicApi.statementQuerySchema, ['currency'])).toBe('LRD or USD');
    expect(expectedOfSchemaAt(publicApi.statementQuerySchema, ['cursor'])).toBe('text of 1 to 500 characters');
    expect(expectedOfSchemaAt(publicApi.statementQuerySchema, ['nothing'])).toBeUndefined();
    expect(expectedOfSchemaAt(publicApi.collectionListQuerySchema, ['status'])).toBe('pending_approval, completed, declined, expired, failed or cancelled');
  });
});
