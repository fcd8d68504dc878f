import { z } from 'zod';
import type { Currency, MinorUnits } from '@pwa/money';
import {
  currencyField,
  instantField,
  minorUnitsField,
  minorUnitsWire,
  transactionIdField,
  uuidField,
  walletMovementTypeField,
  type WalletMovementType,
} from './wire-fields';

/**
 * The wallet's internal HTTP API, owned by the wallet (it parses requests with these schemas) and
 * used by every caller (quotes, collections and its refunds, disbursements), which read answers with them.
 * docs/internal-contracts.md, "Wallet service HTTP API", is checked against them by a test.
 */
export const walletPaths = {
  checks: '/internal/checks',
  transfers: '/internal/transfers',
  cancellation: (transferId: string): string => `/internal/transfers/${encodeURIComponent(transferId)}/cancel`,
} as const;

// ---- POST /internal/checks -------------------------------------------------------------------

const walletCheckRequestFields = z.object({
  /**
   * collection or disbursement (quoted, counted against the user's limits), or refund: a
   * completed collection's money going back, partner -amount and user wallet +amount, with no fee
   * and no limits (decision 0053).
   */
  type: walletMovementTypeField,
  partnerId: uuidField,
  /** Any form the public API accepts; the wallet normalises it (400 PKC_2001 when not Liberian). */
  phone: z.string().min(1).max(32),
  currency: currencyField,
  amountMinor: minorUnitsField.refine((minor) => minor > 0n, 'must be greater than zero'),
  feeMinor: minorUnitsField,
});

/** A refund carries no fee (decision 0053): any other fee is a malformed body (400 PKC_2008), never a posting. */
function refundHasNoFee(body: { type: WalletMovementType; feeMinor: bigint }): boolean {
  return body.type !== 'refund' || body.feeMinor === 0n;
}
const refundFeeIssue = { message: 'a refund carries no fee: must be "0"', path: ['feeMinor'] };

export const walletCheckRequestSchema = walletCheckRequestFields.refine(refundHasNoFee, refundFeeIssue);
export type WalletCheckRequest = z.output<typeof walletCheckRequestSchema>;

export const walletCheckAnswerSchema = z.object({
  recipient: z.object({
    name: z.string().min(1),
    phone: z.string().min(1),
    accountStatus: z.string().min(1),
    kycStatus: z.string().min(1),
    hasWallet: z.boolean(),
  }),
  userBalanceMinor: minorUnitsField,
  partnerBalanceMinor: minorUnitsField,
});
export type WalletCheckAnswer = z.output<typeof walletCheckAnswerSchema>;

export interface WalletMovement {
  type: WalletMovementType;
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: MinorUnits;
  feeMinor: MinorUnits;
}

/** The body of POST /internal/checks. */
export function walletCheckBody(movement: WalletMovement): z.input<typeof walletCheckRequestSchema> {
  return {
    type: movement.type,
    partnerId: movement.partnerId,
    phone: movement.phone,
    currency: movement.currency,
    amountMinor: minorUnitsWire(movement.amountMinor),
    feeMinor: minorUnitsWire(movement.feeMinor),
  };
}

// ---- POST /internal/transfers ----------------------------------------------------------------

export const walletTransferRequestSchema = walletCheckRequestFields.extend({
  /** The caller's idempotency id: posting it again answers the first result and moves nothing. */
  transferId: uuidField,
  reference: z.string().max(200).nullish(),
  /**
   * The public referenceId (PKC-…, PKD-…, or the refund's PKR-…) and the partner's externalId of
   * the collection, disbursement or refund, kept on the ledger's transfer so the partner's
   * statement (GET /partner/v1/statement) names them from the ledger itself. Optional: a caller
   * that does not send them still posts (the statement then shows the transactionId and no externalId).
   */
  referenceId: z.string().min(1).max(100).nullish(),
  externalId: z.string().min(1).max(400).nullish(),
}).refine(refundHasNoFee, refundFeeIssue);
export type WalletTransferRequest = z.output<typeof walletTransferRequestSchema>;

/** 200: posted (now, or by an earlier call with the same transferId). A cancelled id answers 409 PKC_7004. */
export const walletTransferAnswerSchema = z.object({
  transferId: uuidField,
  transactionId: transactionIdField,
  postedAt: instantField,
  status: z.literal('posted'),
});
export type WalletTransferAnswer = z.output<typeof walletTransferAnswerSchema>;

export function walletTransferBody(
  movement: WalletMovement & { transferId: string; reference: string | null; referenceId?: string; externalId?: string },
): z.input<typeof walletTransferRequestSchema> {
  return {
    ...walletCheckBody(movement),
    transferId: movement.transferId,
    reference: movement.reference,
    ...(movement.referenceId === undefined ? {} : { referenceId: movement.referenceId }),
    ...(movement.externalId === undefined ? {} : { externalId: movement.externalId }),
  };
}

// ---- POST /internal/transfers/:transferId/cancel ---------------------------------------------

export const walletCancellationAnswerSchema = z.discriminatedUnion('state', [
  z.object({ transferId: uuidField, state: z.literal('cancelled') }),
  z.object({ transferId: uuidField, state: z.literal('posted'), transactionId: transactionIdField, postedAt: instantField }),
]);
export type WalletCancellationAnswer = z.output<typeof walletCancellationAnswerSchema>;

/** The code of 409 on POST /internal/transfers: the id was cancelled and never posts. */
export const walletCancelledTransferCode = 'PKC_7004';

/**
 * Documented examples (docs/internal-contracts.md); the wallet's contract test posts them through
 * its real routes, and every answer it gets must parse with the answer schemas above.
 */
export const walletContractExamples = {
  checkRequest: {
    type: 'disbursement',
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    phone: '+231770000001',
    currency: 'USD',
    amountMinor: '1050',
    feeMinor: '35',
  },
  checkAnswer: {
    recipient: { name: 'Comfort Gold', phone: '+231770000001', accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
    userBalanceMinor: '50000',
    partnerBalanceMinor: '1000000',
  },
  transferAnswer: {
    transferId: '0b7e6a52-8c1d-4e8f-9a3b-2c4d5e6f7a8b',
    transactionId: 'TXN-92E90C2608552F71',
    postedAt: '2026-11-25T17:12:36.774Z',
    status: 'posted',
  },
  cancellationAnswers: [
    { transferId: '0b7e6a52-8c1d-4e8f-9a3b-2c4d5e6f7a8b', state: 'cancelled' },
    { transferId: '0b7e6a52-8c1d-4e8f-9a3b-2c4d5e6f7a8b', state: 'posted', transactionId: 'TXN-92E90C2608552F71', postedAt: '2026-11-25T17:12:36.774Z' },
  ],
} as const;
