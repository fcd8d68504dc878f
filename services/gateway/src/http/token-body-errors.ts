import type { ErrorRequestHandler } from 'express';
import { PkcError } from '@pwa/errors';
import { unreadableBodyMessageOf } from '@pwa/http';
import { tokenEndpointChallenge } from '../domain/guard-token-endpoint';
import { contextOf } from './request-context';

/**
 * On the token endpoint, a body the gateway cannot read (not JSON, too large, bad encoding) is
 * "client_id or client_secret missing or malformed": PKC_1001 with its catalogue status 401, as
 * the spec lists it, with the RFC 6749 `error` invalid_request and the Basic challenge every 401
 * of the token endpoint carries. Other routes keep the shared handler's 400 PKC_2008.
 */
export const tokenEndpointBodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const message = contextOf(res).route?.authentication === 'none' ? unreadableBodyMessageOf(error) : undefined;
  if (message !== undefined) {
    next(
      new PkcError('PKC_1001', message, {
        cause: error,
        headers: { 'WWW-Authenticate': tokenEndpointChallenge },
        fields: { error: 'invalid_request' },
      }),
    );
    return;
  }
  next(error);
};
