import { z } from '@pwa/config';
import { PkcError, isPkcCode, type PkcCode } from '@pwa/errors';
import type { Logger } from '@pwa/logging';
import type { Currency } from '@pwa/money';
import { isUpstreamUnavailable, type InternalHttpClient } from './internal-http';

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

export type CancellationResult = { kind: 'cancelled' } | { kind: 'posted'; transactionId: string; postedAt: Date } | { kind: 'unavailable'; reason: string };

export interface Wallet {
  /** Read-only re-check at confirm time; throws the wallet's refusal code, or PKC_7003. */
  check(request: CollectionPostingRequest, requestId?: string): Promise<void>;
  post(transferId: string, request: CollectionPostingRequest & { reference: string }): Promise<PostingResult>;
  cancel(transferId: string): Promise<CancellationResult>;
}

const refusalCodesPassedOn = new Set<PkcCode>([
  'PKC_2001',
  'PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005',
  'PKC_4001', 'PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4006', 'PKC_4007',
  'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012',
]);
const refusalSchema = z.object({ success: z.literal(false), code: z.string(), message: z.string().optional() });
const postedSchema = z.object({ transactionId: z.string().regex(/^TXN-[0-9A-F]+$/), postedAt: z.iso.datetime(), status: z.literal('posted') });
const cancelSchema = z.union([
  z.object({ state: z.literal('cancelled') }),
  z.object({ state: z.literal('posted'), transactionId: z.string().regex(/^TXN-[0-9A-F]+$/), postedAt: z.iso.datetime() }),
]);

function body(request: CollectionPostingRequest): Record<string, string> {
  return {
    type: 'collection',
    partnerId: request.partnerId,
    phone: request.phone,
    currency: request.currency,
    amountMinor: request.amountMinor.toString(),
    feeMinor: request.feeMinor.toString(),
  };
}

/** The wallet's internal API (docs/internal-contracts.md) for collections, behind a deadline and a breaker. */
export function createWallet(http: InternalHttpClient, logger: Logger): Wallet {
  return {
    check: async (request, requestId) => {
      let answer;
      try {
        answer = await http.post('/internal/checks', body(request), requestId);
      } catch (error) {
        logger.warn({ err: error }, 'wallet check failed; answering PKC_7003');
        throw new PkcError('PKC_7003', undefined, { cause: error });
      }
      if (answer.status === 200) return;
      const refusal = refusalSchema.safeParse(answer.body);
      if (refusal.success && isPkcCode(refusal.data.code) && refusalCodesPassedOn.has(refusal.data.code)) throw new PkcError(refusal.data.code, refusal.data.message);
      logger.error({ status: answer.status, body: answer.body }, 'wallet check refused outside the contract');
      throw new PkcError('PKC_7002');
    },

    post: async (transferId, request) => {
      let answer;
      try {
        answer = await http.post('/internal/transfers', { ...body(request), transferId, reference: request.reference });
      } catch (error) {
        if (isUpstreamUnavailable(error)) return { kind: 'unavailable', reason: error.message };
        throw error;
      }
      if (answer.status === 200) {
        const posted = postedSchema.safeParse(answer.body);
        if (posted.success) return { kind: 'posted', transactionId: posted.data.transactionId, postedAt: new Date(posted.data.postedAt) };
        // An answer we cannot read may hide a posting: treat it as no answer, so recovery asks again.
        logger.error({ body: answer.body }, 'wallet posting answer does not match the contract');
        return { kind: 'unavailable', reason: 'unreadable posting answer' };
      }
      const refusal = refusalSchema.safeParse(answer.body);
      if (refusal.success) return { kind: 'refused', code: refusal.data.code };
      logger.error({ status: answer.status, body: answer.body }, 'wallet posting refused outside the contract');
      return { kind: 'unavailable', reason: `unreadable refusal ${answer.status}` };
    },

    cancel: async (transferId) => {
      let answer;
      try {
        answer = await http.post(`/internal/transfers/${transferId}/cancel`, {});
      } catch (error) {
        if (isUpstreamUnavailable(error)) return { kind: 'unavailable', reason: error.message };
        throw error;
      }
      const parsed = cancelSchema.safeParse(answer.body);
      if (answer.status !== 200 || !parsed.success) return { kind: 'unavailable', reason: `unreadable cancellation answer ${answer.status}` };
      return parsed.data.state === 'cancelled'
        ? { kind: 'cancelled' }
        : { kind: 'posted', transactionId: parsed.data.transactionId, postedAt: new Date(parsed.data.postedAt) };
    },
  };
}
