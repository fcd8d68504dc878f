import { PkcError } from '@pwa/errors';
import { parseConfirmRequestBody } from '../../src';

const quoteId = '0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a';

function refusalOf(body: unknown): { code: string; message: string } | undefined {
  try {
    parseConfirmRequestBody(body);
    return undefined;
  } catch (error) {
    if (!(error instanceof PkcError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('parseConfirmRequestBody and the text rule', () => {
  it.each([
    ['a NUL in externalId', { quoteId, externalId: 'order-\u0000-1' }, 'externalId'],
    ['a NUL in note', { quoteId, externalId: 'order-1', note: 'hello\u0000' }, 'note'],
    ['a line break in note', { quoteId, externalId: 'order-1', note: 'line 1\nline 2' }, 'note'],
    ['DEL in externalId', { quoteId, externalId: 'order\u007f' }, 'externalId'],
    ['a C1 control in note', { quoteId, externalId: 'order-1', note: 'a\u0090b' }, 'note'],
    ['a lone surrogate in externalId', { quoteId, externalId: 'order-\ud800' }, 'externalId'],
  ])('when the body has %s, then it is PKC_2008 naming the field', (_case, body, field) => {
    expect(refusalOf(body)).toEqual({ code: 'PKC_2008', message: `${field} must not contain control characters (such as NUL, tab or line breaks) or lone surrogates` });
  });

  it('when the texts are printable Unicode, emoji included, then the body is accepted as it is', () => {
    expect(parseConfirmRequestBody({ quoteId: quoteId.toUpperCase(), externalId: 'commande-é-😀', note: 'Grüße' })).toEqual({
      quoteId,
      externalId: 'commande-é-😀',
      note: 'Grüße',
    });
  });

  it('when a field is too long and also holds a control character, then the length code comes first, as documented', () => {
    expect(refusalOf({ quoteId, externalId: `${'x'.repeat(101)}\u0000` })?.code).toBe('PKC_2006');
    expect(refusalOf({ quoteId, externalId: 'ok', note: `${'x'.repeat(201)}\u0000` })?.code).toBe('PKC_2007');
  });
});
