import { errorCatalogue, isPkcCode, type PkcCode } from '@pwa/errors';

/** Why a collection failed, as the partner is told it: a catalogue code and a message written for partners. */
export interface FailureReason {
  code: PkcCode;
  message: string;
}

/**
 * Failures whose catalogue message would not say what became of the collection. The others are the
 * wallet's refusals at the approval's posting (the user's balance or limits no longer allowed it),
 * whose catalogue message says it.
 */
const messageOfFailure: Readonly<Partial<Record<PkcCode, string>>> = {
  PKC_7002: 'The payment could not be processed; nothing was posted',
  PKC_7003: 'The wallet system did not complete the payment; nothing was posted',
};

/** A refusal code outside the catalogue is an internal error to the partner, never passed on as it is. */
export function failureCodeOf(code: string): PkcCode {
  return isPkcCode(code) ? code : 'PKC_7002';
}

/** The partner message stored with a failure of this code; never an upstream's own wording. */
export function failureMessageFor(code: PkcCode): string {
  return messageOfFailure[code] ?? errorCatalogue[code].message;
}

/**
 * The reason of a failed collection, undefined for the others. Rows that failed before messages
 * were stored have a code only: their message is the one a failure of that code gets now.
 */
export function failureReasonOf(collection: { status: string; failureCode: string | null; failureMessage: string | null }): FailureReason | undefined {
  if (collection.status !== 'failed' || collection.failureCode === null) return undefined;
  const code = failureCodeOf(collection.failureCode);
  return { code, message: collection.failureMessage ?? failureMessageFor(code) };
}
