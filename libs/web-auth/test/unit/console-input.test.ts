import { z } from '@pwa/config';
import { parsedInput } from '../../src';

const query = z.strictObject({ limit: z.string().regex(/^\d+$/, 'a whole number').optional(), currency: z.enum(['LRD', 'USD']) });

function refusalOf(value: unknown, what: 'fields' | 'query parameters' = 'query parameters'): { code: string; message: string } {
  try {
    parsedInput(query, value, what);
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error('the input was accepted');
}

describe('the consoles’ refusals of bad input name each field and what to do', () => {
  test('when a parameter is missing, then the refusal says missing and what it must be', () => {
    expect(refusalOf({})).toEqual({ code: 'CON_2001', message: 'Missing or invalid query parameters: currency (missing: expected one of "LRD"|"USD")' });
  });

  test('when a parameter is given twice, then the refusal says to give it once, not how zod saw an array', () => {
    const { message } = refusalOf({ currency: 'LRD', limit: ['1', '2'] });
    expect(message).toBe('Missing or invalid query parameters: limit (given more than once: give it once)');
  });

  test('when a parameter is unknown, then each is named and the refusal says to leave it out', () => {
    const { message } = refusalOf({ currency: 'LRD', 'phone[$ne]': '1', sort: 'x' });
    expect(message).toBe('Missing or invalid query parameters: phone[$ne] (unknown: leave it out); sort (unknown: leave it out)');
  });

  test('when a value has the wrong form, then the schema’s own words say what it must be, and the value is never echoed', () => {
    const { message } = refusalOf({ currency: 'LRD', limit: 'secret-ish-value' });
    expect(message).toBe('Missing or invalid query parameters: limit (a whole number)');
    expect(message).not.toContain('secret-ish-value');
  });

  test('when the input is valid, then it comes back parsed', () => {
    expect(parsedInput(query, { currency: 'USD', limit: '5' }, 'query parameters')).toEqual({ currency: 'USD', limit: '5' });
  });
});

describe('a console refusal never grows with what was sent', () => {
  test('when an unknown key is very long, then the refusal shows its first 60 characters only', () => {
    const key = 'k'.repeat(5_000);
    let message = '';
    try {
      parsedInput(z.strictObject({}), { [key]: 1 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`Missing or invalid fields: ${'k'.repeat(60)}… (unknown: leave it out)`);
  });
});
