// Data only (no zod): the dashboard's pages import it as it is, for their event filter.

/**
 * The events that become webhooks: the spec's four plus collection.failed and disbursement.failed,
 * (issue 19) collection.cancelled, refund.completed and refund.failed, (issue 20) bulk.completed,
 * (issue 27, decision 0063) disbursement.reversed, and (issue 28) webhook.test, which the partner
 * asks for (POST /webhooks/test) to check their receiver; it moves no money and names no transaction.
 */
export const webhookEventTypes = [
  'collection.completed',
  'collection.declined',
  'collection.expired',
  'collection.failed',
  'collection.cancelled',
  'disbursement.completed',
  'disbursement.failed',
  'disbursement.reversed',
  'refund.completed',
  'refund.failed',
  'bulk.completed',
  'webhook.test',
] as const;
