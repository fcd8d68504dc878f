import { parseConsumeRequest, refusalCodeOf, type QuoteStateForDiagnosis } from '../../src/domain/quote-consumption';

const quoteId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const partnerId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const otherPartnerId = '16fd2706-8baf-433b-82eb-8c7fada847da';
const request = { quoteId, partnerId, type: 'collection' as const };
const live: QuoteStateForDiagnosis = { partnerId, type: 'collection', expired: false, used: false };

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('parseConsumeRequest', () => {
  it('when the quote id and body are well formed, then ids are lower-cased', () => {
    expect(parseConsumeRequest(quoteId.toUpperCase(), { partnerId: partnerId.toUpperCase(), type: 'disbursement' })).toEqual({
      quoteId,
      partnerId,
      type: 'disbursement',
    });
  });

  it.each(['not-a-uuid', '', `${quoteId}x`, '0f8fad5bd9cb469fa16570867728950e'])('when the quote id is %p, then it is PKC_2009', (id) => {
    expect(codeOf(() => parseConsumeRequest(id, { partnerId, type: 'collection' }))).toBe('PKC_2009');
  });

  it.each([
    ['no body', undefined],
    ['no partnerId', { type: 'collection' }],
    ['an unknown type', { partnerId, type: 'refund' }],
  ])('when the body has %s, then it is PKC_2008', (_case, body) => {
    expect(codeOf(() => parseConsumeRequest(quoteId, body))).toBe('PKC_2008');
  });
});

describe('refusalCodeOf', () => {
  it.each<[string, QuoteStateForDiagnosis | undefined, string]>([
    ['no such quote', undefined, 'PKC_5001'],
    ['an expired quote', { ...live, expired: true }, 'PKC_5001'],
    ['an expired and used quote', { ...live, expired: true, used: true }, 'PKC_5001'],
    ["another partner's expired quote", { ...live, partnerId: otherPartnerId, expired: true }, 'PKC_5001'],
    ["another partner's quote", { ...live, partnerId: otherPartnerId }, 'PKC_5004'],
    ["another partner's used quote of the other type", { partnerId: otherPartnerId, type: 'disbursement', expired: false, used: true }, 'PKC_5004'],
    ['a quote of the other type', { ...live, type: 'disbursement' }, 'PKC_5003'],
    ['a used quote of the other type', { ...live, type: 'disbursement', used: true }, 'PKC_5003'],
    ['a used quote', { ...live, used: true }, 'PKC_5002'],
  ])('when consumption is refused for %s, then the answer is %s', (_case, state, code) => {
    expect(refusalCodeOf(state, request)).toBe(code);
  });

  it('when nothing explains a refusal, then it is an internal error, never a guessed code', () => {
    expect(() => refusalCodeOf(live, request)).toThrow('without a reason');
  });
});
