import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const requestIdHeader = 'x-request-id';
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a caller's request id when it is safe to echo, otherwise makes one; echoes it on the response. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const offered = req.header(requestIdHeader);
  const requestId = offered !== undefined && acceptableRequestId.test(offered) ? offered : randomUUID();
  res.locals.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);
  next();
}

export function requestIdOf(res: Response): string {
  return typeof res.locals.requestId === 'string' ? res.locals.requestId : 'unknown';
}
