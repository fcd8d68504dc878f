import { echoInput } from './echo';
import { PkcError } from './pkc-error';

/** How many parameter names one refusal lists at most. */
const namedParametersMax = 10;

/** What a refusal needs of a zod issue: its path and, for unknown keys, their names. */
export interface ParameterIssue {
  code: string;
  path: readonly PropertyKey[];
  keys?: readonly string[];
}

/**
 * The one refusal of a query or body that does not parse (every list and the statement): 400
 * PKC_2008 naming the parameters, an unknown one by its own name, never echoing values, each name
 * capped by echoInput, at most ten of them.
 */
export function invalidParametersError(names: readonly string[]): PkcError {
  const unique = [...new Set(names)];
  const listed = unique.slice(0, namedParametersMax).map((name) => echoInput(name));
  const more = unique.length > namedParametersMax ? ` and ${unique.length - namedParametersMax} more` : '';
  return new PkcError('PKC_2008', `Invalid or unknown fields: ${listed.join(', ')}${more}`);
}

/** invalidParametersError for the issues of a failed zod parse. */
export function invalidParametersErrorOf(issues: readonly ParameterIssue[], whole = 'query'): PkcError {
  return invalidParametersError(
    issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys' && issue.keys !== undefined ? issue.keys.map((key) => [...issue.path, key].map(String).join('.')) : [issue.path.map(String).join('.') || whole],
    ),
  );
}
