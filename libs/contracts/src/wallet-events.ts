import { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { disbursementReferenceIdPattern } from './disbursement-events';
import { apiAmountField, eventCurrencies, transactionIdField, defineEventFamily } from './event-fields';

/**
 * Published by the wallet (routing key = type, producer "wallet"), from its outbox, in the
 * transaction that posts what it reports (decision 0063):
 * - wallet.disbursement_reversed: the operator reversed a posted disbursement (decision 0053):
 *   the user's wallet gave the amount back to the partner's account, in a posting of its own.
 * An internal event: the disbursements service consumes it and tells the partner
 * (disbursement.reversed). It names no operator and carries no reason: the audit record
 * (wallet.operator_reversals) keeps those.
 */
export const walletEventTypes = ['wallet.disbursement_reversed'] as const;
export type WalletEventType = (typeof walletEventTypes)[number];

/**
 * Version 1 of the `data` of wallet.disbursement_reversed: the reversed disbursement by its public
 * referenceId (PKD-…) and ledger transaction (TXN-…), the partner it belongs to, the reversal's
 * own transaction, the amount and currency given back (always the whole amount; the fee stays
 * earned) and when it was posted.
 */
export const walletDisbursementReversedDataSchema = z.object({
  eventId: z.uuid(),
  event: z.literal('wallet.disbursement_reversed'),
  partnerId: z.uuid(),
  referenceId: z.string().regex(disbursementReferenceIdPattern),
  disbursementTransactionId: transactionIdField,
  reversalTransactionId: transactionIdField,
  amount: apiAmountField,
  currency: z.enum(eventCurrencies),
  reversedAt: z.iso.datetime(),
});
export type WalletDisbursementReversedData = z.infer<typeof walletDisbursementReversedDataSchema>;

export type WalletDisbursementReversedEvent = EventEnvelope<WalletDisbursementReversedData> & { type: 'wallet.disbursement_reversed' };

const walletEvents = defineEventFamily({ family: 'wallet', types: walletEventTypes, versions: [1], dataSchema: walletDisbursementReversedDataSchema, invalidDataMessage: 'Invalid wallet.disbursement_reversed data' });
export const isWalletEventType = walletEvents.isType;
/** Parses the `data` of the wallet event (version 1), or throws ContractViolationError. */
export const parseWalletDisbursementReversedData = walletEvents.parseData;
/** Narrows an envelope to wallet.disbursement_reversed, or throws ContractViolationError (dead-letter it). */
export const parseWalletDisbursementReversedEvent = walletEvents.parseEvent;
