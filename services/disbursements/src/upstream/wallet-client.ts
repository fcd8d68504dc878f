import {
  refusalSchema,
  walletCancellationAnswerSchema,
  walletCancelledTransferCode,
  walletPaths,
  walletTransferAnswerSchema,
  walletTransferBody,
  walletTransferBatchAnswerSchema,
  walletTransferBatchBody,
  type WalletTransferBatchItemInput,
  type WalletTransferBatchResult,
} from '@pwa/contracts';
import { isPkcCode, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, UpstreamFailure, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';
import type { Deadline } from '../domain/deadline';

export interface WalletTransferRequest {
  transferId: string;
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  reference: string;
  /** The disbursement's PKD-… id and the partner's externalId, kept on the ledger for the partner's statement. */
  referenceId?: string;
  externalId?: string;
  deadline: Deadline;
  requestId?: string;
}

/** The wallet's word on a transfer id: it posted, it is cancelled (never posts), or a rule refused it. */
export type WalletPostingAnswer =
  | { state: 'posted'; transactionId: string; postedAt: Date }
  | { state: 'cancelled' }
  | { state: 'refused'; code: PkcCode; message: string };

export interface WalletClient {
  /** POST /internal/transfers within the deadline; throws UpstreamFailure when the wallet gave no answer. */
  postTransfer(request: WalletTransferRequest): Promise<WalletPostingAnswer>;
  /** POST /internal/transfers/:id/cancel (no breaker: it is how doubt is removed); throws UpstreamFailure. */
  cancelTransfer(transferId: string, requestId?: string): Promise<Exclude<WalletPostingAnswer, { state: 'refused' }>>;
  /**
   * POST /internal/transfer-batches (decision 0054): one result per item, in order. Throws
   * UpstreamFailure when no answer came or it is outside the contract (then the batch's fate is
   * unknown and it is sent again later: the transfer ids make that safe).
   */
  postTransferBatch(batch: { partnerId: string; currency: Currency; items: readonly WalletTransferBatchItemInput[]; timeoutMs: number }): Promise<WalletTransferBatchResult[]>;
  shutdown(): void;
}

/**
 * The wallet's refusals a transfer answers the partner with as they are: the account and wallet
 * rules (3001-3005), the partner's balance (4002) and every limit (4003-4012), plus 2001 for a
 * phone it cannot read. Not 4001: a disbursement never debits the user. Any other refusal is
 * outside the contract and leaves the transfer's fate unknown (the caller cancels to learn it).
 */
export const disbursementRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>([
  'PKC_2001',
  'PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005',
  'PKC_4002', 'PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4006', 'PKC_4007',
  'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012',
]);

export function createWalletClient(
  settings: Omit<UpstreamSettings, 'timeoutMs'> & { cancelTimeoutMs: number },
  logger: Logger,
): WalletClient {
  // A posting's deadline is what is left of the transfer's budget; a cancellation has its own.
  const wallet = createUpstreamClient({ name: 'wallet', baseUrl: settings.baseUrl, breaker: settings.breaker, watchBreaker: settings.watchBreaker, logger });
  return {
    postTransfer: async (request) => {
      const answer = await wallet.post(
        walletPaths.transfers,
        walletTransferBody({ type: 'disbursement', ...request, reference: request.reference }),
        { timeoutMs: request.deadline.remainingMs(), requestId: request.requestId },
      );
      if (answer.status === 200) {
        const posted = walletTransferAnswerSchema.safeParse(answer.body);
        if (posted.success) return { state: 'posted', transactionId: posted.data.transactionId, postedAt: new Date(posted.data.postedAt) };
      }
      const refusal = refusalSchema.safeParse(answer.body);
      if (answer.status === 409 && refusal.success && refusal.data.code === walletCancelledTransferCode) return { state: 'cancelled' };
      if (answer.status !== 200 && refusal.success && isPkcCode(refusal.data.code) && disbursementRefusalsPassedOn.has(refusal.data.code)) {
        return { state: 'refused', code: refusal.data.code, message: refusal.data.message ?? refusal.data.code };
      }
      // An answer outside the contract leaves the transfer's fate unknown; the caller cancels to learn it.
      logger.error({ status: answer.status, body: answer.body }, 'wallet transfer answer outside the contract');
      throw new UpstreamFailure('wallet', 'unavailable', `wallet answered ${answer.status} outside the contract`);
    },
    cancelTransfer: async (transferId, requestId) => {
      const answer = await wallet.postWithoutBreaker(walletPaths.cancellation(transferId), {}, { timeoutMs: settings.cancelTimeoutMs, requestId });
      const parsed = walletCancellationAnswerSchema.safeParse(answer.body);
      if (answer.status !== 200 || !parsed.success) {
        throw new UpstreamFailure('wallet', 'unavailable', `wallet answered the cancellation with ${answer.status} outside the contract`);
      }
      return parsed.data.state === 'cancelled'
        ? { state: 'cancelled' }
        : { state: 'posted', transactionId: parsed.data.transactionId, postedAt: new Date(parsed.data.postedAt) };
    },
    postTransferBatch: async ({ partnerId, currency, items, timeoutMs }) => {
      const answer = await wallet.post(walletPaths.transferBatches, walletTransferBatchBody({ partnerId, currency, type: 'disbursement', items }), { timeoutMs });
      const parsed = walletTransferBatchAnswerSchema.safeParse(answer.body);
      if (answer.status === 200 && parsed.success && parsed.data.results.length === items.length) return parsed.data.results;
      logger.error({ status: answer.status, items: items.length }, 'wallet batch answer outside the contract');
      throw new UpstreamFailure('wallet', 'unavailable', `wallet answered the batch with ${answer.status} outside the contract`);
    },
    shutdown: () => wallet.shutdown(),
  };
}
