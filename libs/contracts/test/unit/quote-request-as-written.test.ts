import { PkcError } from '@pwa/errors';
import { writtenNumber } from '@pwa/money';
import { validateQuoteRequest } from '@pwa/contracts';

const both = ['LRD', 'USD'] as const;

/** The body as the quotes route hands it over: the amount as written, everything else as parsed. */
function codeOf(amountText: string): string {
  try {
    validateQuoteRequest({ phone: '0770123456', amount: writtenNumber(amountText), currency: 'USD' }, both);
    return 'accepted';
  } catch (error) {
    if (error instanceof PkcError) return error.code;
    throw error;
  }
}

describe('validateQuoteRequest with the amount as written', () => {
  it.each([
    ['1.999999999999999999', 'PKC_2002'],
    ['10.005', 'PKC_2002'],
    ['1e400', 'PKC_2002'],
    ['-10', 'PKC_2002'],
    ['0', 'PKC_2002'],
    ['1e21', 'PKC_2004'],
    ['0.01', 'PKC_2003'],
  ])('when the amount is written %s, then the answer is %s', (text, code) => {
    expect(codeOf(text)).toBe(code);
  });

  it.each([
    ['10.50', 1050n],
    ['10.500', 1050n],
    ['1.05E1', 1050n],
    ['25', 2500n],
  ])('when the amount is written %s, then it is %p minor units, never rounded', (text, amountMinor) => {
    expect(validateQuoteRequest({ phone: '0770123456', amount: writtenNumber(text), currency: 'USD' }, both)).toEqual({
      phone: '+231770123456',
      amountMinor,
      currency: 'USD',
    });
  });

  it('when a field other than the amount is a number, then it is refused as before (a phone is a string)', () => {
    expect(() => validateQuoteRequest({ phone: writtenNumber('770123456'), amount: writtenNumber('10'), currency: 'USD' }, both)).toThrow(
      expect.objectContaining({ code: 'PKC_2001' }),
    );
  });
});
