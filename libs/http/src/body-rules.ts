import { isUtf8 } from 'node:buffer';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { PkcError, describeInvalidField, echoInput, expectedForms, invalidFieldError, type InvalidField } from '@pwa/errors';
import { jsonNestingDepthMax, jsonNestingExceeds } from './json-depth';
import { encodedPairsProblemOf, requestTargetRefusalOf } from './request-target';
import { findUnsafeText, textProblemDescriptions } from './text-safety';

/*
 * The rules every request's target and body pass before any route runs (createApp mounts them),
 * so no route can change state on input that breaks them:
 * - path segments and query names and values decode as UTF-8 and hold no control character;
 * - a POST/PUT/PATCH body is JSON: Content-Type application/json (or application/*+json), charset
 *   utf-8 if named, or a form body where the request's route takes one (the token endpoint, RFC
 *   6749 §4.4). Unless a request says otherwise (declareBodyTypes), a form body is left to the route
 *   to parse, as auth's token route does; the gateway declares every public route's body types
 *   from its route table, so a partner's form body reaches only the token endpoint;
 * - Content-Encoding is identity, gzip, deflate or br; the decoded size counts against the limit;
 * - the body's bytes are valid UTF-8 and a JSON body nests at most jsonNestingDepthMax levels
 *   (checked on the bytes, before any parser runs); a form's names and values percent-decode as UTF-8;
 * - every string and field name in the parsed body, JSON or form, follows the text rule (text-safety.ts).
 * Target problems are PKC_2008 errors; body problems are body refusals (below), answered like
 * body-parser's own errors (PKC_2008, or the code a service chooses for unreadable bodies).
 */

export type BodyRefusalType =
  | 'content.type.unsupported'
  | 'content.encoding.unsupported'
  | 'entity.decoding.failed'
  | 'entity.not.utf8'
  | 'entity.too.deep'
  | 'entity.text.unsafe';

const bodyRefusalTypes: ReadonlySet<string> = new Set<BodyRefusalType>([
  'content.type.unsupported',
  'content.encoding.unsupported',
  'entity.decoding.failed',
  'entity.not.utf8',
  'entity.too.deep',
  'entity.text.unsafe',
]);

/** A body this API will not read, shaped like body-parser's errors (a `type` and a 4xx `status`) so every handler of those treats it alike. */
export class BodyRefusal extends Error {
  readonly status = 400;
  readonly statusCode = 400;
  readonly expose = true;
  constructor(
    readonly type: BodyRefusalType,
    message: string,
    /** The body field at fault, when one is (a control character in its value): a validation refusal names it (decision 0075). */
    readonly invalidFields?: readonly InvalidField[],
  ) {
    super(message);
    this.name = 'BodyRefusal';
  }
}

/** The fields a body refusal names, or undefined when the error is not one or names none. */
export function bodyRefusalFieldsOf(error: unknown): readonly InvalidField[] | undefined {
  return error instanceof BodyRefusal ? error.invalidFields : undefined;
}

/** The partner-facing message of a body refusal, or undefined when the error is not one. */
export function bodyRefusalMessageOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, message } = error as { type?: unknown; message?: unknown };
  return typeof type === 'string' && bodyRefusalTypes.has(type) && typeof message === 'string' ? message : undefined;
}

export const supportedContentEncodings = ['identity', 'gzip', 'deflate', 'br'] as const;
/** A media type as RFC 9110 spells one; anything else in the header is not repeated back. */
const mediaTypeToken = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;
const methodsWithBodies = new Set(['POST', 'PUT', 'PATCH']);
const declaredBodyTypes = Symbol('declaredBodyTypes');
const jsonBodyExpected = Symbol('jsonBodyExpected');
const formBodyExpected = Symbol('formBodyExpected');
const bodyChecked = Symbol('bodyChecked');

export type BodyTypes = 'json' | 'json or form';

/**
 * Says which bodies this request's route takes, before the body rules run: 'json' alone, or 'json
 * or form' (an application/x-www-form-urlencoded body, which the route parses itself). Undeclared
 * is 'json or form'.
 */
export function declareBodyTypes(res: Response, types: BodyTypes): void {
  (res.locals as Record<symbol, unknown>)[declaredBodyTypes] = types;
}

