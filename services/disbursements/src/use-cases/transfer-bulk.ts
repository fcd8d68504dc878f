import { randomUUID } from 'node:crypto';
import type { ConsumedBulkQuoteAnswer, PartnerActor } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { isUpstreamFailure } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { parseBulkTransferRequest, type Bulk, type BulkProgress, type BulkTransferRequest } from '../domain/bulk';
import { failedSettlement } from '../domain/disbursement';
import { newBulkId, newReferenceId } from '../domain/reference-id';
import { disbursementEvent } from '../events/disbursement-events';
import { acceptBulk, findBulkByExternalId, readBulkProgress, type NewBulkItem } from '../store/bulk-store';
import type { QuotesClient } from '../upstream/quotes-client';

export interface TransferBulkDependencies {
  pool: Pool;
  quotes: QuotesClient;
  logger: Logger;
  /** Tells the bulk processor there is work (it also finds it on its own at its next tick). */
  wakeProcessor: () => void;
}

export interface AcceptedBulk {
  bulk: Bulk;
  progress: BulkProgress;
  /** True when this call only answered a bulk an earlier call with the same bulkQuoteId and externalId made. */
  replayed: boolean;
}

export interface TransferBulkInput {
  partnerId: string;
  /** Who of the partner confirms the bulk, as the edge named them (recorded as the bulk's requested_by). */
  actor?: PartnerActor | undefined;
  body: unknown;
  requestId?: string;
}

/**
 * The bulk transfer, as a story (decision 0055): check the body; a bulk of the partner already
 * holding the externalId answers itself when it was made from the same bulk quote (a retry after a
 * lost answer) and 409 PKC_6001 otherwise, before anything is used; use the bulk quote (it stays
 * used whatever happens next); record the bulk (with who confirmed it) and every valid item as a
 * processing disbursement in one transaction; wake the processor. Nothing is posted here: the answer is 202.
 */
export async function transferBulk(dependencies: TransferBulkDependencies, input: TransferBulkInput): Promise<AcceptedBulk> {
  const request = parseBulkTransferRequest(input.body);
  const earlier = await findBulkByExternalId(dependencies.pool, input.partnerId, request.externalId);
  if (earlier) return answerOfEarlier(dependencies.pool, earlier, request);
  const quote = await consumeBulkQuote(dependencies, request, input);
  const bulk = {
    bulkId: newBulkId(),
    partnerId: input.partnerId,
    externalId: request.externalId,
    bulkQuoteId: quote.bulkQuoteId,
    currency: quote.currency,
    itemCount: quote.items.length,
    requestedBy: input.actor ?? null,
  };
  const failure = failedSettlement('PKC_6001');
  const accepted = await acceptBulk(dependencies.pool, bulk, quote.items.map(newItem), {
    failureCode: failure.failureCode,
    failureMessage: 'externalId was taken by another disbursement after the bulk was quoted; this payout was not made',
    eventOf: (disbursement) => disbursementEvent(disbursement, disbursement.createdAt),
  });
  if (accepted.kind === 'external_id_taken') {
    const holder = await findBulkByExternalId(dependencies.pool, input.partnerId, request.externalId);
    throw externalIdTakenByBulk(holder?.bulkId);
  }
  dependencies.wakeProcessor();
  return { bulk: accepted.bulk, progress: await readBulkProgress(dependencies.pool, accepted.bulk.bulkId), replayed: false };
}

async function answerOfEarlier(pool: Pool, earlier: Bulk, request: BulkTransferRequest): Promise<AcceptedBulk> {
  if (earlier.bulkQuoteId !== request.bulkQuoteId) throw externalIdTakenByBulk(earlier.bulkId);
  return { bulk: earlier, progress: await readBulkProgress(pool, earlier.bulkId), replayed: true };
}

function externalIdTakenByBulk(bulkId: string | undefined): PkcError {
  return bulkId === undefined
    ? new PkcError('PKC_6001', 'externalId already used by another bulk')
    : new PkcError('PKC_6001', `externalId already used by bulk ${bulkId}`, { fields: { bulkId } });
}

async function consumeBulkQuote(dependencies: TransferBulkDependencies, request: BulkTransferRequest, input: { partnerId: string; requestId?: string }): Promise<ConsumedBulkQuoteAnswer> {
  try {
    return await dependencies.quotes.consumeBulkQuote({ bulkQuoteId: request.bulkQuoteId, partnerId: input.partnerId, requestId: input.requestId });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    dependencies.logger.warn({ err: error }, 'bulk quote consumption got no answer');
    throw new PkcError('PKC_7003', undefined, { cause: error });
  }
}

function newItem(item: ConsumedBulkQuoteAnswer['items'][number]): NewBulkItem {
  return {
    disbursementId: randomUUID(),
    referenceId: newReferenceId(),
    index: item.index,
    externalId: item.externalId,
    phone: item.phone,
    recipientName: item.recipientName,
    amountMinor: item.amountMinor,
    feeMinor: item.feeMinor,
    note: item.note,
  };
}
