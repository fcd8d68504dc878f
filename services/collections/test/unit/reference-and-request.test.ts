import { parseConfirmRequestBody as parseCollectionRequestBody } from '@pwa/contracts';
import { isReferenceId, newReferenceId, referenceIdPattern } from '../../src/domain/reference-id';
import { autoResolutionOf } from '../../src/domain/sandbox-test-phones';

const quoteId = '0b7e3c1a-3c1d-4a51-9a8e-2f1f6f0b9c11';

describe('reference ids', () => {
  test('when one is made, then it reads PKC-<creation ms>-<32 uppercase hex digits>', () => {
    const referenceId = newReferenceId(new Date(1_700_000_000_123), (size) => Buffer.alloc(size, 0xab));
    expect(referenceId).toBe(`PKC-1700000000123-${'AB'.repeat(16)}`);
    expect(isReferenceId(referenceId)).toBe(true);
  });

  test('when many are made at the same instant, then all differ and match the spec format', () => {
    const at = new Date();
    const ids = Array.from({ length: 1000 }, () => newReferenceId(at));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^PKC-\d+-[0-9A-F]{32}$/);
  });

  test.each(['pkc-1-AB', 'PKC-1-ab', 'PKC--AB', 'PKD-1-AB', 'PKC-1-ABZ'])('when %s is checked, then it is not a reference id', (text) => {
    expect(referenceIdPattern.test(text)).toBe(false);
  });
});

describe('confirm body validation, in its documented order', () => {
  const code = (body: unknown): string | undefined => {
    try {
      parseCollectionRequestBody(body);
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  test.each([
    ['not an object', 'text', 'PKC_2008'],
    ['an array', [], 'PKC_2008'],
    ['no quoteId', { externalId: 'x' }, 'PKC_2008'],
    ['no externalId', { quoteId }, 'PKC_2008'],
    ['an empty externalId', { quoteId, externalId: '' }, 'PKC_2008'],
    ['a numeric externalId', { quoteId, externalId: 5 }, 'PKC_2008'],
    ['a numeric note', { quoteId, externalId: 'x', note: 5 }, 'PKC_2008'],
    ['missing fields and a bad quoteId', { quoteId: 'nope' }, 'PKC_2008'],
    ['a quoteId that is no UUID', { quoteId: 'nope', externalId: 'x'.repeat(101) }, 'PKC_2009'],
    ['a numeric quoteId', { quoteId: 12, externalId: 'x' }, 'PKC_2009'],
    ['an externalId of 101 characters', { quoteId, externalId: 'x'.repeat(101), note: 'n'.repeat(201) }, 'PKC_2006'],
    ['a note of 201 characters', { quoteId, externalId: 'x'.repeat(100), note: 'n'.repeat(201) }, 'PKC_2007'],
  ])('when the body has %s, then it is %s', (_case, body, expected) => {
    expect(code(body)).toBe(expected);
  });

  test('when the fields are at their limits, then the body is accepted, the quoteId lowercased', () => {
    expect(parseCollectionRequestBody({ quoteId: quoteId.toUpperCase(), externalId: 'é'.repeat(100), note: 'n'.repeat(200) })).toEqual({
      quoteId,
      externalId: 'é'.repeat(100),
      note: 'n'.repeat(200),
    });
    expect(parseCollectionRequestBody({ quoteId, externalId: 'x', note: null })).toEqual({ quoteId, externalId: 'x', note: null });
  });
});

describe('sandbox test phones', () => {
  test('when a test phone is looked up, then it has its documented behaviour; other phones none', () => {
    expect(['+231770000011', '+231770000012', '+231770000013', '+231770000014'].map(autoResolutionOf)).toEqual(['approve', 'decline', 'expire', 'fail']);
    expect(autoResolutionOf('+231770000001')).toBeUndefined();
    expect(autoResolutionOf('constructor')).toBeUndefined();
  });
});
