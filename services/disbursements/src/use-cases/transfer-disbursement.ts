import { randomUUID } from 'node:crypto';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Logger } from '@pwa/logging';
import type { Deadline } from '../domain/deadline';
import { failedSettlement, timedOutSettlement, type Disbursement } from '../domain/disbursement';
import { externalIdTakenBy, refusalOf } from '../domain/disbursement-refusal';
import { newReferenceId } from '../domain/reference-id';
import { parseConfirmRequestBody as parseTransferRequestBody, type ConfirmRequestBody as TransferRequestBody } from '@pwa/contracts';
import { findHolderOfExternalId, insertProcessing, type NewDisbursement } from '../store/disbursement-store';
import type { ConsumedQuote, QuotesClient } from '../upstream/quotes-client';
import { isUpstreamFailure, neverReachedUpstream } from '@pwa/http';
import type { WalletClient, WalletPostingAnswer } from '../upstream/wallet-client';
import { recordSettlement, settleByCancelling } from './record-settlement';

export interface TransferDependencies {
  pool: Pool;
  quotes: QuotesClient;
  wallet: WalletClient;
  logger: Logger;
}

export interface TransferInput {
  partnerId: string;
  body: unknown;
  /** Fixed at the request's arrival: DISBURSEMENT_BUDGET_MS later. */
  deadline: Deadline;
  requestId?: string;
}

/** Rounds of "insert, else read the holder" before giving up; a holder can only vanish by settling as failed or timed out. */
const reservationAttemptsMax = 3;

/**
 * The transfer call, as a story: validate the body; use the quote (it stays used whatever
 * happens next); take the externalId (the database's partial unique index decides); post through
 * the wallet with the disbursement's id as the transfer id before the deadline; settle the
 * disbursement with its event. Answers the completed disbursement or throws the partner's PkcError.
 */
export async function transferDisbursement(dependencies: TransferDependencies, input: TransferInput): Promise<Disbursement> {
  const request = parseTransferRequestBody(input.body);
  const quote = await consumeQuote(dependencies, request, input);
  if (input.deadline.hasPassed()) throw new PkcError('PKC_7004');
  const disbursement = await reserveExternalId(dependencies.pool, newDisbursement(quote, request, input.partnerId));
  const settled = await postWithinBudget(dependencies, disbursement, input).catch((error: unknown) => stillProcessing(dependencies, disbursement, error));
  return answerOf(settled);
}

/**
 * Once the externalId is reserved, money may move at any step, so no failure after it (the
 * database lost while recording the wallet's answer, say) may be answered as if nothing happened:
 * the disbursement stays processing, the answer names it (PKC_7002, status pending), and the
 * settlement sweep settles it from the wallet's word.
 */
function stillProcessing(dependencies: TransferDependencies, disbursement: Disbursement, error: unknown): Disbursement {
  dependencies.logger.error({ err: error, referenceId: disbursement.referenceId }, 'transfer outcome not recorded; the disbursement stays processing for the sweep');
  return disbursement;
}

async function consumeQuote(dependencies: TransferDependencies, request: TransferRequestBody, input: TransferInput): Promise<ConsumedQuote> {
  try {
    return await dependencies.quotes.consume({ quoteId: request.quoteId, partnerId: input.partnerId, deadline: input.deadline, requestId: input.requestId });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    dependencies.logger.warn({ err: error }, 'quote consumption got no answer');
    // Nothing was created or posted either way; only the reason differs.
    throw new PkcError(input.deadline.hasPassed() ? 'PKC_7004' : 'PKC_7003', undefined, { cause: error });
  }
}

function newDisbursement(quote: ConsumedQuote, request: TransferRequestBody, partnerId: string): NewDisbursement {
  return {
    disbursementId: randomUUID(),
    referenceId: newReferenceId(),
    partnerId,
    externalId: request.externalId,
    quoteId: quote.quoteId,
    phone: quote.phone,
    recipientName: quote.recipientName,
    currency: quote.currency,
    amountMinor: quote.amountMinor,
    feeMinor: quote.feeMinor,
    note: request.note,
  };
}

async function reserveExternalId(pool: Pool, disbursement: NewDisbursement): Promise<Disbursement> {
  for (let attempt = 1; attempt <= reservationAttemptsMax; attempt += 1) {
    const inserted = await insertProcessing(pool, disbursement);
    if (inserted) return inserted;
    const holder = await findHolderOfExternalId(pool, disbursement.partnerId, disbursement.externalId);
    if (holder) throw externalIdTakenBy(holder);
  }
  throw new PkcError('PKC_7002', 'externalId could not be reserved; retry');
}

async function postWithinBudget(dependencies: TransferDependencies, disbursement: Disbursement, input: TransferInput): Promise<Disbursement> {
  let answer: WalletPostingAnswer;
  try {
    answer = await dependencies.wallet.postTransfer({
      transferId: disbursement.disbursementId,
      partnerId: disbursement.partnerId,
      phone: disbursement.phone,
      currency: disbursement.currency,
      amountMinor: disbursement.amountMinor,
      feeMinor: disbursement.feeMinor,
      reference: disbursement.note ?? `Disbursement ${disbursement.referenceId}`, referenceId: disbursement.referenceId, externalId: disbursement.externalId,
      deadline: input.deadline,
      requestId: input.requestId,
    });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    dependencies.logger.warn({ err: error, referenceId: disbursement.referenceId }, 'wallet posting got no answer');
    // An open breaker or a refused connection: the wallet never saw the request, so nothing posted.
    // The cancellation is only belt and braces (an unreachable wallet will not take it either).
    if (neverReachedUpstream(error)) {
      const cancellation = await dependencies.wallet.cancelTransfer(disbursement.disbursementId, input.requestId).catch(() => undefined);
      if (cancellation?.state === 'posted') {
        return recordSettlement(dependencies.pool, disbursement, { status: 'completed', transactionId: cancellation.transactionId, completedAt: cancellation.postedAt });
      }
      return recordSettlement(dependencies.pool, disbursement, failedSettlement('PKC_7003'));
    }
    const ifCancelled = error.reason === 'deadline_exceeded' || input.deadline.hasPassed() ? timedOutSettlement() : failedSettlement('PKC_7003');
    return settleByCancelling(dependencies, disbursement, ifCancelled, input.requestId);
  }
  switch (answer.state) {
    case 'posted':
      return recordSettlement(dependencies.pool, disbursement, { status: 'completed', transactionId: answer.transactionId, completedAt: answer.postedAt });
    case 'refused':
      return recordSettlement(dependencies.pool, disbursement, failedSettlement(answer.code));
    case 'cancelled':
      // Only a cancellation of ours (the sweep's) can have reached the id first.
      return recordSettlement(dependencies.pool, disbursement, timedOutSettlement());
  }
}

/** A completed disbursement is the answer; any other outcome left a record, and the refusal names it. */
function answerOf(disbursement: Disbursement): Disbursement {
  const refusal = refusalOf(disbursement);
  if (refusal) throw refusal;
  return disbursement;
}