/**
 * What is wrong with a body's Content-Type for a route (undefined when it is acceptable) and whether
 * the body is JSON. Pure: the header's value and whether the route also takes a form body.
 */
export function contentTypeVerdictOf(contentType: string | undefined, formAccepted: boolean): { json: boolean; problem?: string } {
  const expected = formAccepted ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
  if (contentType === undefined || contentType.trim() === '') {
    return { json: false, problem: `Content-Type must be ${expected}; the body was sent without one` };
  }
  const [mediaTypeText = '', ...parameters] = contentType.split(';');
  const mediaType = mediaTypeText.trim().toLowerCase();
  const json = mediaType === 'application/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(mediaType);
  const form = formAccepted && mediaType === 'application/x-www-form-urlencoded';
  if (!json && !form) {
    const sent = mediaTypeToken.test(mediaType) ? ` (this body was sent as ${echoInput(mediaType)})` : '';
    return { json: false, problem: `Content-Type must be ${expected}${sent}` };
  }
  const charset = charsetOf(parameters);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return { json, problem: 'Content-Type charset must be utf-8' };
  return { json };
}

function charsetOf(parameters: readonly string[]): string | undefined {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset') return value.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

export function contentEncodingProblemOf(contentEncoding: string | undefined): string | undefined {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if ((supportedContentEncodings as readonly string[]).includes(encoding)) return undefined;
  const named = /^[a-z0-9!#$&^_.+-]+$/.test(encoding) ? ` ${echoInput(encoding)}` : '';
  return `Content-Encoding${named} is not supported: send the body uncompressed or with one of gzip, deflate or br`;
}

function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The path and query rules: a PKC_2008 before any route (express would throw on `%E0%A4%A`, PostgreSQL on `%00`). */
export const checkRequestTarget: RequestHandler = (req, _res, next) => {
  const [path = '', ...query] = req.originalUrl.split('?');
  const refusal = requestTargetRefusalOf(path, query.join('?'));
  if (refusal === undefined) next();
  else if (refusal.parameter === undefined) next(new PkcError('PKC_2008', refusal.message));
  else next(invalidFieldError('PKC_2008', refusal.parameter, 'wrong_format', `percent-encoded UTF-8 ${expectedForms.text}`, { lead: `Query parameter ${echoInput(refusal.parameter)} is not valid` }));
};

/** Content-Type and Content-Encoding of a body, before a byte of it is read. */
export const checkBodyHeaders: RequestHandler = (req, res, next) => {
  if (!carriesBody(req)) {
    next();
    return;
  }
  const encodingProblem = contentEncodingProblemOf(req.headers['content-encoding']);
  if (encodingProblem !== undefined) {
    next(new BodyRefusal('content.encoding.unsupported', encodingProblem));
    return;
  }
  const formAccepted = (res.locals as Record<symbol, unknown>)[declaredBodyTypes] !== 'json';
  const verdict = contentTypeVerdictOf(req.headers['content-type'], formAccepted);
  if (verdict.problem !== undefined && methodsWithBodies.has(req.method)) {
    next(new BodyRefusal('content.type.unsupported', verdict.problem));
    return;
  }
  if (verdict.problem === undefined) (req as unknown as Record<symbol, unknown>)[verdict.json ? jsonBodyExpected : formBodyExpected] = true;
  next();
};

const rawBodies = new WeakMap<object, Buffer>();

/** body-parser's verify hook, on the decoded bytes before JSON.parse: UTF-8, then depth; keeps the bytes. */
function verifyJsonBytes(req: object, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new BodyRefusal('entity.not.utf8', 'Request body is not valid UTF-8');
  if (jsonNestingExceeds(body)) {
    throw new BodyRefusal('entity.too.deep', `Request body nests JSON arrays and objects more than ${jsonNestingDepthMax} levels deep`);
  }
  rawBodies.set(req, body);
  (req as Record<symbol, unknown>)[bodyChecked] = true;
}

/** The same for a form body before it is parsed: UTF-8, and every name and value percent-decodes to text the rule accepts. */
function verifyFormBytes(req: object, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new BodyRefusal('entity.not.utf8', 'Request body is not valid UTF-8');
  const problem = encodedPairsProblemOf(body.toString('utf8'), { whole: 'The form body', one: 'Form field' });
  if (problem !== undefined) throw new BodyRefusal('entity.text.unsafe', problem);
  (req as Record<symbol, unknown>)[bodyChecked] = true;
}

/**
 * The JSON body exactly as the client wrote it (after any content decoding). A proxy forwards
 * these bytes, not a re-encoding of the parsed value: `1.999999999999999999` must reach the service
 * that parses amounts as written.
 */
export function rawJsonBodyOf(req: Request): Buffer | undefined {
  return rawBodies.get(req);
}

/** A second, larger body limit for the requests it applies to (a bulk quote of 1,000 items, say); every other rule is the same. */
export interface LargeBodyLimit {
  limit: string;
  /** Decided per request before its body is read (the gateway asks its matched route). */
  appliesTo: (req: Request) => boolean;
}

/**
 * Reads the body checkBodyHeaders accepted: express.json for JSON, express.urlencoded (flat, as
 * RFC 6749 forms are) for a form, both through the verify hooks above, within the same limit. A
 * route's own form parser then finds the body read and keeps this one. A body that does not decode
 * (bad gzip data, say) is a refusal, not a 500. With a large limit, the requests it applies to are
 * read by parsers of that limit and every other request by those of `limit`.
 */
export function parseBody(limit: string, large?: LargeBodyLimit): RequestHandler {
  const standard = bodyParsersWithin(limit);
  const larger = large === undefined ? undefined : bodyParsersWithin(large.limit);
  return (req, res, next) => {
    const parsers = larger !== undefined && large?.appliesTo(req) === true ? larger : standard;
    const parser = (req as unknown as Record<symbol, unknown>)[formBodyExpected] === true ? parsers.form : parsers.json;
    parser(req, res, (error?: unknown) => next(error === undefined ? undefined : asKnownBodyError(error, req)));
  };
}

function bodyParsersWithin(limit: string): { json: RequestHandler; form: RequestHandler } {
  const expects = (marker: symbol) => (req: unknown) => (req as Record<symbol, unknown>)[marker] === true;
  return {
    json: express.json({ limit, strict: true, type: expects(jsonBodyExpected), verify: verifyJsonBytes }),
    form: express.urlencoded({ limit, extended: false, type: expects(formBodyExpected), verify: verifyFormBytes }),
  };
}

/** body-parser passes a decompression failure on as a bare 400 without a `type`; name it. */
function asKnownBodyError(error: unknown, req: Request): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { type, status } = error as { type?: unknown; status?: unknown };
  if (typeof type === 'string' || typeof status !== 'number' || status < 400 || status >= 500) return error;
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const message = encoding === 'identity' ? 'Request body could not be read' : `Request body is not valid ${encoding} data`;
  return new BodyRefusal('entity.decoding.failed', message);
}

/** The text rule on every string and field name of a parsed body (a form's were checked encoded, and are checked again here). */
export const checkBodyText: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
  if ((req as unknown as Record<symbol, unknown>)[bodyChecked] !== true) {
    next();
    return;
  }
  const unsafe = findUnsafeText(req.body);
  if (unsafe === undefined) {
    next();
    return;
  }
  if (unsafe.part === 'name') {
    const rule = 'text must not contain control characters (such as NUL, tab or line breaks) or lone surrogates';
    next(new BodyRefusal('entity.text.unsafe', `A field name in ${echoInput(unsafe.path)} ${textProblemDescriptions[unsafe.problem]}: ${rule}`));
    return;
  }
  // A value: the refusal names its field (decision 0075), in the message as every field refusal does.
  const named: InvalidField = { field: echoInput(dottedPathOf(unsafe.path)), problem: 'wrong_format', expected: expectedForms.text };
  next(new BodyRefusal('entity.text.unsafe', `Field ${echoInput(unsafe.path)} ${textProblemDescriptions[unsafe.problem]}: ${describeInvalidField(named)}`, [named]));
};

/** `items[2].note` (findUnsafeText's path) as a refusal names a field: `items.2.note`; `(body)` is the body. */
function dottedPathOf(path: string): string {
  return path === '(body)' ? 'body' : path.replace(/\[(\d+)\]/g, '.$1');
}
