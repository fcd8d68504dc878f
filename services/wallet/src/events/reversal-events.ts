import { randomUUID } from 'node:crypto';
import {
  createEventEnvelope,
  disbursementReferenceIdPattern,
  walletDisbursementReversedDataSchema,
  type EventEnvelope,
  type WalletDisbursementReversedData,
} from '@pwa/contracts';
import { toApiAmount, type Currency } from '@pwa/money';

export interface ReversedDisbursement {
  partnerId: string;
  referenceId: string | null;
  disbursementTransactionId: string;
  reversalTransactionId: string;
  currency: Currency;
  amountMinor: bigint;
  reversedAt: Date;
}

/**
 * The event of an operator's reversal (decision 0063), written to the wallet's outbox in the
 * reversal's transaction. The contract is `@pwa/contracts` (wallet-events); this only maps the
 * posting onto it and refuses to build an event that would not parse. A disbursement posted
 * without a PKD-… referenceId was not made by the disbursements service (which names every one),
 * so no partner can be told of it by that name: undefined, and no event.
 */
export function disbursementReversedEvent(reversed: ReversedDisbursement): EventEnvelope<WalletDisbursementReversedData> | undefined {
  if (reversed.referenceId === null || !disbursementReferenceIdPattern.test(reversed.referenceId)) return undefined;
  const eventId = randomUUID();
  const data = walletDisbursementReversedDataSchema.parse({
    eventId,
    event: 'wallet.disbursement_reversed',
    partnerId: reversed.partnerId,
    referenceId: reversed.referenceId,
    disbursementTransactionId: reversed.disbursementTransactionId,
    reversalTransactionId: reversed.reversalTransactionId,
    amount: toApiAmount(reversed.amountMinor),
    currency: reversed.currency,
    reversedAt: reversed.reversedAt.toISOString(),
  });
  return createEventEnvelope({ type: data.event, data, producer: 'wallet', eventId, occurredAt: reversed.reversedAt });
}
