import type { Request, Response } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import type { RequestOrigin } from '../use-cases/people-dependencies';

/** Where a request came from, as the throttle and the audit log record it. */
export function originOf(req: Request, res: Response): RequestOrigin {
  return { address: req.ip ?? 'unknown', userAgent: req.get('user-agent') ?? null, requestId: requestIdOf(res) };
}

/** The string fields a console body must have; refused with CON_2001 naming them, never echoing values. */
export function stringFieldsOf<Name extends string>(body: unknown, names: readonly Name[], lengthMax = 1_000): Record<Name, string> {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const wrong = names.filter((name) => typeof record[name] !== 'string' || record[name].length === 0 || record[name].length > lengthMax);
  if (wrong.length > 0) throw new ConsoleError('CON_2001', `Missing or invalid fields: ${wrong.join(', ')} (each a non-empty string of at most ${lengthMax} characters)`);
  return Object.fromEntries(names.map((name) => [name, record[name] as string])) as Record<Name, string>;
}

/** Input parsed with a schema, or CON_2001 naming the fields (never their values) that are missing or invalid. */
export function parsedInput<Schema extends z.ZodType>(schema: Schema, value: unknown, what: 'fields' | 'query parameters' = 'fields'): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const names = [...new Set(result.error.issues.map((issue) => issue.path.map(String).join('.') || (what === 'fields' ? 'body' : 'query')))];
  throw new ConsoleError('CON_2001', `Missing or invalid ${what}: ${names.join(', ')}`);
}
