import { errorCatalogue, httpStatusOf, isPkcCode, type PkcCode } from './catalogue';

/**
 * A domain error that carries a PKC code. Domain code throws it; only the HTTP layer turns it
 * into the error envelope. Callers match on `code`, never on `instanceof` across packages.
 */
export class PkcError extends Error {
  readonly code: PkcCode;
  readonly httpStatus: number;
  /** Extra response headers the HTTP layer should send with this error (Retry-After, say). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Structured fields the error body carries beside `success`, `code` and `message`: a refusal
   * that left a record names it (`referenceId`, `status`), a token refusal its RFC 6749 `error`.
   */
  readonly fields: Readonly<ErrorFields>;

  constructor(code: PkcCode, message?: string, options?: { headers?: Record<string, string>; fields?: ErrorFields; cause?: unknown }) {
    super(message ?? errorCatalogue[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PkcError';
    this.code = code;
    this.httpStatus = httpStatusOf(code);
    this.headers = Object.freeze({ ...(options?.headers ?? {}) });
    this.fields = Object.freeze(withoutReservedFields(options?.fields ?? {}));
  }
}

/** A JSON value an error body may carry as an extra field. */
export type ErrorFieldValue = string | number | boolean | null | { readonly [name: string]: ErrorFieldValue } | readonly ErrorFieldValue[];
export type ErrorFields = Readonly<Record<string, ErrorFieldValue>>;

const reservedEnvelopeFields = new Set(['success', 'code', 'message']);

/** The envelope's own three fields can never be overwritten by extra fields. */
function withoutReservedFields(fields: ErrorFields): Record<string, ErrorFieldValue> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !reservedEnvelopeFields.has(name)));
}

export function isPkcError(value: unknown): value is PkcError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === 'PkcError' &&
    isPkcCode((value as { code?: unknown }).code)
  );
}

export interface ErrorEnvelope {
  success: false;
  code: PkcCode;
  message: string;
  /** Structured extra fields (referenceId, status, error, ...); see PkcError.fields. */
  [field: string]: ErrorFieldValue;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export function errorEnvelope(code: PkcCode, message?: string, fields: ErrorFields = {}): ErrorEnvelope {
  return { ...withoutReservedFields(fields), success: false, code, message: message ?? errorCatalogue[code].message };
}

export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}
