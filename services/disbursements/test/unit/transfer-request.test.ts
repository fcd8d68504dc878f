import { parseConfirmRequestBody as parseTransferRequestBody } from '@pwa/contracts';

const uuid = '0b9f8a3c-1d2e-4f5a-8b6c-7d8e9f0a1b2c';

function codeOf(body: unknown): string | undefined {
  try {
    parseTransferRequestBody(body);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('transfer body validation order: 2008, then 2009, then 2006, then 2007', () => {
  test.each([
    ['not an object', 'text', 'PKC_2008'],
    ['an array', [uuid], 'PKC_2008'],
    ['null', null, 'PKC_2008'],
    ['no fields', {}, 'PKC_2008'],
    ['no externalId', { quoteId: uuid }, 'PKC_2008'],
    ['an empty externalId', { quoteId: uuid, externalId: '' }, 'PKC_2008'],
    ['a numeric externalId', { quoteId: uuid, externalId: 42 }, 'PKC_2008'],
    ['no quoteId and a bad note', { externalId: 'x'.repeat(101), note: 'n'.repeat(201) }, 'PKC_2008'],
    ['a non-string note', { quoteId: uuid, externalId: 'a', note: 5 }, 'PKC_2008'],
    ['a bad quoteId and long externalId and note', { quoteId: 'abc', externalId: 'x'.repeat(101), note: 'n'.repeat(201) }, 'PKC_2009'],
    ['a long externalId and a long note', { quoteId: uuid, externalId: 'x'.repeat(101), note: 'n'.repeat(201) }, 'PKC_2006'],
    ['a long note', { quoteId: uuid, externalId: 'x'.repeat(100), note: 'n'.repeat(201) }, 'PKC_2007'],
  ])('when the body has %s, then the code is %s', (_name, body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  test('when the fields are at their limits, then the body is accepted, lengths counted in characters', () => {
    const parsed = parseTransferRequestBody({ quoteId: uuid.toUpperCase(), externalId: '€'.repeat(100), note: '😀'.repeat(200) });
    expect(parsed).toEqual({ quoteId: uuid, externalId: '€'.repeat(100), note: '😀'.repeat(200) });
  });

  test('when the note is null or empty, then there is no note', () => {
    expect(parseTransferRequestBody({ quoteId: uuid, externalId: 'a', note: null }).note).toBeNull();
    expect(parseTransferRequestBody({ quoteId: uuid, externalId: 'a', note: '' }).note).toBeNull();
  });
});
