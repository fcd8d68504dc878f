import { z } from 'zod';
import { normaliseLiberianPhone } from '@pwa/phone';
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
  disbursementReversals: '/internal/admin/disbursement-reversals',
  tierLimits: '/internal/admin/tier-limits',
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

// ---- Every admin change besides a funding (decision 0069) --------------------------------------

/**
 * The refusals every admin change route answers besides a malformed body or a missing actor or
 * approval (400 PKC_2008). Each is final: the same request sent again is refused the same way.
 */
export const adminChangeRefusalCodes = {
  /** 403: no four eyes (maker = checker) or the actor is not the checker. */
  notApproved: 'PKC_6005',
  /** 409: the request id was used for another change; nothing changed. */
  requestIdUsedOtherwise: 'PKC_6001',
  /** 404: the target (partner, disbursement) does not exist. */
  targetNotFound: 'PKC_6002',
  /** 409: the change cannot apply to the target as it is (a disbursement reversed already, a wallet holding less than the reversal). */
  targetCannotChange: 'PKC_6004',
} as const;

/**
 * Why an approval does not allow a change, or undefined when it does: the maker is not the
 * checker and the actor is the checker. The owning service refuses with 403 PKC_6005 and this message.
 */
export function adminApprovalProblemOf(body: { requestId: string; actor: AdminActor; approval: AdminApproval }): string | undefined {
  if (body.approval.makerId === body.approval.checkerId) return 'approval.makerId equals approval.checkerId: a change needs a second person to approve it; nothing was changed';
  if (body.actor.operatorId !== body.approval.checkerId) return 'actor.operatorId differs from approval.checkerId: an approved change is executed in its checker’s name; nothing was changed';
  if (body.approval.requestId !== body.requestId) return 'approval.requestId differs from requestId: the idempotency key of an approved change is its approval request id; nothing was changed';
  return undefined;
}

/** A JSON object of settings (before or after a change): plain values only, never a secret. */
export const adminSettingsField = z.record(z.string(), z.unknown());

/**
 * 200 for a change of settings: applied now (`replayed: false`) or by an earlier call with this
 * request id (`replayed: true`: nothing changed this time); the settings before and after it.
 */
export const adminChangeAnswerSchema = z.object({
  requestId: uuidField,
  replayed: z.boolean(),
  before: adminSettingsField.nullable(),
  after: adminSettingsField,
});
export type AdminChangeAnswer = z.output<typeof adminChangeAnswerSchema>;

// ---- POST /internal/admin/disbursement-reversals ----------------------------------------------

/**
 * An approved reversal of a completed disbursement sent in error (decision 0053, 0063): user wallet
 * -amount, partner +amount, the fee kept. The request id is the reversal's transfer id: sent
 * again, the first reversal is answered `replayed` and nothing moves.
 */
export const walletDisbursementReversalRequestSchema = z.strictObject({
  requestId: uuidField,
  /** The disbursement's public PKD-… referenceId. */
  referenceId: z.string().regex(/^[A-Z]{3}-[0-9A-Z-]{4,64}$/, 'must be a disbursement referenceId (PKD-…)'),
  /** Why, in the maker's words; kept in wallet.operator_reversals. */
  reason: z.string().trim().min(1).max(500),
  actor: adminActorSchema,
  approval: adminApprovalSchema,
});
export type WalletDisbursementReversalRequest = z.output<typeof walletDisbursementReversalRequestSchema>;

export const walletDisbursementReversalAnswerSchema = z.object({
  requestId: uuidField,
  replayed: z.boolean(),
  referenceId: z.string(),
  disbursementTransactionId: transactionIdField,
  reversalTransactionId: transactionIdField,
  partnerId: uuidField,
  currency: currencyField,
  amountMinor: minorUnitsField,
  /** The partner's balance in the currency after the reversal (for a replay: now). */
  partnerBalanceMinor: minorUnitsField,
});
export type WalletDisbursementReversalAnswer = z.output<typeof walletDisbursementReversalAnswerSchema>;

// ---- POST /internal/admin/tier-limits ---------------------------------------------------------

const limitMinorField = minorUnitsField.refine((minor) => minor > 0n, 'must be greater than zero');
const limitCountField = z.number().int().min(1).max(1_000_000);

/**
 * An approved change of one tier's limits for one transaction type and currency: the limits given
 * replace the current ones, the others stay (a tier without limits yet needs all seven).
 */
