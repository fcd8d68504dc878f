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

  constructor(code: PkcCode, message?: string, options?: { headers?: Record<string, string>; cause?: unknown }) {
    super(message ?? errorCatalogue[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PkcError';
    this.code = code;
    this.httpStatus = httpStatusOf(code);
    this.headers = Object.freeze({ ...(options?.headers ?? {}) });
  }
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
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export function errorEnvelope(code: PkcCode, message?: string): ErrorEnvelope {
  return { success: false, code, message: message ?? errorCatalogue[code].message };
}

export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}
