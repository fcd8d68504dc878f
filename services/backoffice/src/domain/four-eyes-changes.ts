import { z } from '@pwa/config';
import type { FourEyesAction } from './approval-rules';

/**
 * What each four-eyes action changes, as the maker must state it: the target's kind and the
 * parameters, checked before a request is stored, so a checker approves exactly what will run.
 * Amounts are minor units as decimal strings (never floats); the owning services check them again
 * when the approved request executes.
 */
const uuid = z.string().uuid();
const currency = z.enum(['LRD', 'USD']);
const amountMinor = z.string().regex(/^[1-9]\d{0,15}$/, 'a positive whole number of minor units, as a string (125050 for 1,250.50)');
const wholeMinor = z.string().regex(/^(0|[1-9]\d{0,15})$/, 'a whole number of minor units, as a string, without leading zeros');
const partnerTarget = z.object({ kind: z.literal('partner'), id: uuid }).strict();
const feeTier = z.object({ upToMinor: amountMinor.nullable(), flatMinor: wholeMinor, basisPoints: z.number().int().min(0).max(10_000) }).strict();
const feeScheduleParameters = z
  .object({ tiers: z.array(feeTier).min(1).max(20).optional(), minimumFeeMinor: wholeMinor.optional(), maximumFeeMinor: wholeMinor.optional() })
  .strict()
  .refine((value) => Object.keys(value).length > 0, 'at least one of tiers, minimumFeeMinor, maximumFeeMinor');
const tierLimitParameters = z
  .object({
    perTransactionMinor: amountMinor.optional(),
    dailyMinor: amountMinor.optional(),
    weeklyMinor: amountMinor.optional(),
    monthlyMinor: amountMinor.optional(),
    yearlyMinor: amountMinor.optional(),
    perHourCount: z.number().int().min(1).max(1_000_000).optional(),
    perDayCount: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, 'at least one limit');
export type FeeScheduleParameters = z.infer<typeof feeScheduleParameters>;
export type TierLimitParameters = z.infer<typeof tierLimitParameters>;

const changeShapes = {
  'partner.fund': { target: partnerTarget, parameters: z.object({ currency, amountMinor }).strict() },
  'partner.funding.correct': {
    target: partnerTarget,
    parameters: z.object({ currency, amountMinor, direction: z.enum(['debit', 'credit']), correctsRequestId: uuid }).strict(),
  },
  'disbursement.reverse': { target: z.object({ kind: z.literal('disbursement'), id: z.string().regex(/^[A-Z]{3}-[0-9A-Z-]{4,64}$/, 'a disbursement referenceId') }).strict(), parameters: z.object({}).strict() },
  'fee_schedule.set': {
    target: z.object({ kind: z.literal('fee_schedule'), id: z.string().regex(/^(collection|disbursement):(LRD|USD)$/, 'type:currency, e.g. collection:USD') }).strict(),
    parameters: feeScheduleParameters,
  },
  'tier_limit.set': {
    target: z.object({ kind: z.literal('tier_limit'), id: z.string().regex(/^(Basic|Silver|Gold|Platinum):(collection|disbursement):(LRD|USD)$/, 'tier:type:currency, e.g. Gold:collection:USD') }).strict(),
    parameters: tierLimitParameters,
  },
  'partner.status.set': { target: partnerTarget, parameters: z.object({ status: z.enum(['active', 'suspended', 'inactive']) }).strict() },
  'partner.permissions.set': {
    target: partnerTarget,
    parameters: z.object({ permissions: z.array(z.enum(['collection', 'disbursement'])).max(2).refine((list) => new Set(list).size === list.length, 'each permission once') }).strict(),
  },
  'partner.rate_limit.set': { target: partnerTarget, parameters: z.object({ rateLimitPerMinute: z.number().int().min(1).max(1_000_000_000).nullable() }).strict() },
} satisfies Record<FourEyesAction, { target: z.ZodType; parameters: z.ZodType }>;

export type ChangeCheck = { ok: true } | { ok: false; problems: string[] };

/** Whether the target and parameters are what the action needs; the problems name the fields, never echo values. */
export function checkFourEyesChange(action: FourEyesAction, change: { target: unknown; parameters: unknown }): ChangeCheck {
  const shape = changeShapes[action];
  const problems = [
    ...issuesOf('target', shape.target.safeParse(change.target)),
    ...issuesOf('parameters', shape.parameters.safeParse(change.parameters)),
  ];
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

function issuesOf(root: string, result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] {
  if (result.success) return [];
  return (result.error?.issues ?? []).map((issue) => `${[root, ...issue.path.map(String)].join('.')}: ${issue.message}`);
}

/**
 * The target its owning service can tell exists, checked when the request is made, so a checker
 * never approves a change to something that is not there: a partner (auth) or a disbursement not
 * reversed yet (the wallet). Fee schedules and tier limits name a fixed set the shape already checks.
 */
export type OwnerCheckedTarget = { kind: 'partner'; partnerId: string } | { kind: 'disbursement'; referenceId: string };

export function ownerCheckedTargetOf(action: FourEyesAction, target: { kind: string; id: string }): OwnerCheckedTarget | undefined {
  if (action === 'disbursement.reverse') return target.kind === 'disbursement' ? { kind: 'disbursement', referenceId: target.id } : undefined;
  if (action === 'fee_schedule.set' || action === 'tier_limit.set') return undefined;
  return target.kind === 'partner' ? { kind: 'partner', partnerId: target.id.toLowerCase() } : undefined;
}

/** `Gold:collection:USD` as the wallet names a tier limit; the shape above has checked the form. */
export function tierLimitTargetOf(id: string): { tier: string; transactionType: string; currency: string } {
  const [tier = '', transactionType = '', currency = ''] = id.split(':');
  return { tier, transactionType, currency };
}

/** `collection:USD` as quotes names a fee schedule; the shape above has checked the form. */
export function feeScheduleTargetOf(id: string): { type: string; currency: string } {
  const [type = '', currency = ''] = id.split(':');
  return { type, currency };
}