export const walletTierLimitRequestSchema = z.strictObject({
  requestId: uuidField,
  tier: z.enum(['Basic', 'Silver', 'Gold', 'Platinum']),
  transactionType: z.enum(['collection', 'disbursement']),
  currency: currencyField,
  limits: z
    .strictObject({
      perTransactionMaxMinor: limitMinorField.optional(),
      dailyMaxMinor: limitMinorField.optional(),
      weeklyMaxMinor: limitMinorField.optional(),
      monthlyMaxMinor: limitMinorField.optional(),
      yearlyMaxMinor: limitMinorField.optional(),
      perHourCountMax: limitCountField.optional(),
      perDayCountMax: limitCountField.optional(),
    })
    .refine((limits) => Object.values(limits).some((value) => value !== undefined), 'at least one limit'),
  reason: z.string().trim().min(1).max(500),
  actor: adminActorSchema,
  approval: adminApprovalSchema,
});
export type WalletTierLimitRequest = z.output<typeof walletTierLimitRequestSchema>;

// ---- Reads for the back-office console --------------------------------------------------------

export const walletAdminReadPaths = {
  transactions: '/internal/admin/transactions',
  partnerBalances: (partnerId: string): string => `/internal/admin/partners/${encodeURIComponent(partnerId)}/balances`,
  ledgerCheck: '/internal/ledger/invariants',
} as const;

const instantText = z.iso.datetime({ offset: true });

/**
 * GET /internal/admin/transactions: posted transactions across partners, newest first (keyset
 * pages by postedAt to the microsecond and transfer id), filtered by any of referenceId,
 * externalId, the user's phone (E.164), partnerId, and postedAt in [from, to).
 */
export const walletAdminTransactionQuerySchema = z.strictObject({
  referenceId: z.string().min(1).max(100).optional(),
  externalId: z.string().min(1).max(100).optional(),
  phone: z.string().regex(/^\+231\d{8,9}$/, 'a Liberian mobile number in E.164 (+231…)').optional(),
  partnerId: uuidField.optional(),
  from: instantText.optional(),
  to: instantText.optional(),
  afterPostedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/).optional(),
  afterId: uuidField.optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type WalletAdminTransactionQuery = z.output<typeof walletAdminTransactionQuerySchema>;

export const walletAdminTransactionSchema = z.object({
  transferId: uuidField,
  transactionId: transactionIdField,
  kind: z.string(),
  partnerId: uuidField.nullable(),
  phone: z.string().nullable(),
  currency: currencyField,
  amountMinor: minorUnitsField,
  feeMinor: z.string().regex(/^\d+$/),
  referenceId: z.string().nullable(),
  externalId: z.string().nullable(),
  /** UTC to the microsecond: the keyset position. */
  postedAt: z.string(),
});
export type WalletAdminTransaction = z.output<typeof walletAdminTransactionSchema>;

export const walletAdminTransactionPageSchema = z.object({
  transactions: z.array(walletAdminTransactionSchema),
  next: z.object({ postedAt: z.string(), id: uuidField }).nullable(),
});

/** GET /internal/admin/partners/{partnerId}/balances: the partner's ledger accounts (none yet: an empty list). */
export const walletAdminPartnerBalancesSchema = z.object({
  partnerId: uuidField,
  balances: z.array(z.object({ currency: currencyField, balanceMinor: z.string().regex(/^\d+$/) })),
});

/** GET /internal/ledger/invariants: the ledger check (services/wallet check-ledger), as the console shows it. */
export const walletLedgerCheckSchema = z.object({
  ok: z.boolean(),
  currencies: z.array(z.object({ currency: currencyField, balancesSumMinor: z.string(), entriesSumMinor: z.string(), accountCount: z.number(), postingCount: z.number() })),
  problems: z.array(z.object({ invariant: z.string(), message: z.string() })),
});

/** A phone as a person types it (0777…, +231 777 …) in the E.164 form the wallet searches by; undefined when it is not a Liberian mobile number. */
export function adminSearchPhone(input: string): string | undefined {
  return normaliseLiberianPhone(input);
}

/** GET /internal/admin/disbursements/{referenceId}: a completed disbursement and its reversal, if any; 404 PKC_6002 when no completed disbursement has the referenceId. */
export const walletAdminDisbursementPath = (referenceId: string): string => `/internal/admin/disbursements/${encodeURIComponent(referenceId)}`;

export const walletAdminDisbursementSchema = z.object({
  referenceId: z.string(),
  transactionId: transactionIdField,
  partnerId: uuidField,
  currency: currencyField,
  amountMinor: minorUnitsField,
  /** The reversal's TXN-… once it was reversed (at most once); null before. */
  reversalTransactionId: transactionIdField.nullable(),
});
