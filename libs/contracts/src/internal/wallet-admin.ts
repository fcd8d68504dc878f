import { z } from 'zod';
import { currencyField, minorUnitsField, transactionIdField, uuidField } from './wire-fields';

/**
 * The wallet's internal admin API: changes a person asked for and a second person approved
 * (maker-checker, decision 0062), executed by the wallet on the back-office's call. Owned by the
 * wallet (it parses requests with these schemas and refuses a change without the acting person and
 * the approval); the back-office builds its bodies and reads the answers with them. Internal
 * network only, never behind the gateway, never in the public OpenAPI. docs/internal-contracts.md,
 * "Wallet admin HTTP API".
 */
export const walletAdminPaths = {
  partnerFundings: '/internal/admin/partner-fundings',
} as const;

/**
 * A positive whole number of minor units as the internal contracts write one ("1050" is 10.50): at
 * most 16 digits (libs/money's amountMinorMax, 10^15), no sign, no leading zero.
 */
export const adminAmountMinorField = minorUnitsField.refine((minor) => minor > 0n, 'must be greater than zero');

/** The person who executes the change: the checker who approved it. */
export const adminActorSchema = z.strictObject({
  operatorId: uuidField,
  displayName: z.string().trim().min(1).max(100),
});
export type AdminActor = z.output<typeof adminActorSchema>;

/** The approval the change executes: the back-office's approval request, its maker and its checker. */
export const adminApprovalSchema = z.strictObject({
  requestId: uuidField,
  makerId: uuidField,
  checkerId: uuidField,
});
export type AdminApproval = z.output<typeof adminApprovalSchema>;

// ---- POST /internal/admin/partner-fundings ---------------------------------------------------

/**
 * An approved funding (`direction: "credit"`: funding account -amount, partner +amount; the
 * `partner.fund` request) or an approved correction of one (`"debit"`: a new opposite posting,
 * partner -amount, funding +amount; `partner.funding.correct`). The approval request's id is the
 * transfer id, the idempotency key: sent again, the first outcome is answered and nothing moves.
 */
export const walletPartnerFundingRequestSchema = z.strictObject({
  /** The idempotency key: must equal approval.requestId. */
  transferId: uuidField,
  partnerId: uuidField,
  currency: currencyField,
  amountMinor: adminAmountMinorField,
  direction: z.enum(['credit', 'debit']),
  /** Why, in the maker's words; kept on the ledger's transfer and in wallet.operator_fundings. */
  reference: z.string().trim().min(1).max(200),
  actor: adminActorSchema,
  approval: adminApprovalSchema,
});
export type WalletPartnerFundingRequest = z.output<typeof walletPartnerFundingRequestSchema>;
export type FundingDirection = WalletPartnerFundingRequest['direction'];

/** 200: posted now (`replayed: false`) or by an earlier call with this transfer id (`replayed: true`: nothing moved this time). */
export const walletPartnerFundingAnswerSchema = z.object({
  transferId: uuidField,
  transactionId: transactionIdField,
  state: z.literal('posted'),
  replayed: z.boolean(),
  /** The partner's balance in the currency after the posting (for a replay: now). */
  partnerBalanceMinor: minorUnitsField,
});
export type WalletPartnerFundingAnswer = z.output<typeof walletPartnerFundingAnswerSchema>;

/** The refusals of the admin route besides a malformed body (400 PKC_2008). */
export const walletAdminRefusalCodes = {
  /** 403: no four eyes (the maker approved their own request) or the transfer id is not the approval's. */
  notApproved: 'PKC_6005',
  /** 409: the transfer id was used for another funding (or another posting); nothing moved. */
  transferIdUsedOtherwise: 'PKC_6001',
  /** 400: a correction above the partner's balance in the currency; nothing posted. */
  partnerBalanceInsufficient: 'PKC_4002',
} as const;

/**
 * Why a well-formed admin change is not an approved four-eyes change, or undefined when it is:
 * the maker is not the checker, the actor is the checker, and the change is the approval's own (its transfer id is the
 * request id). The wallet refuses with 403 PKC_6005 and this message; the back-office may call it
 * before sending.
 */
export function fourEyesProblemOf(body: { transferId: string; actor: AdminActor; approval: AdminApproval }): string | undefined {
  if (body.approval.makerId === body.approval.checkerId) {
    return 'approval.makerId equals approval.checkerId: a change needs a second person to approve it; nothing was posted';
  }
  if (body.actor.operatorId !== body.approval.checkerId) {
    return 'actor.operatorId differs from approval.checkerId: an approved change is executed on its checker’s approval, in the checker’s name; nothing was posted';
  }
  if (body.approval.requestId !== body.transferId) {
    return 'approval.requestId differs from transferId: the transfer id of an approved change is its approval request id; nothing was posted';
  }
  return undefined;
}

export interface PartnerFundingInput {
  transferId: string;
  partnerId: string;
  currency: WalletPartnerFundingRequest['currency'];
  amountMinor: bigint;
  direction: FundingDirection;
  reference: string;
  actor: { operatorId: string; displayName: string };
  approval: { requestId: string; makerId: string; checkerId: string };
}

/** The body of POST /internal/admin/partner-fundings. */
export function walletPartnerFundingBody(funding: PartnerFundingInput): z.input<typeof walletPartnerFundingRequestSchema> {
  if (funding.amountMinor <= 0n) throw new RangeError('a funding moves a positive amount');
  return {
    transferId: funding.transferId,
    partnerId: funding.partnerId,
    currency: funding.currency,
    amountMinor: funding.amountMinor.toString(),
    direction: funding.direction,
    reference: funding.reference,
    actor: { operatorId: funding.actor.operatorId, displayName: funding.actor.displayName },
    approval: { requestId: funding.approval.requestId, makerId: funding.approval.makerId, checkerId: funding.approval.checkerId },
  };
}

/** Documented examples (docs/internal-contracts.md); the contract test parses them. */
export const walletAdminContractExamples = {
  partnerFundingRequest: {
    transferId: '5a0e3c1d-7b2f-4e6a-9c8d-1f2e3d4c5b6a',
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    currency: 'USD',
    amountMinor: '2500000',
    direction: 'credit',
    reference: 'bank transfer 2026-11-27, Ecobank ref 88123',
    actor: { operatorId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', displayName: 'Checker Kollie' },
    approval: { requestId: '5a0e3c1d-7b2f-4e6a-9c8d-1f2e3d4c5b6a', makerId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', checkerId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' },
  },
  partnerFundingAnswer: {
    transferId: '5a0e3c1d-7b2f-4e6a-9c8d-1f2e3d4c5b6a',
    transactionId: 'TXN-3F0A9C2B7D1E4F60',
    state: 'posted',
    replayed: false,
    partnerBalanceMinor: '3500000',
  },
} as const;
