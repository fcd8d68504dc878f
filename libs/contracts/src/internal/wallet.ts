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
  transferBatches: '/internal/transfer-batches',
  transferBatchChecks: '/internal/transfer-batches/checks',
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

// ---- POST /internal/transfer-batches --------------------------------------------------------

/**
 * The most items one batch may carry. Every item of a batch is posted in one database transaction
 * that holds the partner's ledger account (and every recipient's row) until it commits, so the
 * bound caps how long a batch keeps the partner's single postings waiting and how large its
 * statements grow (decision 0054). A bulk of 1,000 payouts is five batches.
 */
export const walletTransferBatchItemsMax = 200;

export const walletTransferBatchItemSchema = z.object({
  /** The item's idempotency id, as for a single transfer: a batch sent again answers each item's first outcome. */
  transferId: uuidField,
  /** Any form the public API accepts; a phone that is not a Liberian mobile number refuses the item alone (PKC_2001). */
  phone: z.string().min(1).max(32),
  amountMinor: minorUnitsField.refine((minor) => minor > 0n, 'must be greater than zero'),
  feeMinor: minorUnitsField,
  reference: z.string().max(200).nullish(),
  referenceId: z.string().min(1).max(100).nullish(),
  externalId: z.string().min(1).max(400).nullish(),
});
export type WalletTransferBatchItem = z.output<typeof walletTransferBatchItemSchema>;

function transferIdsUnique(body: { items: readonly { transferId: string }[] }): boolean {
  return new Set(body.items.map((item) => item.transferId)).size === body.items.length;
}

/**
 * Many postings of one partner, currency and type, each its own balanced posting with its own
 * transaction id, decided one by one in this order (decision 0054). Only disbursements for now:
 * the bulk payout flow is the one caller. A transferId twice in one batch is a malformed body.
 */
export const walletTransferBatchRequestSchema = z
  .object({
    partnerId: uuidField,
    currency: currencyField,
    type: z.literal('disbursement'),
    items: z.array(walletTransferBatchItemSchema).min(1).max(walletTransferBatchItemsMax),
  })
  .refine(transferIdsUnique, { message: 'every transferId of a batch must be different', path: ['items'] });
export type WalletTransferBatchRequest = z.output<typeof walletTransferBatchRequestSchema>;

/** One item's outcome: posted (now, or earlier: replayed), refused with the first failing rule's code, or cancelled earlier. */
export const walletTransferBatchResultSchema = z.discriminatedUnion('outcome', [
  z.object({ transferId: uuidField, outcome: z.literal('posted'), transactionId: transactionIdField, postedAt: instantField, replayed: z.boolean() }),
  z.object({ transferId: uuidField, outcome: z.literal('refused'), code: z.string().regex(/^PKC_\d{4}$/, 'must be a PKC code') }),
  z.object({ transferId: uuidField, outcome: z.literal('cancelled') }),
]);
export type WalletTransferBatchResult = z.output<typeof walletTransferBatchResultSchema>;

/** 200 with one result per item, in the request's order. */
export const walletTransferBatchAnswerSchema = z.object({ results: z.array(walletTransferBatchResultSchema) });
export type WalletTransferBatchAnswer = z.output<typeof walletTransferBatchAnswerSchema>;

export interface WalletTransferBatchItemInput {
  transferId: string;
  phone: string;
  amountMinor: MinorUnits;
  feeMinor: MinorUnits;
  reference?: string | null;
  referenceId?: string;
  externalId?: string;
}

/** The body of POST /internal/transfer-batches. */
export function walletTransferBatchBody(batch: {
  partnerId: string;
  currency: Currency;
  type: 'disbursement';
  items: readonly WalletTransferBatchItemInput[];
}): z.input<typeof walletTransferBatchRequestSchema> {
  return {
    partnerId: batch.partnerId,
    currency: batch.currency,
    type: batch.type,
    items: batch.items.map((item) => ({
      transferId: item.transferId,
      phone: item.phone,
      amountMinor: minorUnitsWire(item.amountMinor),
      feeMinor: minorUnitsWire(item.feeMinor),
      ...(item.reference === undefined ? {} : { reference: item.reference }),
      ...(item.referenceId === undefined ? {} : { referenceId: item.referenceId }),
      ...(item.externalId === undefined ? {} : { externalId: item.externalId }),
    })),
  };
}

// ---- POST /internal/transfer-batches/checks -------------------------------------------------

/**
 * The most items one batch check may carry: a bulk payout's whole quote (1 to 1,000 payouts) is
 * checked in one call. A check reads and locks nothing for long (read-only, no posting), so its
 * bound is the bulk's, not the posting batch's.
 */
