import type { CollectionEventData, DisbursementEventData } from '@pwa/contracts';

/** The spec's webhook body, field for field and in the spec's order; nothing else of the event leaks out. */
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
}

export function webhookPayloadOf(data: CollectionEventData | DisbursementEventData): WebhookPayload {
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
  };
}

/** The body is serialised once, when the event is recorded, and every attempt sends these bytes. */
export function webhookBodyOf(data: CollectionEventData | DisbursementEventData): string {
  return JSON.stringify(webhookPayloadOf(data));
}
