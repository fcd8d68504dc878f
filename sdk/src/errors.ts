import type { OperationId } from './operations.js';
import type { InvalidField, PkcCode } from './types.js';

/**
 * What the SDK itself says when no PKC code applies:
 * - `SDK_NETWORK`: the request failed before an answer (DNS, refused, reset, or a TLS certificate
 *   the client does not trust: then nothing was sent, it is not retried, and the message says what
 *   to do, such as the `ca` option for the local sandbox's self-signed certificate).
 * - `SDK_TIMEOUT`: no answer within the call's timeout.
 * - `SDK_UNEXPECTED_ANSWER`: an answer that is not the API's JSON (a proxy's HTML page, say).
 */
export type SdkErrorCode = 'SDK_NETWORK' | 'SDK_TIMEOUT' | 'SDK_UNEXPECTED_ANSWER';

/**
 * The fields some refusals carry beside success, code and message: `referenceId` and `status` of
 * the transaction a refusal recorded or that holds an externalId (409 PKC_6001), and the OAuth 2.0
 * `error` of the token endpoint.
 */
export interface ErrorFields {
  referenceId?: string;
  status?: string;
  error?: string;
  /** On a validation refusal (PKC_2xxx): each offending field, its problem and what is expected. */
  invalidFields?: InvalidField[];
  [name: string]: unknown;
}

export interface PartnerApiErrorDetails {
  code: PkcCode | SdkErrorCode;
  /** HTTP status, 0 when there was no answer. */
  status: number;
  message: string;
  operationId: OperationId;
  fields?: ErrorFields;
  /** X-Request-Id of the answer: quote it to the operator. */
  requestId?: string;
  /** Seconds, from Retry-After (429). */
  retryAfter?: number;
  /** How many attempts this call made (the one resend after renewing an expired token is not counted). */
  attempts: number;
  /**
   * true when the request may have reached the server and the SDK cannot know whether it acted:
   * a money call that timed out or lost its connection, or answered 500/502/503/504 without
   * PKC_7004 (which says nothing was posted). Look the transaction up (listDisbursements / listCollections with your externalId)
   * before sending it again.
   */
  outcomeUnknown: boolean;
  cause?: unknown;
}

/**
 * Any call that did not succeed. Match on `code` (a PKC code of the catalogue, or an SDK_* code),
 * never on the message; `isPartnerApiError` works across copies of the SDK where instanceof may not.
 */
export class PartnerApiError extends Error {
  readonly code: PkcCode | SdkErrorCode;
  readonly status: number;
  readonly operationId: OperationId;
  readonly fields: ErrorFields;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly attempts: number;
  readonly outcomeUnknown: boolean;
  /** Shortcuts to the fields most refusals that name a transaction carry. */
  readonly referenceId: string | undefined;
  readonly partnerApiError = true as const;

  constructor(details: PartnerApiErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PartnerApiError';
    this.code = details.code;
    this.status = details.status;
    this.operationId = details.operationId;
    this.fields = details.fields ?? {};
    this.requestId = details.requestId;
    this.retryAfter = details.retryAfter;
    this.attempts = details.attempts;
    this.outcomeUnknown = details.outcomeUnknown;
    this.referenceId = typeof this.fields.referenceId === 'string' ? this.fields.referenceId : undefined;
  }
}

export function isPartnerApiError(error: unknown): error is PartnerApiError {
  return typeof error === 'object' && error !== null && (error as { partnerApiError?: unknown }).partnerApiError === true;
}
