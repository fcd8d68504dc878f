import { z } from 'zod';
import { invalidParametersError, invalidParametersErrorOf } from '../../src';

describe('the refusal of parameters that do not parse', () => {
  test('when parameters are named, then 400 PKC_2008 lists each once, in order', () => {
    const error = invalidParametersError(['limit', 'cursor', 'limit']);
    expect([error.code, error.httpStatus, error.message]).toEqual(['PKC_2008', 400, 'Invalid or unknown fields: limit, cursor']);
  });

  test('when more than ten are named, then ten are listed and the rest counted', () => {
    const names = Array.from({ length: 13 }, (_, index) => `p${index}`);
    expect(invalidParametersError(names).message).toBe(`Invalid or unknown fields: ${names.slice(0, 10).join(', ')} and 3 more`);
  });

  test('when a name is long, then it is capped, never echoed whole', () => {
    expect(invalidParametersError(['n'.repeat(200)]).message).toBe(`Invalid or unknown fields: ${'n'.repeat(64)}…`);
  });

  test('when a zod parse fails, then unknown keys are named by their own names and bad values by their paths, never by their values', () => {
    const parsed = z.strictObject({ limit: z.coerce.number().int(), currency: z.enum(['LRD', 'USD']) }).safeParse({ limit: 'ten', currency: 'EUR-secret', foo: 1 });
    if (parsed.success) throw new Error('expected the parse to fail');
    const message = invalidParametersErrorOf(parsed.error.issues).message;
    expect(message).toMatch(/^Invalid or unknown fields: /);
    for (const name of ['limit', 'currency', 'foo']) expect(message).toContain(name);
    expect(message).not.toContain('EUR-secret');
  });

  test('when the whole value is wrong, then the refusal names what was given (query or body)', () => {
    const parsed = z.strictObject({}).safeParse('text');
    if (parsed.success) throw new Error('expected the parse to fail');
    expect(invalidParametersErrorOf(parsed.error.issues, 'body').message).toBe('Invalid or unknown fields: body');
  });
});
