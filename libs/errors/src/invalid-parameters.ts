import { inputNotGiven, invalidFieldsErrorOf, type FieldIssue } from './invalid-fields';
import type { PkcError } from './pkc-error';

/** What the refusal needs of a zod issue (kept for callers of the deprecated invalidParametersErrorOf). */
export type ParameterIssue = FieldIssue;

/**
 * @deprecated Use invalidFieldsErrorOf with the input that was parsed (or, in libs/contracts,
 * parsePublicInput), which tells a missing field from a wrong one. Kept for internal callers that
 * do not give the input; it builds the same refusal (400 PKC_2008 with invalidFields).
 */
export function invalidParametersErrorOf(issues: readonly ParameterIssue[], whole: 'query' | 'body' = 'query'): PkcError {
  return invalidFieldsErrorOf(issues, { input: inputNotGiven, location: whole });
}
