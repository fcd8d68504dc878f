import type { Request, Response } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';

/** Where a request came from, for the throttle and the audit log. */
export interface RequestOrigin {
  address: string;
  userAgent: string | null;
  requestId: string | null;
}

/** Where a request came from, as the throttle and the audit log record it. */
export function originOf(req: Request, res: Response): RequestOrigin {
  return { address: req.ip ?? 'unknown', userAgent: req.get('user-agent') ?? null, requestId: requestIdOf(res) };
}

/** A name from the request (a field's path, an unknown key) as a refusal shows it: never longer than this. */
const shownNameMax = 60;

/**
 * A console's input parsed with a schema, or CON_2001 naming each field that is missing or invalid
 * and what it must be, in words a person acts on (never the value, never zod's array/undefined wording).
 */
export function parsedInput<Schema extends z.ZodType>(schema: Schema, value: unknown, what: 'fields' | 'query parameters' = 'fields'): z.infer<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const problems = [...new Set(result.error.issues.flatMap((issue) => problemsOf(issue, valueAt(value, issue.path), what)))];
  throw new ConsoleError('CON_2001', `Missing or invalid ${what}: ${problems.join('; ')}`);
}

/** One schema issue: the field's name and what it must be (zod's own wording only when it is a schema's message). */
function problemsOf(issue: z.core.$ZodIssue, given: unknown, what: 'fields' | 'query parameters'): string[] {
  const name = shown(issue.path.map(String).join('.') || (what === 'fields' ? 'body' : 'query'));
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${shown([...issue.path.map(String), key].join('.'))} (unknown: leave it out)`);
  if (given === undefined) return [`${name} (missing: ${issue.message.replace(/^Invalid (input|option): /, '').replace(/, received undefined$/, '')})`];
  if (issue.code === 'invalid_type' && what === 'query parameters' && Array.isArray(given)) return [`${name} (given more than once: give it once)`];
  return [`${name} (${issue.message})`];
}

function shown(name: string): string {
  return name.length > shownNameMax ? `${name.slice(0, shownNameMax)}…` : name;
}

/** What the input holds at an issue's path (only its type is looked at, never shown). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}
