/**
 * A transaction's story as a person reads it (issue 28, people.md "a detail page that tells the
 * whole story"): when its status changed, from the owner's record where it keeps the time
 * (createdAt, completedAt, the reversal's reversedAt, a refund's times) and otherwise from the event
 * the partner's webhook was sent about it (a declined, expired, failed or cancelled collection keeps
 * no time of its own). Pure: the record, its webhook deliveries and its refunds in, the steps out.
 */

/** The fields of an owner's record the story reads (the API's CollectionStatus, DisbursementStatus or Refund). */
export interface StoryRecord {
  referenceId?: unknown;
  status?: unknown;
  createdAt?: unknown;
  completedAt?: unknown;
  transactionId?: unknown;
  reversal?: unknown;
}

/** A webhook delivery of the transaction, as the API's deliveries list gives it. */
export interface StoryDelivery {
  event: string;
  createdAt: string;
}

/** A refund of a collection, as the API's refunds list gives it. */
export interface StoryRefund {
  referenceId: string;
  status: string;
  amount?: number;
  currency?: string;
  createdAt: string;
  completedAt?: string;
}

export interface StatusChange {
  /** What the transaction became: pending_approval, pending, processing, completed, failed, reversed, refund_requested, refunded, … */
  status: string;
  /** When, UTC; null when neither the record nor an event says. */
  at: string | null;
  /** Where the time comes from: the owner's record, or the event sent to the partner's webhook (named). */
  source: 'record' | `event ${string}`;
  /** For a refund's steps: the refund's referenceId. */
  referenceId?: string;
}

/** The status a record starts in: a collection waits for the user, a disbursement and a refund are processed. */
const firstStatus: Record<'PKC-' | 'PKD-' | 'PKR-', string> = { 'PKC-': 'pending_approval', 'PKD-': 'pending', 'PKR-': 'processing' };

/** Statuses that end a record without a time of their own in it: the event the partner was sent tells when. */
const endedWithoutTime: ReadonlySet<string> = new Set(['declined', 'expired', 'failed', 'cancelled']);

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function eventAt(deliveries: readonly StoryDelivery[], event: string): { at: string | null; source: StatusChange['source'] } {
  const sent = deliveries.filter((delivery) => delivery.event === event).sort((left, right) => left.createdAt.localeCompare(right.createdAt))[0];
  return sent === undefined ? { at: null, source: 'record' } : { at: sent.createdAt, source: `event ${event}` };
}

/** The status changes of one collection (PKC-), disbursement (PKD-) or refund (PKR-) in the order they happened; a collection's refunds after it. */
export function statusChangesOf(record: StoryRecord, deliveries: readonly StoryDelivery[], refunds: readonly StoryRefund[]): StatusChange[] {
  const referenceId = text(record.referenceId) ?? '';
  const prefix = (['PKC-', 'PKD-', 'PKR-'] as const).find((candidate) => referenceId.toUpperCase().startsWith(candidate));
  if (prefix === undefined) return [];
  const kind = { 'PKC-': 'collection', 'PKD-': 'disbursement', 'PKR-': 'refund' }[prefix];
  const status = text(record.status) ?? 'unknown';
  const steps: StatusChange[] = [{ status: firstStatus[prefix], at: text(record.createdAt) ?? null, source: 'record' }];
  const settlement = record.transactionId as { completedAt?: unknown } | string | null | undefined;
  const completedAt = text(record.completedAt) ?? (typeof settlement === 'object' && settlement !== null ? text(settlement.completedAt) : undefined);
  if (status === 'completed') steps.push(completedAt === undefined ? { status, ...eventAt(deliveries, `${kind}.completed`) } : { status, at: completedAt, source: 'record' });
  else if (endedWithoutTime.has(status)) steps.push({ status, ...eventAt(deliveries, `${kind}.${status}`) });
  const reversal = record.reversal as { reversedAt?: unknown } | undefined;
  if (reversal !== undefined && reversal !== null) {
    const reversedAt = text(reversal.reversedAt);
    steps.push(reversedAt === undefined ? { status: 'reversed', ...eventAt(deliveries, 'disbursement.reversed') } : { status: 'reversed', at: reversedAt, source: 'record' });
  }
  // A collection's refunds come after its completion, oldest first (the list gives them newest first).
  for (const refund of [...refunds].sort((left, right) => left.createdAt.localeCompare(right.createdAt))) {
    steps.push({ status: 'refund_requested', at: refund.createdAt, source: 'record', referenceId: refund.referenceId });
    if (refund.status === 'completed') steps.push({ status: 'refunded', at: refund.completedAt ?? null, source: 'record', referenceId: refund.referenceId });
    else if (refund.status === 'failed') steps.push({ status: 'refund_failed', at: null, source: 'record', referenceId: refund.referenceId });
  }
  return steps;
}
