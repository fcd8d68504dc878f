import { randomUUID } from 'node:crypto';
import type { Bus } from '@pwa/bus';
import { parsePartnerEvent, partnerEventTypes } from '@pwa/contracts';
import type { Logger } from '@pwa/logging';
import type { PartnerCache } from '../partners/partner-cache';

/**
 * Keeps the partner cache honest: every partner.* event drops that partner's entry, so the next
 * request reads its new status from auth. Each gateway process needs every event, hence a queue of
 * its own that disappears with the process. After a reconnect, events sent while the queue did
 * not exist are lost, so the whole cache is dropped.
 */
export async function invalidateOnPartnerEvents(bus: Bus, exchange: string, cache: PartnerCache, logger: Logger): Promise<void> {
  bus.onReconnect(() => {
    cache.clear();
    logger.info('bus reconnected; partner cache cleared');
  });
  await bus.subscribe({
    queue: `${exchange}.gateway.${randomUUID()}`,
    routingKeys: [...partnerEventTypes],
    kind: 'ephemeral',
    handler: (envelope) => {
      const event = parsePartnerEvent(envelope);
      cache.invalidate(event.data.partnerId.toLowerCase());
      logger.debug({ partnerId: event.data.partnerId, type: event.type }, 'partner cache entry invalidated');
      return Promise.resolve();
    },
  });
}
