import { PkcError, echoInput } from '@pwa/errors';

/** How many parameter names one refusal lists at most. */
const namedParametersMax = 10;

/** What a refusal needs of a zod issue: its path and, for unknown keys, their names. */
export interface QueryIssue {
  code: string;
  path: readonly PropertyKey[];
  keys?: readonly string[];
}

/**
 * A list query that does not parse is the caller's mistake: 400 PKC_2008 naming the parameters (an
 * unknown one by its own name), never echoing values, each name capped, at most ten of them; the
 * same words as the webhook deliveries list.
 */
export function invalidQueryError(issues: readonly QueryIssue[]): PkcError {
  const names = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' && issue.keys !== undefined ? [...issue.keys] : [issue.path.map(String).join('.') || 'query']));
  return invalidParametersError([...new Set(names)]);
}

export function invalidParametersError(names: readonly string[]): PkcError {
  const listed = names.slice(0, namedParametersMax).map((name) => echoInput(name));
  const more = names.length > namedParametersMax ? ` and ${names.length - namedParametersMax} more` : '';
  return new PkcError('PKC_2008', `Invalid or unknown fields: ${listed.join(', ')}${more}`);
}
