import type { ErrorRequestHandler } from 'express';
import { PkcError } from '@pwa/errors';
import { tokenEndpointChallenge } from '../domain/guard-token-endpoint';
import { contextOf } from './request-context';

/**
 * On the token endpoint, a body the gateway cannot read (not JSON, too large, bad encoding) is
 * "client_id or client_secret missing or malformed": PKC_1001 with its catalogue status 401, as
 * the spec lists it, with the RFC 6749 `error` invalid_request and the Basic challenge every 401
 * of the token endpoint carries. Other routes keep the shared handler's 400 PKC_2008.
 */
export const tokenEndpointBodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
  if (contextOf(res).route?.authentication === 'none' && isBodyParserError(error)) {
    next(
      new PkcError('PKC_1001', unreadableBodyMessageOf(error), {
        cause: error,
        headers: { 'WWW-Authenticate': tokenEndpointChallenge },
        fields: { error: 'invalid_request' },
      }),
    );
    return;
  }
  next(error);
};

/**
 * A body refusal of the shared body rules (wrong Content-Type, say) has a message written for the
 * partner; body-parser's own messages may quote the body (a secret), so they are never repeated.
 */
function unreadableBodyMessageOf(error: unknown): string {
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'BodyRefusal' && typeof message === 'string') return message;
  return 'Request body could not be read: send client_id and client_secret as JSON or a form';
}

/** body-parser marks its errors with a string `type` such as "entity.parse.failed" and a 4xx status. */
function isBodyParserError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { type, status } = error as { type?: unknown; status?: unknown };
  return typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500;
}
