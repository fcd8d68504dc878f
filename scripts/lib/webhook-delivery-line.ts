/*
 * What the local webhook receiver (scripts/webhook-receiver.ts) prints of a delivery's payload,
 * kept apart from the server so a test can read it without starting one. Pure: text in, text out.
 */

/** A payload field as log text: strings as they are, anything else as JSON (a body may be anything). */
function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : String(JSON.stringify(value));
}

/**
 * The id the event names, as `name=value`: bulk.completed names its bulk by bulkId and has no
 * referenceId; every other kind (a collection's, disbursement's or refund's events, webhook.test)
 * has a referenceId. A kind newer than this receiver shows whichever of the two it carries.
 */
function idOf(payload: Readonly<Record<string, unknown>>): string {
  if (payload.referenceId === undefined && payload.bulkId !== undefined) return `bulkId=${fieldText(payload.bulkId)}`;
  return `referenceId=${fieldText(payload.referenceId)}`;
}

/** What follows the id: the status, and for a refund the refunded collection (webhook.test has no status). */
function detailsOf(payload: Readonly<Record<string, unknown>>): string {
  const status = payload.status === undefined ? '' : ` status=${fieldText(payload.status)}`;
  const collection = payload.collectionReferenceId === undefined ? '' : ` collectionReferenceId=${fieldText(payload.collectionReferenceId)}`;
  return `${status}${collection}`;
}

/** `event=<kind> <id>[ status=…][ collectionReferenceId=…]`: the payload's part of a delivery's log line. */
export function deliveryPayloadText(payload: Readonly<Record<string, unknown>>): string {
  return `event=${String(payload.event)} ${idOf(payload)}${detailsOf(payload)}`;
}
