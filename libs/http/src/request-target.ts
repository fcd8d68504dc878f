import { echoInput } from '@pwa/errors';
import { textProblemDescriptions, textProblemOf } from './text-safety';

/**
 * Checks the request target (path and query) before any route sees it: every path segment and
 * every query name and value must percent-decode as UTF-8 (express would throw a URIError for a
 * path parameter such as `%E0%A4%A`, and the query parser silently replaces such bytes) and must
 * follow the text rule (no `%00`, no control characters). Returns the partner-facing problem, or
 * undefined when the target is acceptable. Query values are never echoed; names only capped.
 */
export function requestTargetProblemOf(path: string, rawQuery: string): string | undefined {
  for (const segment of path.split('/')) {
    const decoded = decodeComponent(segment);
    if (decoded === undefined) return 'The path is not valid: percent-encoded bytes must be UTF-8';
    const problem = textProblemOf(decoded);
    if (problem) return `The path is not valid: a path segment ${textProblemDescriptions[problem]}`;
  }
  if (rawQuery === '') return undefined;
  for (const pair of rawQuery.split('&')) {
    const separator = pair.indexOf('=');
    const name = decodeComponent(separator === -1 ? pair : pair.slice(0, separator));
    const value = separator === -1 ? '' : decodeComponent(pair.slice(separator + 1));
    if (name === undefined) return 'The query string is not valid: percent-encoded bytes must be UTF-8';
    const nameProblem = textProblemOf(name);
    if (nameProblem) return `The query string is not valid: a parameter name ${textProblemDescriptions[nameProblem]}`;
    if (value === undefined) return `Query parameter ${echoInput(name)} is not valid: percent-encoded bytes must be UTF-8`;
    const valueProblem = textProblemOf(value);
    if (valueProblem) return `Query parameter ${echoInput(name)} ${textProblemDescriptions[valueProblem]}`;
  }
  return undefined;
}

/** A URL component decoded as the query parser and the router do ("+" is a space in a query), or undefined when it does not decode. */
function decodeComponent(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
