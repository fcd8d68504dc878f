import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { errorEnvelope, errorFieldsOf, httpStatusOf, isConsoleError, isPkcCode, isPkcError, type ErrorFields, type PkcCode } from '@pwa/errors';
import type { Logger } from '@pwa/logging';
import { scrubSecrets } from '@pwa/logging';
import { requestIdOf } from './request-id';
import { bodyRefusalFieldsOf, bodyRefusalMessageOf } from './body-rules';

export interface ErrorHandlerOptions {
  logger: Logger;
  /** Code for a body that is not valid JSON or is too large (PKC_2008 unless malformedBodyCodeFor says otherwise). */
  malformedBodyCode: PkcCode;
  /** Per-request override: the token endpoint answers PKC_1001 for a body it cannot read. */
  malformedBodyCodeFor?: (req: Request) => PkcCode | undefined;
  /**
   * Whether an unexpected error means a dependency the service needs is away (its database
   * restarting, say): answered 503 PKC_7003 and logged as a warning, not 500 PKC_7002.
   */
  isDependencyUnavailable?: (error: unknown) => boolean;
}

/** Where the response notes the PKC code it answered, for `pkc_errors_total` (see metrics.ts). */
const pkcErrorAnswered = Symbol('pkcErrorAnswered');

/**
 * Answers the error envelope and marks the response with its code, so the HTTP metrics count it in
 * `pkc_errors_total` when the response finishes. Every envelope a service answers itself goes
 * through here (the error handler, the 404, and the few routes that answer a refusal directly).
 */
export function sendErrorEnvelope(res: Response, httpStatus: number, code: PkcCode, message?: string, fields?: ErrorFields): void {
  (res.locals as Record<symbol, unknown>)[pkcErrorAnswered] = code;
  res.status(httpStatus).json(errorEnvelope(code, message, fields));
}

/** The PKC code of the error envelope this response answered, if it answered one. */
export function pkcErrorAnsweredOf(res: Response): PkcCode | undefined {
  const code = (res.locals as Record<symbol, unknown>)[pkcErrorAnswered];
  return isPkcCode(code) ? code : undefined;
}

/** Any path no route claimed: a 404 in the envelope, never express's HTML page. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  sendErrorEnvelope(res, 404, 'PKC_6002', 'No such endpoint');
};

/**
 * The one place an error becomes a response. PKC errors keep their code; body-parser errors become
 * a validation error; anything else is logged and answered PKC_7002 without details or stack.
 */
export function createErrorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (isPkcError(error)) {
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      sendErrorEnvelope(res, error.httpStatus, error.code, error.message, error.fields);
      return;
    }
    if (isConsoleError(error)) {
      // A console's own refusal (decision 0065): the same envelope, its CON_ code.
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      res.status(error.httpStatus).json({ success: false, code: error.code, message: error.message });
      return;
    }
    const bodyProblem = describeBodyParserError(error);
    if (bodyProblem !== undefined) {
      const code = options.malformedBodyCodeFor?.(req) ?? options.malformedBodyCode;
      // A field the refusal names is listed only on a validation code (the token endpoint answers PKC_1001, which lists none).
      const named = code.startsWith('PKC_2') ? bodyRefusalFieldsOf(error) : undefined;
      sendErrorEnvelope(res, httpStatusOf(code), code, bodyProblem, named === undefined ? undefined : errorFieldsOf(named));
      return;
    }
    if (options.isDependencyUnavailable?.(error) === true) {
      options.logger.warn(
        { err: error, requestId: requestIdOf(res), method: req.method, path: scrubSecrets(req.path) },
        'dependency unavailable; answered 503',
      );
      sendErrorEnvelope(res, 503, 'PKC_7003');
      return;
    }
    options.logger.error(
      { err: error, requestId: requestIdOf(res), method: req.method, path: scrubSecrets(req.path) },
      'unhandled error',
    );
    sendErrorEnvelope(res, 500, 'PKC_7002');
  };
}

/**
 * The partner-facing message for an error of the request itself rather than of the service: a body
 * refusal (body-rules.ts), body-parser's errors, express's URIError for a path parameter that does
 * not decode, and any other 4xx error express or body-parser marks as safe to show. None of them
 * may become a 500.
 */
function describeBodyParserError(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const refusal = bodyRefusalMessageOf(error);
  if (refusal !== undefined) return refusal;
  const { type, status, expose } = error as { type?: unknown; status?: unknown; expose?: unknown };
  const clientError = typeof status === 'number' && status >= 400 && status < 500;
  if (error instanceof URIError && clientError) return 'The path is not valid: percent-encoded bytes must be UTF-8';
  const known = describeBodyParserType(type);
  if (known !== undefined) return known;
  return clientError && expose === true ? 'Request could not be read' : undefined;
}

/**
 * For an error that says the request body could not be read (a body refusal of the shared rules,
 * or one of body-parser's), the partner-facing message; undefined for any other error. The token
 * endpoints answer these with their own code (PKC_1001) and say the same thing. body-parser's own
 * messages may quote the body (a secret), so they are never repeated.
 */
export function unreadableBodyMessageOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status } = error as { type?: unknown; status?: unknown };
  if (typeof type !== 'string' || typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return bodyRefusalMessageOf(error) ?? describeBodyParserType(type) ?? 'Request body could not be read';
}

function describeBodyParserType(type: unknown): string | undefined {
  switch (type) {
    case 'entity.parse.failed':
      return 'Request body is not valid JSON';
    case 'entity.too.large':
      return 'Request body is too large';
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return 'Request body encoding is not supported; send UTF-8 JSON';
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return 'Request body could not be read';
    default:
      return undefined;
  }
}
