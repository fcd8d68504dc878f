import {
  readContractAnswer,
  refusalSchema,
  walletCancellationAnswerSchema,
  walletCheckAnswerSchema,
  walletCheckBody,
  walletPaths,
  walletTransferAnswerSchema,
  walletTransferBody,
  type WalletMovement,
} from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import { createUpstreamClient, isUpstreamFailure, type UpstreamSettings } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';

export interface CollectionPostingRequest {
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
}

/** What a posting attempt came to: the only three things the caller must tell apart. */
export type PostingResult =
  | { kind: 'posted'; transactionId: string; postedAt: Date }
  | { kind: 'refused'; code: string }
  | { kind: 'unavailable'; reason: string };

/** A refund's posting: the partner pays the user back `amountMinor` (no fee), decision 0052. */
export interface RefundPostingRequest {
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: bigint;
}

export type CancellationResult = { kind: 'cancelled' } | { kind: 'posted'; transactionId: string; postedAt: Date } | { kind: 'unavailable'; reason: string };

export interface Wallet {
  /** Read-only re-check at confirm time; throws the wallet's refusal code, or PKC_7003. */
  check(request: CollectionPostingRequest, requestId?: string): Promise<void>;
  /** referenceId and externalId (the collection's PKC-… id and the partner's) are kept on the ledger for the partner's statement. */
  post(transferId: string, request: CollectionPostingRequest & { reference: string; referenceId?: string; externalId?: string }): Promise<PostingResult>;
  cancel(transferId: string): Promise<CancellationResult>;
  /** Read-only re-check before a refund is reserved; throws the wallet's refusal code, or PKC_7003. */
  checkRefund(request: RefundPostingRequest, requestId?: string): Promise<void>;
  /** Posts a refund (partner -amount, user +amount) with the refund's id as the transferId. */
  postRefund(transferId: string, request: RefundPostingRequest & { reference: string; referenceId: string; externalId: string }): Promise<PostingResult>;
}

/**
 * The wallet's refusals a collection request passes on to the partner as they are, at confirm
 * time: the account and wallet rules (3001-3005), the user's balance (4001) and every limit
 * (4003-4012), plus 2001 for a phone it cannot read. Not 4002: a collection never debits the
 * partner, so the wallet cannot refuse one for the partner's balance; any other code is outside
 * the contract and answers PKC_7002.
 */
export const collectionCheckRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>([
  'PKC_2001',
  'PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005',
  'PKC_4001', 'PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4006', 'PKC_4007',
  'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012',
]);

/**
 * The wallet's refusals of a refund passed on to the partner as they are: the user can no longer
 * receive (3001-3005) or the partner's balance does not cover it (4002). A refund consumes and
 * checks no limit, so no 40xx limit code can come; any other code answers PKC_7002.
 */
export const refundCheckRefusalsPassedOn: ReadonlySet<PkcCode> = new Set<PkcCode>(['PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005', 'PKC_4002']);

function movementOf(request: CollectionPostingRequest): WalletMovement {
  return { type: 'collection', ...request };
}

function refundMovementOf(request: RefundPostingRequest): WalletMovement {
  return { type: 'refund', ...request, feeMinor: 0n };
}

/** The wallet's internal API (libs/contracts internal/wallet) for collections and their refunds, behind a deadline and a breaker. */
export function createWallet(settings: UpstreamSettings, logger: Logger): Wallet & { shutdown(): void } {
  const wallet = createUpstreamClient({ name: 'wallet', ...settings, logger });
  const call = (requestId?: string) => ({ timeoutMs: settings.timeoutMs, requestId });

  const check = async (movement: WalletMovement, passedOn: ReadonlySet<PkcCode>, requestId?: string): Promise<void> => {
    let answer;
    try {
      answer = await wallet.post(walletPaths.checks, walletCheckBody(movement), call(requestId));
    } catch (error) {
      logger.warn({ err: error }, 'wallet check failed; answering PKC_7003');
      throw new PkcError('PKC_7003', undefined, { cause: error });
    }
    const read = readContractAnswer(answer, walletCheckAnswerSchema, passedOn);
    if (read.kind === 'answer') return;
    if (read.kind === 'refusal') throw new PkcError(read.code, read.message);
    logger.error({ status: answer.status, body: answer.body, problem: read.problem }, 'wallet check answer outside the contract');
    throw new PkcError('PKC_7002');
  };

  const post = async (body: ReturnType<typeof walletTransferBody>): Promise<PostingResult> => {
    let answer;
    try {
      answer = await wallet.post(walletPaths.transfers, body, call());
    } catch (error) {
      if (isUpstreamFailure(error)) return { kind: 'unavailable', reason: error.message };
      throw error;
    }
    if (answer.status === 200) {
      const posted = walletTransferAnswerSchema.safeParse(answer.body);
      if (posted.success) return { kind: 'posted', transactionId: posted.data.transactionId, postedAt: new Date(posted.data.postedAt) };
      // An answer we cannot read may hide a posting: treat it as no answer, so recovery asks again.
      logger.error({ body: answer.body }, 'wallet posting answer does not match the contract');
      return { kind: 'unavailable', reason: 'unreadable posting answer' };
    }
    // Every refusal is final for the collection or refund (it fails with that code), PKC_7004 included.
    const refusal = refusalSchema.safeParse(answer.body);
    if (refusal.success) return { kind: 'refused', code: refusal.data.code };
    logger.error({ status: answer.status, body: answer.body }, 'wallet posting refused outside the contract');
    return { kind: 'unavailable', reason: `unreadable refusal ${answer.status}` };
  };

  return {
    check: (request, requestId) => check(movementOf(request), collectionCheckRefusalsPassedOn, requestId),
    checkRefund: (request, requestId) => check(refundMovementOf(request), refundCheckRefusalsPassedOn, requestId),
    post: (transferId, request) =>
      post(walletTransferBody({ ...movementOf(request), transferId, reference: request.reference, referenceId: request.referenceId, externalId: request.externalId })),
    postRefund: (transferId, request) =>
      post(walletTransferBody({ ...refundMovementOf(request), transferId, reference: request.reference, referenceId: request.referenceId, externalId: request.externalId })),

    cancel: async (transferId) => {
      let answer;
      try {
        answer = await wallet.post(walletPaths.cancellation(transferId), {}, call());
      } catch (error) {
        if (isUpstreamFailure(error)) return { kind: 'unavailable', reason: error.message };
        throw error;
      }
      const parsed = walletCancellationAnswerSchema.safeParse(answer.body);
      if (answer.status !== 200 || !parsed.success) return { kind: 'unavailable', reason: `unreadable cancellation answer ${answer.status}` };
      return parsed.data.state === 'cancelled'
        ? { kind: 'cancelled' }
        : { kind: 'posted', transactionId: parsed.data.transactionId, postedAt: new Date(parsed.data.postedAt) };
    },

    shutdown: () => wallet.shutdown(),
  };
}
