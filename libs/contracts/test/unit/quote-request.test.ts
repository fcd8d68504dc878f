import fc from 'fast-check';
import type { Currency } from '@pwa/money';
import { isPkcError } from '@pwa/errors';
import { expectedInputs, validateQuoteRequest } from '@pwa/contracts';

const both: Currency[] = ['LRD', 'USD'];
const valid = { phone: '0770123456', amount: 100, currency: 'USD' };

function refusalOf(body: unknown, enabled: readonly Currency[] = both): { code: string; message: string; invalidFields: unknown } | undefined {
  try {
    validateQuoteRequest(body, enabled);
    return undefined;
  } catch (error) {
    if (!isPkcError(error)) throw error;
    return { code: error.code, message: error.message, invalidFields: error.fields.invalidFields };
  }
}

function codeOf(body: unknown, enabled: readonly Currency[] = both): string | undefined {
  try {
    validateQuoteRequest(body, enabled);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('validateQuoteRequest', () => {
  it('when the body is valid, then it returns the +231 phone, exact minor units and the currency', () => {
    expect(validateQuoteRequest({ phone: '0770123456', amount: 10.05, currency: 'USD' }, both)).toEqual({
      phone: '+231770123456',
      amountMinor: 1005n,
      currency: 'USD',
    });
    expect(validateQuoteRequest({ phone: '+231 88 012 3456', amount: 50, currency: 'LRD' }, both).phone).toBe('+231880123456');
  });

  it('when the body carries a field other than phone, amount and currency, then it is PKC_2008 naming it as unknown, beside any missing one (decision 0075)', () => {
    expect(refusalOf({ ...valid, extra: true })).toEqual({ code: 'PKC_2008', message: 'extra is not a field of this request: remove it', invalidFields: [{ field: 'extra', problem: 'unknown' }] });
    expect(refusalOf({ phone: '0770123456', amount: 100, curency: 'USD' })?.invalidFields).toEqual([
      { field: 'currency', problem: 'missing', expected: 'LRD or USD' },
      { field: 'curency', problem: 'unknown' },
    ]);
  });

  it.each([
    ['no currency', { phone: '0770123456', amount: 100 }, 'PKC_2008', { field: 'currency', problem: 'missing', expected: 'LRD or USD' }],
    ['a null amount', { phone: '0770123456', amount: null, currency: 'USD' }, 'PKC_2008', { field: 'amount', problem: 'missing', expected: expectedInputs.amount }],
    ['a phone without its prefix', { ...valid, phone: '770123456' }, 'PKC_2001', { field: 'phone', problem: 'wrong_format', expected: expectedInputs.phone }],
    ['a phone that is a number', { ...valid, phone: 770123456 }, 'PKC_2001', { field: 'phone', problem: 'wrong_type', expected: expectedInputs.phone }],
    ['an amount that is text', { ...valid, amount: '100' }, 'PKC_2002', { field: 'amount', problem: 'wrong_type', expected: expectedInputs.amount }],
    ['an amount with 3 decimals', { ...valid, amount: 10.005 }, 'PKC_2002', { field: 'amount', problem: 'wrong_format', expected: expectedInputs.amount }],
    ['a negative amount', { ...valid, amount: -1 }, 'PKC_2002', { field: 'amount', problem: 'out_of_range', expected: expectedInputs.amount }],
    ['a currency of another case', { ...valid, currency: 'usd' }, 'PKC_2005', { field: 'currency', problem: 'not_allowed', expected: 'LRD or USD' }],
    ['a currency that is a number', { ...valid, currency: 1 }, 'PKC_2005', { field: 'currency', problem: 'wrong_type', expected: 'LRD or USD' }],
    ['an amount below the minimum', { ...valid, amount: 0.99 }, 'PKC_2003', { field: 'amount', problem: 'out_of_range', expected: 'from 1.00 to 10,000.00 USD' }],
    ['an amount above the maximum', { ...valid, currency: 'LRD', amount: 1_850_000.01 }, 'PKC_2004', { field: 'amount', problem: 'out_of_range', expected: 'from 50.00 to 1,850,000.00 LRD' }],
  ])('when the body has %s, then the refusal (%s) lists exactly that field with its problem and the message names it', (_case, body, code, field) => {
    const refusal = refusalOf(body);
    expect({ code: refusal?.code, invalidFields: refusal?.invalidFields }).toEqual({ code, invalidFields: [field] });
    expect(refusal?.message).toContain(`${field.field} `);
    expect(refusal?.message).toContain(field.expected);
  });

  it('when the currency is not enabled, then PKC_2010 names currency and the enabled ones', () => {
    expect(refusalOf(valid, ['LRD'])).toEqual({
      code: 'PKC_2010',
      message: 'USD is not supported for this operation: currency is not an accepted value (expected LRD)',
      invalidFields: [{ field: 'currency', problem: 'not_allowed', expected: 'LRD' }],
    });
  });

  it.each([
    ['no body', undefined],
    ['an array body', [valid]],
    ['no phone', { amount: 100, currency: 'USD' }],
    ['a null amount', { phone: '0770123456', amount: null, currency: 'USD' }],
    ['no currency', { phone: '0770123456', amount: 100 }],
  ])('when the body has %s, then it is PKC_2008', (_case, body) => {
    expect(codeOf(body)).toBe('PKC_2008');
  });

  it.each([
    ['a number without its prefix', '770123456'],
    ['a landline', '0312345678'],
    ['00231 instead of +231', '00231770123456'],
    ['a number, not a string', 770123456],
    ['an empty string', ''],
  ])('when the phone is %s, then it is PKC_2001', (_case, phone) => {
    expect(codeOf({ ...valid, phone })).toBe('PKC_2001');
  });

  it.each([
    ['a numeric string', '100'],
    ['zero', 0],
    ['negative', -5],
    ['three decimals', 10.005],
    ['a boolean', true],
    ['an object', { value: 100 }],
  ])('when the amount is %s, then it is PKC_2002', (_case, amount) => {
    expect(codeOf({ ...valid, amount })).toBe('PKC_2002');
  });

  it('when the amount has more than 2 decimals, then the message says so', () => {
    expect(() => validateQuoteRequest({ ...valid, amount: 1.234 }, both)).toThrow('at most 2 decimal places');
  });

  it.each(['usd', 'EUR', 'US D', 1])('when the currency is %p, then it is PKC_2005', (currency) => {
    expect(codeOf({ ...valid, currency })).toBe('PKC_2005');
  });

  it('when the currency is not enabled for the operation, then it is PKC_2010', () => {
    expect(codeOf(valid, ['LRD'])).toBe('PKC_2010');
    expect(codeOf({ ...valid, currency: 'LRD', amount: 100 }, ['LRD'])).toBeUndefined();
    expect(codeOf({ ...valid, currency: 'LRD' }, [])).toBe('PKC_2010');
  });

  it.each([
    ['USD', 0.99, 'PKC_2003'],
    ['USD', 1, undefined],
    ['USD', 10_000, undefined],
    ['USD', 10_000.01, 'PKC_2004'],
    ['LRD', 49.99, 'PKC_2003'],
    ['LRD', 50, undefined],
    ['LRD', 1_850_000, undefined],
    ['LRD', 1_850_000.01, 'PKC_2004'],
    ['USD', 1e21, 'PKC_2004'],
  ])('when %s %p is asked for, then the answer is %s', (currency, amount, code) => {
    expect(codeOf({ phone: '0770123456', amount, currency })).toBe(code);
  });

  describe('the order of the checks', () => {
    // Each fault with the code it earns, listed in the documented order.
    const faults = [
      { code: 'PKC_2008', apply: (body: Record<string, unknown>) => ({ ...body, phone: undefined }) },
      { code: 'PKC_2001', apply: (body: Record<string, unknown>) => ({ ...body, phone: body.phone === undefined ? undefined : '12345' }) },
      { code: 'PKC_2002', apply: (body: Record<string, unknown>) => ({ ...body, amount: '100' }) },
      { code: 'PKC_2005', apply: (body: Record<string, unknown>) => ({ ...body, currency: 'EUR' }) },
      { code: 'PKC_2010', apply: (body: Record<string, unknown>) => body, enabled: ['LRD'] as Currency[] },
      { code: 'PKC_2003', apply: (body: Record<string, unknown>) => ({ ...body, amount: typeof body.amount === 'number' ? 0.5 : body.amount }) },
    ];

    it('when a body has several faults, then the first in the documented order is reported', () => {
      fc.assert(
        fc.property(fc.subarray(faults.map((_fault, index) => index), { minLength: 1 }), (chosen) => {
          let body: Record<string, unknown> = { ...valid };
          let enabled: Currency[] = both;
          // Apply from last to first so an earlier fault (a missing phone) is never undone by a later one.
          for (const index of [...chosen].reverse()) {
            const fault = faults[index]!;
            body = fault.apply(body);
            if (fault.enabled) enabled = fault.enabled;
          }
          expect(codeOf(body, enabled)).toBe(faults[chosen[0]!]!.code);
        }),
        { numRuns: 500 },
      );
    });

    it('when an amount is both above the maximum and in a currency not enabled, then the currency is reported', () => {
      expect(codeOf({ ...valid, amount: 20_000 }, ['LRD'])).toBe('PKC_2010');
    });
  });
});
