import { toApiAmount, type Currency } from '@pwa/money';
import { apiStatusOf, type ApiStatus, type DisbursementState, type FinalState } from './disbursement-state';

export interface Disbursement {
  /** Also the wallet transfer id: the idempotency id of the posting. */
  disbursementId: string;
  referenceId: string;
  partnerId: string;
  externalId: string;
  quoteId: string;
  phone: string;
  recipientName: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  note: string | null;
  status: DisbursementState;
  transactionId: string | null;
  failureCode: string | null;
  createdAt: Date;
  completedAt: Date | null;
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
}

/** How a processing disbursement ends: completed with the wallet's transaction, or not with a PKC code. */
export type Settlement =
  | { status: 'completed'; transactionId: string; completedAt: Date }
  | { status: Exclude<FinalState, 'completed'>; failureCode: string };

/** The disbursement as it is once the settlement is recorded (what the store's guarded update writes). */
export function applySettlement(disbursement: Disbursement, settlement: Settlement): Disbursement {
  return settlement.status === 'completed'
    ? { ...disbursement, status: 'completed', transactionId: settlement.transactionId, completedAt: settlement.completedAt, failureCode: null }
    : { ...disbursement, status: settlement.status, transactionId: null, completedAt: null, failureCode: settlement.failureCode };
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
 * completedAt are null until completed; failed and timed-out attempts add failureCode (the code
 * the transfer call answered, PKC_7004 for a timeout).
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
    netAmount: toApiAmount(disbursement.amountMinor),
    createdAt: disbursement.createdAt.toISOString(),
    completedAt: disbursement.completedAt?.toISOString() ?? null,
    ...(disbursement.failureCode === null ? {} : { failureCode: disbursement.failureCode }),
  };
}
