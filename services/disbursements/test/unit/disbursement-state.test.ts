import { apiStatusOf, canTransition, disbursementStates, holdsExternalId, type DisbursementState } from '../../src/domain/disbursement-state';

describe('disbursement states', () => {
  test.each([
    ['processing', 'completed', true],
    ['processing', 'failed', true],
    ['processing', 'timed_out', true],
    ['processing', 'processing', false],
    ['completed', 'failed', false],
    ['completed', 'timed_out', false],
    ['failed', 'completed', false],
    ['timed_out', 'completed', false],
    ['failed', 'processing', false],
  ] as [DisbursementState, DisbursementState, boolean][])('when %s moves to %s, then allowed is %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  test('when a state is final, then nothing follows it', () => {
    for (const from of disbursementStates.filter((state) => state !== 'processing')) {
      for (const to of disbursementStates) expect(canTransition(from, to)).toBe(false);
    }
  });

  test('when the externalId is checked, then only processing and completed hold it', () => {
    expect(disbursementStates.filter(holdsExternalId)).toEqual(['processing', 'completed']);
  });

  test('when a partner sees a state, then it is one of the spec transaction statuses', () => {
    expect(disbursementStates.map(apiStatusOf)).toEqual(['pending', 'completed', 'failed', 'failed']);
  });
});
