import { randomUUID } from 'node:crypto';
import { bulkEventDataSchema, createEventEnvelope, type BulkEventData, type BulkStatus, type EventEnvelope } from '@pwa/contracts';
import { toApiAmount } from '@pwa/money';
import type { Bulk, BulkProgress } from '../domain/bulk';

/**
 * The bulk.completed event of a bulk whose last item became final. The contract is
 * `@pwa/contracts` (bulk-events); this maps the bulk and its progress onto it, and refuses to
 * build an event that would not parse.
 */
export function bulkCompletedEvent(bulk: Bulk, progress: BulkProgress, status: Exclude<BulkStatus, 'processing'>, occurredAt: Date): EventEnvelope<BulkEventData> {
  const eventId = randomUUID();
  const data = bulkEventDataSchema.parse({
    eventId,
    partnerId: bulk.partnerId,
    event: 'bulk.completed',
    bulkId: bulk.bulkId,
    externalId: bulk.externalId,
    status,
    currency: bulk.currency,
    itemCount: bulk.itemCount,
    completedCount: progress.completed,
    failedCount: progress.failed,
    totalAmount: toApiAmount(progress.totalAmountMinor),
    totalFee: toApiAmount(progress.totalFeeMinor),
    completedAmount: toApiAmount(progress.completedAmountMinor),
    completedFee: toApiAmount(progress.completedFeeMinor),
    timestamp: occurredAt.toISOString(),
  });
  return createEventEnvelope({ type: 'bulk.completed', data, producer: 'disbursements', eventId, occurredAt });
}
