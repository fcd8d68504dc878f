import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { bindEmitterToLogContext, runWithLogContext } from '@pwa/logging';
import { currentTraceparent, isValidTraceparent, newTraceparent } from '@pwa/telemetry';

export const requestIdHeader = 'x-request-id';
export const traceparentHeader = 'traceparent';
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Accepts a caller's request id when it is safe to echo, otherwise makes one; echoes it on the
 * response. The rest of the request runs in a log context holding the request id and the trace
 * context, so every line logged while handling it carries both. The trace context is the active
 * span's (tracing on); without one, the caller's traceparent, or a new trace when it sent none (the
 * gateway, for a partner's request), which outgoing calls and events then hand on.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const offered = req.header(requestIdHeader);
  const requestId = offered !== undefined && acceptableRequestId.test(offered) ? offered : randomUUID();
  res.locals.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);
  const incoming = req.header(traceparentHeader);
  const traceparent = currentTraceparent() ?? (isValidTraceparent(incoming) ? incoming : newTraceparent());
  runWithLogContext({ requestId, traceparent }, () => {
    // The body and the response's end arrive as events of the connection: keep them in this context.
    bindEmitterToLogContext(req);
    bindEmitterToLogContext(res);
    next();
  });
}

export function requestIdOf(res: Response): string {
  return typeof res.locals.requestId === 'string' ? res.locals.requestId : 'unknown';
}
