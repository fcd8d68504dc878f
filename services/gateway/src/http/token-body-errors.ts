import type { ErrorRequestHandler } from 'express';
import { PkcError } from '@pwa/errors';
import { contextOf } from './request-context';

/**
 * On the token endpoint, a body the gateway cannot read (not JSON, too large, bad encoding) is
 * "client_id or client_secret missing or malformed": PKC_1001 with its catalogue status 401, as
 * the spec lists it. Other routes keep the shared handler's 400 PKC_2008.
 */
export const tokenEndpointBodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
  if (contextOf(res).route?.authentication === 'none' && isBodyParserError(error)) {
    next(new PkcError('PKC_1001', 'Request body could not be read: send client_id and client_secret as JSON', { cause: error }));
    return;
  }
  next(error);
};

/** body-parser marks its errors with a string `type` such as "entity.parse.failed" and a 4xx status. */
function isBodyParserError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { type, status } = error as { type?: unknown; status?: unknown };
  return typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500;
}
