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
  return requestTargetRefusalOf(path, rawQuery)?.message;
}

/** What is wrong with a target, and the query parameter whose value broke the rule when one did (a refusal names it, decision 0075). */
export interface TargetRefusal {
  message: string;
  /** The parameter (its decoded name) whose value does not decode or holds a control character. */
  parameter?: string;
}

/** requestTargetProblemOf, with the parameter at fault. */
export function requestTargetRefusalOf(path: string, rawQuery: string): TargetRefusal | undefined {
  for (const segment of path.split('/')) {
    const decoded = decodeComponent(segment);
    if (decoded === undefined) return { message: 'The path is not valid: percent-encoded bytes must be UTF-8' };
    const problem = textProblemOf(decoded);
    if (problem) return { message: `The path is not valid: a path segment ${textProblemDescriptions[problem]}` };
  }
  return rawQuery === '' ? undefined : encodedPairsRefusalOf(rawQuery, { whole: 'The query string', one: 'Query parameter' });
}

/**
 * The same rule for `name=value&...` text, a query string or a form body (application/x-www-form-urlencoded):
 * names and values decode as UTF-8 ("+" is a space) and hold no control character.
 */
export function encodedPairsProblemOf(text: string, called: { whole: string; one: string }): string | undefined {
  return encodedPairsRefusalOf(text, called)?.message;
}

function encodedPairsRefusalOf(text: string, called: { whole: string; one: string }): TargetRefusal | undefined {
  for (const pair of text.split('&')) {
    const separator = pair.indexOf('=');
    const name = decodeComponent(separator === -1 ? pair : pair.slice(0, separator));
    const value = separator === -1 ? '' : decodeComponent(pair.slice(separator + 1));
    if (name === undefined) return { message: `${called.whole} is not valid: percent-encoded bytes must be UTF-8` };
    const nameProblem = textProblemOf(name);
    if (nameProblem) return { message: `${called.whole} is not valid: a parameter name ${textProblemDescriptions[nameProblem]}` };
    if (value === undefined) return { message: `${called.one} ${echoInput(name)} is not valid: percent-encoded bytes must be UTF-8`, parameter: name };
    const valueProblem = textProblemOf(value);
    if (valueProblem) return { message: `${called.one} ${echoInput(name)} ${textProblemDescriptions[valueProblem]}`, parameter: name };
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
