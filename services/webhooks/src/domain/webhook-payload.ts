import type { CollectionEventData, DisbursementEventData, FailureReason, RefundEventData } from '@pwa/contracts';

/** The data of every event that becomes a webhook. */
export type DeliveredEventData = CollectionEventData | DisbursementEventData | RefundEventData;
import { errorCatalogue, isPkcCode } from '@pwa/errors';

/**
 * The spec's webhook body, field for field and in the spec's order, plus the additions at the end:
 * `failureReason` (code and partner message) on failed events, and `collectionReferenceId` (the
 * refunded collection) on refund events. Nothing else of the event leaks out.
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
  collectionReferenceId?: string;
}

export function webhookPayloadOf(data: DeliveredEventData): WebhookPayload {
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
    ...('collectionReferenceId' in data ? { collectionReferenceId: data.collectionReferenceId } : {}),
  };
}

/**
 * A failed event's reason: as the producer gave it, or, for events recorded before producers gave
 * one (failureCode alone), that code with its catalogue message. Only failed events have one.
 */
function failureReasonOf(data: DeliveredEventData): FailureReason | undefined {
  if (data.status !== 'failed') return undefined;
  if (data.failureReason !== undefined) return data.failureReason;
  const code = data.failureCode;
  if (code === undefined) return undefined;
  return isPkcCode(code) ? { code, message: errorCatalogue[code].message } : { code: 'PKC_7002', message: errorCatalogue.PKC_7002.message };
}

/** The body is serialised once, when the event is recorded, and every attempt sends these bytes. */
export function webhookBodyOf(data: DeliveredEventData): string {
  return JSON.stringify(webhookPayloadOf(data));
}
