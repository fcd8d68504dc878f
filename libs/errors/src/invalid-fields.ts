import { errorCatalogue, type PkcCode } from './catalogue';
import { echoInput } from './echo';
import { PkcError, type ErrorFields } from './pkc-error';

/**
 * The one way a refusal of a request's fields is built (issue 29, decision 0075): every 400 caused
 * by a body field, a query parameter or a path parameter carries `invalidFields`, a list of the
 * offending fields, each with what was wrong and, where it can be said, what is expected; its
 * message names the same fields in words. Partners act on `code` (unchanged) and may read
 * `invalidFields` to show or fix the field; the wording of `expected` and of the message may change.
 */

/** What was wrong with one field. */
export const fieldProblems = [
  /** Absent, or null (and "" where text is required). */
  'missing',
  /** A field the operation does not take. */
  'unknown',
  /** A JSON value of another type (a string for a number, a list for one value). */
  'wrong_type',
  /** The right type in a form the operation cannot read (a date, a UUID, a phone, decimals). */
  'wrong_format',
  /** Not one of the values the operation accepts here (a currency, a status, a cursor of another list). */
  'not_allowed',
  /** A number, a period or a count outside its bounds. */
  'out_of_range',
  /** Text longer than its maximum. */
  'too_long',
] as const;
export type FieldProblem = (typeof fieldProblems)[number];

/** One offending field of a refusal, as the error body's `invalidFields` carries it. */
export interface InvalidField {
  /** The field's name as sent: a body field, a query or a path parameter; nested ones dotted (`items.3.phone`). */
  field: string;
  problem: FieldProblem;
  /** What would be accepted, for people (absent for an unknown field: remove it). */
  expected?: string;
}

/** The name of the error body's field that lists them. */
export const invalidFieldsName = 'invalidFields';

/** How many fields one refusal lists at most; the message counts the rest. */
export const invalidFieldsListedMax = 10;

/** Descriptions of the forms every part of the API uses, so the same thing is always said the same way. */
export const expectedForms = {
  dateTime: 'an ISO 8601 date-time with Z or an offset, such as 2026-11-28T00:00:00Z',
  uuid: 'a UUID such as 6f1c2a9e-4b7d-4e3a-9c55-0d2b8e7f1a34',
  cursor: 'the nextCursor of your previous page of this list, sent with the same filters',
  text: 'text without control characters such as NUL, tab or line breaks, and without lone surrogates',
  jsonObject: 'a JSON object',
} as const;

const problemPhrases: Readonly<Record<FieldProblem, string>> = {
  missing: 'is missing',
  unknown: 'is not a field of this request: remove it',
  wrong_type: 'has the wrong type',
  wrong_format: 'has the wrong format',
  not_allowed: 'is not an accepted value',
  out_of_range: 'is out of range',
  too_long: 'is too long',
};

/** "currency is missing (expected LRD or USD)": one field's problem in words. */
export function describeInvalidField(invalid: InvalidField): string {
  const expected = invalid.expected === undefined ? '' : ` (expected ${invalid.expected})`;
  return `${invalid.field} ${problemPhrases[invalid.problem]}${expected}`;
}

/**
 * The refusal with this code for these fields: 400 (the code's status), `invalidFields` listing
 * each field once per problem (names capped by echoInput, never a value sent), at most ten, and a
 * message naming them, after a lead (by default the catalogue's message, none for PKC_2008, whose
 * catalogue message says only "missing").
 */
export function invalidFieldsError(code: PkcCode, invalidFields: readonly InvalidField[], options: { lead?: string } = {}): PkcError {
  const listed = uniqueFields(invalidFields).map(cappedField);
  const shown = listed.slice(0, invalidFieldsListedMax);
  const more = listed.length > shown.length ? `; and ${listed.length - shown.length} more` : '';
  const details = `${shown.map(describeInvalidField).join('; ')}${more}`;
  const lead = options.lead ?? (code === 'PKC_2008' ? undefined : errorCatalogue[code].message);
  const message = details === '' ? (lead ?? errorCatalogue[code].message) : lead === undefined ? details : `${lead}: ${details}`;
  return new PkcError(code, message, { fields: errorFieldsOf(shown) });
}

/** The error body's fields for a list of invalid fields: `{ invalidFields: [...] }`. */
export function errorFieldsOf(invalidFields: readonly InvalidField[]): ErrorFields {
  return { [invalidFieldsName]: invalidFields.map(toJson) };
}

