import {
  decodePageCursor,
  isUuid,
  pageOfRows,
  partnerEventListQuerySchema,
  partnerEventRetentionDays,
  parsePublicInput,
  type Page,
  type PageCursorScope,
  type PublicPartnerEvent,
} from '@pwa/contracts';
import { PkcError, invalidCursorError } from '@pwa/errors';
import { z } from '@pwa/config';
import { findLoggedEvent, listLoggedEvents, pruneSettledDeliveries, type LoggedEvent } from '../store/event-log-store';
import type { WebhooksDependencies } from './dependencies';

const dayMs = 24 * 60 * 60 * 1000;

const positionSchema = z.strictObject({ createdAt: z.iso.datetime(), deliveryId: z.uuid() });

/** The oldest time still listed: the retention of decision 0051. */
export function retentionStart(now: Date): Date {
  return new Date(now.getTime() - partnerEventRetentionDays * dayMs);
}


/** An event as the partner sees it: the body exactly as the webhook carries it, parsed. */
function eventView(event: LoggedEvent): PublicPartnerEvent {
  return {
    eventId: event.eventId,
    type: event.eventType as PublicPartnerEvent['type'],
    createdAt: event.createdAt.toISOString(),
    deliveryStatus: event.deliveryStatus,
    payload: JSON.parse(event.body) as PublicPartnerEvent['payload'],
  };
}

/**
 * GET /partner/v1/events: the partner's events of the retention period, oldest first (the order
 * a client catching up reads in), filtered by type and since, keyset-paginated.
 */
export async function listPartnerEvents(dependencies: WebhooksDependencies, partnerId: string, query: unknown, now = new Date()): Promise<Page<PublicPartnerEvent>> {
  const request = parsePublicInput(partnerEventListQuerySchema, query, 'query');
  const since = request.since === undefined ? undefined : new Date(request.since);
  const scope: PageCursorScope = { partnerId, list: 'events', filters: { type: request.type, since: since?.toISOString() } };
  const after = request.cursor === undefined ? undefined : decodePageCursor(scope, request.cursor, positionSchema);
  if (request.cursor !== undefined && after === undefined) throw invalidCursorError();
  const events = await listLoggedEvents(dependencies.pool, {
    partnerId,
    notBefore: retentionStart(now),
    eventType: request.type,
    since,
    after: after && { createdAt: new Date(after.createdAt), deliveryId: after.deliveryId },
    limit: request.limit + 1,
  });
  return pageOfRows(events, request.limit, scope, (event) => ({ createdAt: event.createdAt.toISOString(), deliveryId: event.deliveryId }), eventView);
}

/** GET /partner/v1/events/:eventId: one of the partner's events; anything else is 404 PKC_6002. */
export async function getPartnerEvent(dependencies: WebhooksDependencies, partnerId: string, eventId: string, now = new Date()): Promise<PublicPartnerEvent> {
  const event = isUuid(eventId) ? await findLoggedEvent(dependencies.pool, partnerId, eventId.toLowerCase(), retentionStart(now)) : undefined;
  if (!event) throw new PkcError('PKC_6002', 'No event with this eventId');
  return eventView(event);
}

/** Deletions per statement of a pruning run; a run repeats them while they come back full. */
export const pruneBatchMax = 1_000;
/** Bound of one run: at most this many batches, the rest waits for the next run. */
const pruneBatchesPerRunMax = 100;

/**
 * Deletes the settled deliveries (and their attempts) older than the retention, in bounded
 * batches; pending and delivering ones stay until they settle. Returns how many went.
 */
export async function pruneExpiredEvents(dependencies: WebhooksDependencies, now = new Date()): Promise<number> {
  let pruned = 0;
  for (let batch = 0; batch < pruneBatchesPerRunMax; batch += 1) {
    const count = await pruneSettledDeliveries(dependencies.pool, retentionStart(now), pruneBatchMax);
    pruned += count;
    if (count < pruneBatchMax) break;
  }
  if (pruned > 0) dependencies.logger.info({ pruned }, 'pruned deliveries older than the event retention');
  return pruned;
}
