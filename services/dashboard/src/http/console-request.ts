import type { Request, Response } from 'express';
import { z } from '@pwa/config';
import { ConsoleError } from '@pwa/errors';
import { requestIdOf } from '@pwa/http';
import type { RequestOrigin } from '../use-cases/people-dependencies';

/** Where a request came from, as the throttle and the audit log record it. */
export function originOf(req: Request, res: Response): RequestOrigin {
  return { address: req.ip ?? 'unknown', userAgent: req.get('user-agent') ?? null, requestId: requestIdOf(res) };
}

/** Input parsed with a schema, or CON_2001 naming the fields (never their values) that are missing or invalid, and what each must be. */
export function parsedInput<Schema extends z.ZodType>(schema: Schema, value: unknown, what: 'fields' | 'query parameters' = 'fields'): z.infer<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const problems = [...new Set(result.error.issues.map((issue) => `${issue.path.map(String).join('.') || (what === 'fields' ? 'body' : 'query')} (${issue.message})`))];
  throw new ConsoleError('CON_2001', `Missing or invalid ${what}: ${problems.join('; ')}`);
}
