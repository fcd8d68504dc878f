import { serviceQueueName, type Bus } from '@pwa/bus';
import { parseWalletDisbursementReversedEvent, walletEventTypes } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { recordDisbursementReversal } from '../use-cases/record-reversal';

/**
 * The wallet's events this service consumes: wallet.disbursement_reversed (decision 0063), from
 * one durable queue every replica shares. A message is acked after its transaction commits; one
 * that does not parse is dead-lettered by the bus.
 */
export async function subscribeToWalletEvents(bus: Bus, exchange: string, dependencies: { pool: Pool; logger: Logger }): Promise<void> {
  await bus.subscribe({
    queue: serviceQueueName(exchange, 'disbursements.wallet-events'),
    routingKeys: [...walletEventTypes],
    kind: 'durable',
    handler: async (envelope) => {
      await recordDisbursementReversal(dependencies, parseWalletDisbursementReversedEvent(envelope));
    },
  });
}