/** The refusal of one field: invalidFieldsError with a list of one. */
export function invalidFieldError(code: PkcCode, field: string, problem: FieldProblem, expected?: string, options: { lead?: string } = {}): PkcError {
  return invalidFieldsError(code, [expected === undefined ? { field, problem } : { field, problem, expected }], options);
}

/**
 * The same refusal with its fields named under a parent, dotted (`items.3` and `phone` make
 * `items.3.phone`): for a part of a body checked on its own (a bulk's item) by the rules of a whole
 * body. The code and the message's lead stay; the message names the nested fields. An error that
 * lists no fields is given back as it is.
 */
export function invalidFieldsNestedUnder(error: PkcError, parent: string): PkcError {
  const listed = invalidFieldsOfError(error);
  if (listed === undefined) return error;
  const nested = listed.map((invalid): InvalidField => ({ ...invalid, field: `${parent}.${invalid.field}` }));
  // The message is the lead, then the listed fields in words, then any "; and N more" (invalidFieldsError).
  const details = listed.map(describeInvalidField).join('; ');
  const at = error.message.lastIndexOf(details);
  if (at < 0) return invalidFieldsError(error.code, nested);
  const message = `${error.message.slice(0, at)}${nested.map(describeInvalidField).join('; ')}${error.message.slice(at + details.length)}`;
  return new PkcError(error.code, message, { headers: { ...error.headers }, fields: { ...error.fields, ...errorFieldsOf(nested) } });
}

/** A cursor that is not this partner's, this list's or these filters', or not made here: 400 PKC_2008 naming it. */
export function invalidCursorError(): PkcError {
  return invalidFieldError('PKC_2008', 'cursor', 'not_allowed', expectedForms.cursor);
}

/** The invalidFields of an error (a PkcError or one read from an answer), or undefined when it has none. */
export function invalidFieldsOfError(error: { fields?: Readonly<Record<string, unknown>> }): InvalidField[] | undefined {
  const listed = error.fields?.[invalidFieldsName];
  return isInvalidFieldList(listed) ? listed : undefined;
}

/** Whether a value is a list of InvalidField, as an upstream's refusal may carry one. */
export function isInvalidFieldList(value: unknown): value is InvalidField[] {
  return Array.isArray(value) && value.every(isInvalidField);
}

function isInvalidField(value: unknown): value is InvalidField {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { field, problem, expected } = value as Record<string, unknown>;
  return typeof field === 'string' && (fieldProblems as readonly unknown[]).includes(problem) && (expected === undefined || typeof expected === 'string');
}

