import { errorCatalogue, isPkcCode } from '@pwa/errors';

/** Why a disbursement failed, as the partner is told it: a catalogue code and a message written for partners. */
export interface FailureReason {
  code: string;
  message: string;
}

/**
 * Failures whose catalogue message would not say what became of this attempt. Every other code is
 * a refusal the partner could also have met at quote time (the wallet's rules), whose catalogue
 * message says it; PKC_7004 has its own catalogue message for exactly this case.
 */
const messageOfFailure: Readonly<Partial<Record<string, string>>> = {
  PKC_7003: 'The wallet system could not be reached; nothing was posted',
};

const messageOfUnknownCode = 'The transfer failed; nothing was posted';

/** The partner message stored with a failure of this code; never an upstream's own wording. */
export function failureMessageFor(code: string): string {
  return messageOfFailure[code] ?? (isPkcCode(code) ? errorCatalogue[code].message : messageOfUnknownCode);
}

/**
 * The reason of a failed or timed-out disbursement, undefined for the others. Rows settled before
 * messages were stored have a code only: their message is the one a failure of that code gets now.
 */
export function failureReasonOf(disbursement: { failureCode: string | null; failureMessage: string | null }): FailureReason | undefined {
  if (disbursement.failureCode === null) return undefined;
  return { code: disbursement.failureCode, message: disbursement.failureMessage ?? failureMessageFor(disbursement.failureCode) };
}
