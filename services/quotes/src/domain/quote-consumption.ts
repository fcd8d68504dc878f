import { isUuid, quoteConsumeRequestSchema } from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import type { QuoteType } from './quote-type';

export { isUuid };

/** Who wants to consume a quote, and for which confirm endpoint. */
export interface ConsumeRequest {
  quoteId: string;
  partnerId: string;
  type: QuoteType;
}

/**
 * The confirm services call consume with the quoteId the partner sent: PKC_2009 when it is not a
 * UUID. A body without a UUID partnerId or a known type is the caller's bug, answered PKC_2008.
 */
export function parseConsumeRequest(quoteId: string, body: unknown): ConsumeRequest {
  if (!isUuid(quoteId)) throw new PkcError('PKC_2009');
  // The body is the quotes service's own contract (libs/contracts internal/quotes).
  const parsed = quoteConsumeRequestSchema.safeParse(body);
  if (!parsed.success) throw new PkcError('PKC_2008', 'consume needs partnerId (UUID) and type (collection or disbursement)');
  return { quoteId: quoteId.toLowerCase(), partnerId: parsed.data.partnerId, type: parsed.data.type };
}

/** The stored facts about a quote that a refused consumption is explained by, read after the refusal. */
export interface QuoteStateForDiagnosis {
  partnerId: string;
  type: QuoteType;
  expired: boolean;
  used: boolean;
}

/**
 * Why a consumption was refused, in a fixed order: not found or expired (PKC_5001), another
 * partner's (PKC_5004), wrong type (PKC_5003), already used (PKC_5002).
 *
 * Expiry comes first, so a quote past its lifetime is PKC_5001 whether or not it was used: after
 * ten minutes every quote answers the same, and a partner learns nothing about another partner's
 * old quotes. Ownership comes before type and use, so another partner's live quote reveals only
 * that it is not theirs.
 */
export function refusalCodeOf(state: QuoteStateForDiagnosis | undefined, request: ConsumeRequest): PkcCode {
  if (!state || state.expired) return 'PKC_5001';
  if (state.partnerId !== request.partnerId) return 'PKC_5004';
  if (state.type !== request.type) return 'PKC_5003';
  if (state.used) return 'PKC_5002';
  // The conditional update refused a quote none of whose conditions fail now. The conditions only
  // ever become false (used_at is never cleared, time only passes), so this cannot happen.
  throw new Error(`quote ${request.quoteId} was refused without a reason`);
}