function uniqueFields(invalidFields: readonly InvalidField[]): InvalidField[] {
  const seen = new Set<string>();
  return invalidFields.filter((invalid) => {
    const key = `${invalid.field}\u0000${invalid.problem}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function cappedField(invalid: InvalidField): InvalidField {
  return { ...invalid, field: echoInput(invalid.field) };
}

function toJson(invalid: InvalidField): { field: string; problem: FieldProblem; expected?: string } {
  return invalid.expected === undefined ? { field: invalid.field, problem: invalid.problem } : { field: invalid.field, problem: invalid.problem, expected: invalid.expected };
}

// ---- From a failed zod parse --------------------------------------------------------------------

/**
 * What the derivation needs of a zod issue (zod's own issue types fit it): the code, the path and
 * the details zod gives per code. A refinement says its own problem and expectation in `params`
 * (`{ problem: 'out_of_range', expected: 'not before createdFrom' }`).
 */
export interface FieldIssue {
  code: string;
  path: readonly PropertyKey[];
  message?: string;
  keys?: readonly string[];
  expected?: string;
  values?: readonly unknown[];
  format?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  params?: Readonly<Record<string, unknown>>;
}

export interface FieldIssueContext {
  /** What was parsed: a missing field is told apart from a wrong one by its value here. */
  input: unknown;
  /**
   * Where the fields are: in a query every value is text, so a value that does not read as a
   * number is in the wrong format, and a repeated parameter (a list) is of the wrong type.
   */
  location: 'body' | 'query' | 'path';
  /** What the schema expects at a path, when the schema can say it better than the issue (both bounds, a date's form). */
  expectedAt?: (path: readonly PropertyKey[]) => string | undefined;
}

/** The invalid fields of a failed parse, in the order of the issues. */
export function invalidFieldsOf(issues: readonly FieldIssue[], context: FieldIssueContext): InvalidField[] {
  return issues.flatMap((issue) => invalidFieldsOfIssue(issue, context));
}

/** 400 PKC_2008 for a query, body or path that did not parse: the one refusal of every zod-parsed public input. */
export function invalidFieldsErrorOf(issues: readonly FieldIssue[], context: FieldIssueContext): PkcError {
  return invalidFieldsError('PKC_2008', invalidFieldsOf(issues, context));
}

function invalidFieldsOfIssue(issue: FieldIssue, context: FieldIssueContext): InvalidField[] {
  if (issue.code === 'unrecognized_keys') return (issue.keys ?? []).map((key) => ({ field: fieldName([...issue.path, key], context), problem: 'unknown' }));
  const field = fieldName(issue.path, context);
  const value = valueAt(context.input, issue.path, issue);
  const expected = context.expectedAt?.(issue.path) ?? expectedOfIssue(issue);
  const withExpected = (problem: FieldProblem, expectation = expected): InvalidField[] => [expectation === undefined ? { field, problem } : { field, problem, expected: expectation }];
  const declared = declaredProblemOf(issue);
  if (declared !== undefined) return withExpected(declared.problem, declared.expected ?? expected);
  if (value === undefined || value === null) return withExpected('missing');
  if (Array.isArray(value) && context.location === 'query') return withExpected('wrong_type', `one value, not a repeated parameter${expected === undefined ? '' : `: ${expected}`}`);
  switch (issue.code) {
    case 'invalid_type':
      return withExpected(context.location === 'body' ? 'wrong_type' : 'wrong_format');
    case 'invalid_value':
      // An enum or literal answers invalid_value for any input; in a body, a value of another JSON type than every accepted one is of the wrong type.
      return withExpected(context.location === 'body' && value !== inputNotGiven && (issue.values ?? []).every((accepted) => typeof accepted !== typeof value) ? 'wrong_type' : 'not_allowed');
    case 'too_big':
      return withExpected(issue.origin === 'string' ? 'too_long' : 'out_of_range');
    case 'too_small':
      return withExpected(issue.origin === 'string' && value === '' ? 'missing' : 'out_of_range');
    default:
      return withExpected('wrong_format');
  }
}

/** A refinement's own verdict (`params.problem`, `params.expected`), when it gave one. */
function declaredProblemOf(issue: FieldIssue): { problem: FieldProblem; expected: string | undefined } | undefined {
  const problem = issue.params?.problem;
  if (!(fieldProblems as readonly unknown[]).includes(problem)) return undefined;
  const expected = issue.params?.expected;
  return { problem: problem as FieldProblem, expected: typeof expected === 'string' ? expected : undefined };
}

/** What an issue alone says is expected (the schema, when asked, says it better). */
function expectedOfIssue(issue: FieldIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return typeNames[issue.expected ?? ''] ?? issue.expected;
    case 'invalid_value':
      return issue.values === undefined ? undefined : alternatives(issue.values.map(String));
    case 'invalid_format':
      return issue.format === 'datetime' ? expectedForms.dateTime : issue.format === 'uuid' || issue.format === 'guid' ? expectedForms.uuid : undefined;
    case 'too_big':
      return issue.maximum === undefined ? undefined : `${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}${unitOf(issue.origin)}`;
    case 'too_small':
      return issue.minimum === undefined ? undefined : `${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}${unitOf(issue.origin)}`;
    default:
      return undefined;
  }
}

const typeNames: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: expectedForms.jsonObject,
  array: 'a list',
};

function unitOf(origin: string | undefined): string {
  return origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '';
}

/** "LRD or USD", "a, b or c". */
export function alternatives(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1] ?? ''}`;
}

function fieldName(path: readonly PropertyKey[], context: FieldIssueContext): string {
  return path.length === 0 ? context.location : path.map(String).join('.');
}

/**
 * Stands for the input when a caller cannot give it (the deprecated invalidParametersErrorOf): a
 * field is then missing only when zod says it received undefined.
 */
export const inputNotGiven: unique symbol = Symbol('inputNotGiven');

function valueAt(input: unknown, path: readonly PropertyKey[], issue: FieldIssue): unknown {
  if (input === inputNotGiven) return issue.message?.endsWith('received undefined') === true ? undefined : inputNotGiven;
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || typeof key === 'symbol' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