export const walletTransferBatchCheckItemsMax = 1_000;

export const walletTransferBatchCheckItemSchema = z.object({
  /** Any form the public API accepts; a phone that is not a Liberian mobile number refuses the item alone (PKC_2001). */
  phone: z.string().min(1).max(32),
  amountMinor: minorUnitsField.refine((minor) => minor > 0n, 'must be greater than zero'),
  feeMinor: minorUnitsField,
});
export type WalletTransferBatchCheckItem = z.output<typeof walletTransferBatchCheckItemSchema>;

/**
 * The read-only check of a whole bulk (issue 20, decision 0055): every item is checked as its
 * posting would be (account, wallet, KYC, then the limits, with the user's usage counting the
 * bulk's earlier items of the same user, in the request's order), except the partner's balance,
 * which the caller weighs against the total of the items that pass (partnerBalanceMinor in the
 * answer). Nothing is written, no limit budget is consumed, no row stays locked.
 */
export const walletTransferBatchCheckRequestSchema = z.object({
  partnerId: uuidField,
  currency: currencyField,
  type: z.literal('disbursement'),
  items: z.array(walletTransferBatchCheckItemSchema).min(1).max(walletTransferBatchCheckItemsMax),
});
export type WalletTransferBatchCheckRequest = z.output<typeof walletTransferBatchCheckRequestSchema>;

/** One item's check: passed (with the recipient's name and normalised phone) or refused with the first failing rule's code. */
export const walletTransferBatchCheckResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('passed'), phone: z.string().min(1), recipientName: z.string().min(1) }),
  z.object({ outcome: z.literal('refused'), code: z.string().regex(/^PKC_\d{4}$/, 'must be a PKC code') }),
]);
export type WalletTransferBatchCheckResult = z.output<typeof walletTransferBatchCheckResultSchema>;

/** 200 with one result per item, in the request's order, and the partner's balance in the currency (0 without an account). */
export const walletTransferBatchCheckAnswerSchema = z.object({
  partnerBalanceMinor: minorUnitsField,
  results: z.array(walletTransferBatchCheckResultSchema),
});
export type WalletTransferBatchCheckAnswer = z.output<typeof walletTransferBatchCheckAnswerSchema>;

/** The body of POST /internal/transfer-batches/checks. */
export function walletTransferBatchCheckBody(batch: {
  partnerId: string;
  currency: Currency;
  type: 'disbursement';
  items: readonly { phone: string; amountMinor: MinorUnits; feeMinor: MinorUnits }[];
}): z.input<typeof walletTransferBatchCheckRequestSchema> {
  return {
    partnerId: batch.partnerId,
    currency: batch.currency,
    type: batch.type,
    items: batch.items.map((item) => ({ phone: item.phone, amountMinor: minorUnitsWire(item.amountMinor), feeMinor: minorUnitsWire(item.feeMinor) })),
  };
}

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
  transferBatchRequest: {
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    currency: 'USD',
    type: 'disbursement',
    items: [
      { transferId: '0b7e6a52-8c1d-4e8f-9a3b-2c4d5e6f7a8b', phone: '+231770000001', amountMinor: '1050', feeMinor: '35', reference: 'payroll November', referenceId: 'PKD-1764121956774-4B7E19C2D05A83F6E1B2C3D4', externalId: 'payroll-2026-11-0001' },
      { transferId: '3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', phone: '+231770000002', amountMinor: '2000', feeMinor: '35' },
    ],
  },
  transferBatchCheckRequest: {
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    currency: 'USD',
    type: 'disbursement',
    items: [
      { phone: '0770000001', amountMinor: '1050', feeMinor: '35' },
      { phone: '+231770000009', amountMinor: '2000', feeMinor: '35' },
    ],
  },
  transferBatchCheckAnswer: {
    partnerBalanceMinor: '1000000',
    results: [
      { outcome: 'passed', phone: '+231770000001', recipientName: 'Comfort Gold' },
      { outcome: 'refused', code: 'PKC_3001' },
    ],
  },
  transferBatchAnswer: {
    results: [
      { transferId: '0b7e6a52-8c1d-4e8f-9a3b-2c4d5e6f7a8b', outcome: 'posted', transactionId: 'TXN-92E90C2608552F71', postedAt: '2026-11-25T17:12:36.774Z', replayed: false },
      { transferId: '3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', outcome: 'refused', code: 'PKC_3004' },
    ],
  },
} as const;
