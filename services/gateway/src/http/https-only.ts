import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errorEnvelope } from '@pwa/errors';
import { sendErrorEnvelope } from '@pwa/http';

export const plainHttpRejectionMessage =
  'HTTPS is required: this API does not accept plain HTTP requests. Use https:// instead of http://.';

const plainHttpRejectionBody = JSON.stringify(errorEnvelope('PKC_6005', plainHttpRejectionMessage));

/**
 * The answer to every plain-HTTP request on the public port (terminate mode): 403 with the error
 * envelope, and the connection closed. The request is never read further nor forwarded, so
 * credentials a partner mistakenly sent in clear go nowhere (they should still be rotated).
 */
export function rejectPlainHttp(onRejected: () => void): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    onRejected();
    res.writeHead(403, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(plainHttpRejectionBody),
      Connection: 'close',
    });
    res.end(plainHttpRejectionBody);
  };
}

/**
 * Proxy mode: TLS ends at a load balancer in front of the gateway. express's req.protocol reads
 * X-Forwarded-Proto only when the peer is a trusted proxy (TRUSTED_PROXIES), so a client that
 * reaches the gateway directly cannot claim HTTPS by sending the header itself.
 */
export function requireForwardedHttps(onRejected: () => void): RequestHandler {
  return (req, res, next) => {
    if (req.protocol === 'https') {
      next();
      return;
    }
    onRejected();
    res.setHeader('Connection', 'close');
    sendErrorEnvelope(res, 403, 'PKC_6005', plainHttpRejectionMessage);
  };
}

/** Tells browsers and well-behaved clients never to try plain HTTP for this host again. */
export function strictTransportSecurity(maxAgeSeconds: number): RequestHandler {
  const value = `max-age=${maxAgeSeconds}; includeSubDomains`;
  return (_req, res, next) => {
    res.setHeader('Strict-Transport-Security', value);
    next();
  };
}
