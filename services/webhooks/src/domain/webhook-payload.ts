import type { CollectionEventData, DisbursementEventData, FailureReason } from '@pwa/contracts';
import { errorCatalogue, isPkcCode } from '@pwa/errors';

/**
 * The spec's webhook body, field for field and in the spec's order, plus one addition at the end:
 * `failureReason` (code and partner message) on failed events. Nothing else of the event leaks out.
 */
export interface WebhookPayload {
  event: string;
  referenceId: string;
  externalId: string;
  amount: number;
  currency: string;
  fee: number;
  status: string;
  transactionId?: string;
  timestamp: string;
  failureReason?: FailureReason;
}

export function webhookPayloadOf(data: CollectionEventData | DisbursementEventData): WebhookPayload {
  const failureReason = failureReasonOf(data);
  return {
    event: data.event,
    referenceId: data.referenceId,
    externalId: data.externalId,
    amount: data.amount,
    currency: data.currency,
    fee: data.fee,
    status: data.status,
    ...(data.transactionId === undefined ? {} : { transactionId: data.transactionId }),
    timestamp: data.timestamp,
    ...(failureReason === undefined ? {} : { failureReason }),
  };
}

/**
 * A failed event's reason: as the producer gave it, or, for events recorded before producers gave
 * one (failureCode alone), that code with its catalogue message. Only failed events have one.
 */
function failureReasonOf(data: CollectionEventData | DisbursementEventData): FailureReason | undefined {
  if (data.status !== 'failed') return undefined;
  if (data.failureReason !== undefined) return data.failureReason;
  const code = data.failureCode;
  if (code === undefined) return undefined;
  return isPkcCode(code) ? { code, message: errorCatalogue[code].message } : { code: 'PKC_7002', message: errorCatalogue.PKC_7002.message };
}

/** The body is serialised once, when the event is recorded, and every attempt sends these bytes. */
export function webhookBodyOf(data: CollectionEventData | DisbursementEventData): string {
  return JSON.stringify(webhookPayloadOf(data));
}
