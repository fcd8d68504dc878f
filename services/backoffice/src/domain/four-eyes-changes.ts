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
const partnerTarget = z.object({ kind: z.literal('partner'), id: uuid }).strict();

const changeShapes = {
  'partner.fund': { target: partnerTarget, parameters: z.object({ currency, amountMinor }).strict() },
  'partner.funding.correct': {
    target: partnerTarget,
    parameters: z.object({ currency, amountMinor, direction: z.enum(['debit', 'credit']), correctsRequestId: uuid }).strict(),
  },
  'disbursement.reverse': { target: z.object({ kind: z.literal('disbursement'), id: z.string().regex(/^[A-Z]{3}-[0-9A-Z-]{4,64}$/, 'a disbursement referenceId') }).strict(), parameters: z.object({}).strict() },
  'fee_schedule.set': {
    target: z.object({ kind: z.literal('fee_schedule'), id: z.string().regex(/^(collection|disbursement):(LRD|USD)$/, 'type:currency, e.g. collection:USD') }).strict(),
    parameters: z
      .object({
        tiers: z.array(z.object({ upToMinor: amountMinor.nullable(), flatMinor: z.string().regex(/^\d{1,16}$/), basisPoints: z.number().int().min(0).max(10_000) }).strict()).min(1).max(20).optional(),
        minimumFeeMinor: z.string().regex(/^\d{1,16}$/).optional(),
        maximumFeeMinor: amountMinor.optional(),
      })
      .strict()
      .refine((value) => Object.keys(value).length > 0, 'at least one of tiers, minimumFeeMinor, maximumFeeMinor'),
  },
  'tier_limit.set': {
    target: z.object({ kind: z.literal('tier_limit'), id: z.string().regex(/^(Basic|Silver|Gold|Platinum):(collection|disbursement):(LRD|USD)$/, 'tier:type:currency, e.g. Gold:collection:USD') }).strict(),
    parameters: z
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
      .refine((value) => Object.keys(value).length > 0, 'at least one limit'),
  },
  'partner.status.set': { target: partnerTarget, parameters: z.object({ status: z.enum(['active', 'suspended', 'inactive']) }).strict() },
  'partner.permissions.set': { target: partnerTarget, parameters: z.object({ permissions: z.array(z.enum(['collection', 'disbursement'])).max(2) }).strict() },
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
