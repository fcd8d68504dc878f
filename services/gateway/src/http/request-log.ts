import type { RequestHandler, Response } from 'express';
import { isPkcError } from '@pwa/errors';
import { scrubSecrets, type Logger } from '@pwa/logging';
import { requestIdOf } from '@pwa/http';
import { contextOf } from './request-context';

/**
 * One log line per request, written when the response is done: route template (never the raw
 * path, which may hold a phone number), status, duration, partner and upstream. Headers and bodies
 * are never logged, so tokens and secrets cannot reach the log from here.
 */
export function logEachRequest(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    let logged = false;
    const write = (): void => {
      if (logged) return;
      logged = true;
      const context = contextOf(res);
      logger.info(
        {
          requestId: requestIdOf(res),
          method: req.method,
          route: typeof res.locals.routeTemplate === 'string' ? res.locals.routeTemplate : 'unmatched',
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - startedAt) / 1e6,
          partnerId: context.admission?.partner.partnerId,
          upstream: context.route?.upstream,
          unavailableBecause: context.unavailableBecause,
          aborted: !res.writableFinished,
        },
        'request',
      );
    };
    res.once('finish', write);
    res.once('close', write);
    next();
  };
}

/**
 * When an error is PKC_7003, notes its cause for the request log line (the partner only sees the
 * code): its code, and an upstream failure's reason (circuit_open, deadline_exceeded, ...).
 */
export function noteIfUnavailable(res: Response, error: unknown): void {
  if (!isPkcError(error) || error.code !== 'PKC_7003') return;
  const cause: unknown = error.cause;
  if (typeof cause !== 'object' || cause === null) return;
  const { code, reason, message } = cause as { code?: unknown; reason?: unknown; message?: unknown };
  const described =
    typeof code !== 'string' ? (typeof message === 'string' ? message : 'unknown') : typeof reason === 'string' ? `${code} ${reason}` : code;
  contextOf(res).unavailableBecause = scrubSecrets(described);
}
