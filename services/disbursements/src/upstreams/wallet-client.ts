import { z } from '@pwa/config';
import { isPkcCode, type PkcCode } from '@pwa/errors';
import { createInternalJsonClient } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';
import type { Deadline } from '../domain/deadline';
import { postJson, UpstreamFailure, withBreaker, type BreakerSettings } from './upstream-call';

export interface WalletTransferRequest {
  transferId: string;
  partnerId: string;
  phone: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  reference: string;
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
  shutdown(): void;
}

/** The wallet's rules whose codes are the partner's answer as they are. */
const refusalCodesPassedOn = new Set<PkcCode>([
  'PKC_2001',
  'PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005',
  'PKC_4002', 'PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4006', 'PKC_4007',
  'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012',
]);

const postedSchema = z.object({ transactionId: z.string().regex(/^TXN-[0-9A-F]+$/), postedAt: z.iso.datetime({ offset: true }) });
const cancellationSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('cancelled') }),
  z.object({ state: z.literal('posted'), transactionId: z.string().regex(/^TXN-[0-9A-F]+$/), postedAt: z.iso.datetime({ offset: true }) }),
]);
const refusalSchema = z.object({ success: z.literal(false), code: z.string(), message: z.string().optional() });

export function createWalletClient(
  settings: { baseUrl: string; cancelTimeoutMs: number; breaker: BreakerSettings },
  logger: Logger,
): WalletClient {
  const http = createInternalJsonClient({ baseUrl: settings.baseUrl });
  const breaker = withBreaker(
    'wallet',
    (request: WalletTransferRequest) =>
      postJson('wallet', http, {
        path: '/internal/transfers',
        timeoutMs: request.deadline.remainingMs(),
        requestId: request.requestId,
        body: {
          transferId: request.transferId,
          type: 'disbursement',
          partnerId: request.partnerId,
          phone: request.phone,
          currency: request.currency,
          amountMinor: request.amountMinor.toString(),
          feeMinor: request.feeMinor.toString(),
          reference: request.reference,
        },
      }),
    settings.breaker,
    logger,
  );

  return {
    postTransfer: async (request) => {
      const answer = await breaker.fire(request);
      if (answer.status === 200) {
        const posted = postedSchema.safeParse(answer.body);
        if (posted.success) return { state: 'posted', transactionId: posted.data.transactionId, postedAt: new Date(posted.data.postedAt) };
      }
      const refusal = refusalSchema.safeParse(answer.body);
      if (answer.status === 409 && refusal.success && refusal.data.code === 'PKC_7004') return { state: 'cancelled' };
      if (answer.status !== 200 && refusal.success && isPkcCode(refusal.data.code) && refusalCodesPassedOn.has(refusal.data.code)) {
        return { state: 'refused', code: refusal.data.code, message: refusal.data.message ?? refusal.data.code };
      }
      // An answer outside the contract leaves the transfer's fate unknown; the caller cancels to learn it.
      logger.error({ status: answer.status, body: answer.body }, 'wallet transfer answer outside the contract');
      throw new UpstreamFailure('wallet', 'unavailable', `wallet answered ${answer.status} outside the contract`);
    },
    cancelTransfer: async (transferId, requestId) => {
      const answer = await postJson('wallet', http, {
        path: `/internal/transfers/${encodeURIComponent(transferId)}/cancel`,
        body: {},
        timeoutMs: settings.cancelTimeoutMs,
        requestId,
      });
      const parsed = cancellationSchema.safeParse(answer.body);
      if (answer.status !== 200 || !parsed.success) {
        throw new UpstreamFailure('wallet', 'unavailable', `wallet answered the cancellation with ${answer.status} outside the contract`);
      }
      return parsed.data.state === 'cancelled'
        ? { state: 'cancelled' }
        : { state: 'posted', transactionId: parsed.data.transactionId, postedAt: new Date(parsed.data.postedAt) };
    },
    shutdown: () => {
      breaker.shutdown();
      http.close();
    },
  };
}
