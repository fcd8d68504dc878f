import { toApiAmount, type Currency } from '@pwa/money';
import { apiStatusOf, type ApiStatus, type DisbursementState, type FinalState } from './disbursement-state';
import { failureMessageFor, failureReasonOf, type FailureReason } from './failure-reason';

export interface Disbursement {
  /** Also the wallet transfer id: the idempotency id of the posting. */
  disbursementId: string;
  referenceId: string;
  partnerId: string;
  externalId: string;
  /** The quote it was paid from; null for a bulk item (the bulk quote fixed its fee). */
  quoteId: string | null;
  /** The bulk (PKB-…) and the item's place in the partner's list, for a bulk item; null otherwise. */
  bulkId: string | null;
  bulkIndex: number | null;
  phone: string;
  recipientName: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  note: string | null;
  status: DisbursementState;
  transactionId: string | null;
  failureCode: string | null;
  /** The partner message of the failure (null until failed, and on rows settled before it was stored). */
  failureMessage: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** Set once the operator reversed this completed disbursement (decision 0063); it stays completed. */
  reversal?: DisbursementReversalRecord;
}

/** The wallet's reversal of a completed disbursement: its own transaction and when it was posted. */
export interface DisbursementReversalRecord {
  transactionId: string;
  reversedAt: Date;
}

/** What the partner is shown of a reversal: the whole amount went back, in the disbursement's currency. */
export interface ReversalView {
  transactionId: string;
  amount: number;
  currency: Currency;
  reversedAt: string;
}

export interface TransferView {
  referenceId: string;
  status: 'completed';
  transactionId: string;
  amount: number;
  currency: Currency;
  fee: number;
  totalDebit: number;
}

export interface StatusView {
  referenceId: string;
  externalId: string;
  status: ApiStatus;
  transactionId: string | null;
  amount: number;
  currency: Currency;
  fee: number;
  totalDebit: number;
  netAmount: number;
  createdAt: string;
  completedAt: string | null;
  failureCode?: string;
  failureReason?: FailureReason;
  bulkId?: string;
  note?: string;
  reversal?: ReversalView;
}

/** How a processing disbursement ends: completed with the wallet's transaction, or not with a PKC code and its partner message. */
export type Settlement =
  | { status: 'completed'; transactionId: string; completedAt: Date }
  | UnsuccessfulSettlement;

export interface UnsuccessfulSettlement {
  status: Exclude<FinalState, 'completed'>;
  failureCode: string;
  failureMessage: string;
}

/** failed with this code (a wallet refusal, or PKC_7003 when the wallet could not be reached). */
export function failedSettlement(failureCode: string): UnsuccessfulSettlement {
  return { status: 'failed', failureCode, failureMessage: failureMessageFor(failureCode) };
}

/** timed_out: the budget ran out and the transfer id was cancelled (PKC_7004). */
export function timedOutSettlement(): UnsuccessfulSettlement {
  return { status: 'timed_out', failureCode: 'PKC_7004', failureMessage: failureMessageFor('PKC_7004') };
}

/** The disbursement as it is once the settlement is recorded (what the store's guarded update writes). */
export function applySettlement(disbursement: Disbursement, settlement: Settlement): Disbursement {
  return settlement.status === 'completed'
    ? { ...disbursement, status: 'completed', transactionId: settlement.transactionId, completedAt: settlement.completedAt, failureCode: null, failureMessage: null }
    : {
        ...disbursement,
        status: settlement.status,
        transactionId: null,
        completedAt: null,
        failureCode: settlement.failureCode,
        failureMessage: settlement.failureMessage,
      };
}

/** What reached the user: the amount once completed, nothing while pending or when it failed. */
export function netAmountMinorOf(disbursement: Pick<Disbursement, 'status' | 'amountMinor'>): bigint {
  return disbursement.status === 'completed' ? disbursement.amountMinor : 0n;
}

export function totalDebitMinorOf(disbursement: Pick<Disbursement, 'amountMinor' | 'feeMinor'>): bigint {
  return disbursement.amountMinor + disbursement.feeMinor;
}

/** The transfer call's answer; only a completed disbursement has one. */
export function transferView(disbursement: Disbursement): TransferView {
  if (disbursement.status !== 'completed' || disbursement.transactionId === null) {
    throw new Error(`disbursement ${disbursement.referenceId} is ${disbursement.status}, not completed`);
  }
  return {
    referenceId: disbursement.referenceId,
    status: 'completed',
    transactionId: disbursement.transactionId,
    amount: toApiAmount(disbursement.amountMinor),
    currency: disbursement.currency,
    fee: toApiAmount(disbursement.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(disbursement)),
  };
}

/**
 * The status call's answer. Every state answers 200 with the same fields: transactionId and
 * completedAt are null until completed; netAmount (what reached the user) is the amount once
 * completed and 0 before and without it; failed and timed-out attempts add failureCode (the code
 * the transfer call answered, PKC_7004 for a timeout) and failureReason (that code and its message).
 * A note the partner sent (on the transfer or a bulk's item) comes back as sent; none, no field.
 */
export function statusView(disbursement: Disbursement): StatusView {
  return {
    referenceId: disbursement.referenceId,
    externalId: disbursement.externalId,
    status: apiStatusOf(disbursement.status),
    transactionId: disbursement.transactionId,
    amount: toApiAmount(disbursement.amountMinor),
    currency: disbursement.currency,
    fee: toApiAmount(disbursement.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(disbursement)),
    netAmount: toApiAmount(netAmountMinorOf(disbursement)),
    createdAt: disbursement.createdAt.toISOString(),
    completedAt: disbursement.completedAt?.toISOString() ?? null,
    ...withFailure(disbursement),
    ...(disbursement.bulkId === null ? {} : { bulkId: disbursement.bulkId }),
    ...(disbursement.note === null ? {} : { note: disbursement.note }),
    ...(disbursement.reversal === undefined ? {} : { reversal: reversalView(disbursement, disbursement.reversal) }),
  };
}

/** A reversal as the status endpoint and disbursement.reversed show it (no operator, no reason). */
export function reversalView(disbursement: Pick<Disbursement, 'amountMinor' | 'currency'>, reversal: DisbursementReversalRecord): ReversalView {
  return {
    transactionId: reversal.transactionId,
    amount: toApiAmount(disbursement.amountMinor),
    currency: disbursement.currency,
    reversedAt: reversal.reversedAt.toISOString(),
  };
}

function withFailure(disbursement: Disbursement): Pick<StatusView, 'failureCode' | 'failureReason'> {
  const reason = failureReasonOf(disbursement);
  return reason === undefined ? {} : { failureCode: reason.code, failureReason: reason };
}
