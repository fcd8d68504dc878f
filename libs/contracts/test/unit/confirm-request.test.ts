import { PkcError, expectedForms } from '@pwa/errors';
import { parseConfirmRequestBody } from '../../src';

const quoteId = '0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a';

function refusalOf(body: unknown): { code: string; message: string; invalidFields: unknown } | undefined {
  try {
    parseConfirmRequestBody(body);
    return undefined;
  } catch (error) {
    if (!(error instanceof PkcError)) throw error;
    return { code: error.code, message: error.message, invalidFields: error.fields.invalidFields };
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
    expect(refusalOf(body)).toEqual({
      code: 'PKC_2008',
      message: `${field} has the wrong format (expected ${expectedForms.text})`,
      invalidFields: [{ field, problem: 'wrong_format', expected: expectedForms.text }],
    });
  });

  it.each([
    ['no quoteId', { externalId: 'order-1' }, [{ field: 'quoteId', problem: 'missing' }]],
    ['an empty externalId', { quoteId, externalId: '' }, [{ field: 'externalId', problem: 'missing' }]],
    ['a numeric externalId', { quoteId, externalId: 12 }, [{ field: 'externalId', problem: 'wrong_type' }]],
    ['a note that is a list', { quoteId, externalId: 'order-1', note: ['a'] }, [{ field: 'note', problem: 'wrong_type' }]],
    ['a misspelt note', { quoteId, externalId: 'order-1', notes: 'hello' }, [{ field: 'notes', problem: 'unknown' }]],
    ['nothing but an unknown field', { foo: 1 }, [{ field: 'quoteId', problem: 'missing' }, { field: 'externalId', problem: 'missing' }, { field: 'foo', problem: 'unknown' }]],
  ])('when the body has %s, then it is PKC_2008 listing exactly those fields', (_case, body, fields) => {
    const refusal = refusalOf(body);
    expect(refusal?.code).toBe('PKC_2008');
    expect(refusal?.invalidFields).toEqual(fields.map((field) => expect.objectContaining(field)));
    for (const { field } of fields) expect(refusal?.message).toContain(field);
  });

  it('when the quoteId is not a UUID, then it is PKC_2009 naming quoteId with the expected form', () => {
    expect(refusalOf({ quoteId: 'abc', externalId: 'order-1' })).toEqual({
      code: 'PKC_2009',
      message: expect.stringMatching(/^quoteId is not a valid UUID: quoteId has the wrong format \(expected the quoteId of your quote: a UUID/),
      invalidFields: [{ field: 'quoteId', problem: 'wrong_format', expected: expect.stringContaining('UUID') }],
    });
    expect(refusalOf({ quoteId: 7, externalId: 'order-1' })?.invalidFields).toEqual([expect.objectContaining({ field: 'quoteId', problem: 'wrong_type' })]);
  });

  it('when externalId or note is too long, then PKC_2006 or PKC_2007 names it as too long', () => {
    expect(refusalOf({ quoteId, externalId: 'x'.repeat(101) })?.invalidFields).toEqual([{ field: 'externalId', problem: 'too_long', expected: 'at most 100 characters' }]);
    expect(refusalOf({ quoteId, externalId: 'ok', note: 'x'.repeat(201) })?.invalidFields).toEqual([{ field: 'note', problem: 'too_long', expected: 'at most 200 characters' }]);
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
