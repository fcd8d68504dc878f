import { PkcError, isPkcCode } from '@pwa/errors';
import type { Disbursement } from './disbursement';
import { apiStatusOf } from './disbursement-state';
import { failureReasonOf } from './failure-reason';

/**
 * The transfer call's answer for a disbursement that did not complete, or undefined when it did.
 * Every such answer left a record, so its body names it: `referenceId` and `status` (as the status
 * call shows it) are fields beside `success`, `code` and `message`, and the message says it too.
 * A failed attempt answers the code it failed with (a wallet refusal, PKC_7003, PKC_7004 after the
 * budget); one whose outcome is not known yet answers PKC_7002 and stays pending.
 */
export function refusalOf(disbursement: Disbursement): PkcError | undefined {
  const fields = { referenceId: disbursement.referenceId, status: apiStatusOf(disbursement.status) };
  switch (disbursement.status) {
    case 'completed':
      return undefined;
    case 'failed':
    case 'timed_out': {
      const reason = failureReasonOf(disbursement);
      const code = reason !== undefined && isPkcCode(reason.code) ? reason.code : 'PKC_7002';
      const because = reason?.message ?? 'The transfer failed';
      return new PkcError(code, `${withoutFinalStop(because)}. Disbursement ${disbursement.referenceId} is recorded as failed; no money moved`, { fields });
    }
    case 'processing':
      return new PkcError(
        'PKC_7002',
        `The outcome of disbursement ${disbursement.referenceId} is not known yet; query it with GET /partner/v1/disbursement/${disbursement.referenceId}. Its externalId stays reserved until it settles`,
        { fields },
      );
  }
}

/** The 409 for an externalId held by a pending or completed disbursement: it names the holder, in the message and as fields. */
export function externalIdTakenBy(holder: Pick<Disbursement, 'referenceId' | 'status'>): PkcError {
  const status = apiStatusOf(holder.status);
  return new PkcError('PKC_6001', `externalId already used by disbursement ${holder.referenceId} (status ${status})`, {
    fields: { referenceId: holder.referenceId, status },
  });
}

function withoutFinalStop(message: string): string {
  return message.endsWith('.') ? message.slice(0, -1) : message;
}
