import {
  adminApprovalProblemOf,
  adminSearchPhone,
  authAdminReadPaths,
  authPartnerChangeRequestSchema,
  quotesFeeScheduleRequestSchema,
  walletAdminDisbursementPath,
  walletDisbursementReversalRequestSchema,
  walletTierLimitRequestSchema,
} from '../../src';

/** The admin change contracts of the owning services (decision 0069): the person and the approval are never optional. */
const requestId = '5a0e3c1d-7b2f-4e6a-9c8d-1f2e3d4c5b6a';
const actor = { operatorId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', displayName: 'Checker Kollie' };
const approval = { requestId, makerId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', checkerId: actor.operatorId };

const bodies: [string, { safeParse(value: unknown): { success: boolean } }, Record<string, unknown>][] = [
  ['wallet reversal', walletDisbursementReversalRequestSchema, { requestId, referenceId: 'PKD-1718000000000-0000000000000000000000AA', reason: 'sent to the wrong number' }],
  ['wallet tier limit', walletTierLimitRequestSchema, { requestId, tier: 'Gold', transactionType: 'collection', currency: 'USD', limits: { dailyMaxMinor: '500000' }, reason: 'r' }],
  ['quotes fee schedule', quotesFeeScheduleRequestSchema, { requestId, type: 'collection', currency: 'USD', minimumFeeMinor: '10', reason: 'r' }],
  ['auth partner change', authPartnerChangeRequestSchema, { requestId, partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d', change: { status: 'suspended' }, reason: 'r' }],
];

describe('the admin change contracts', () => {
  it.each(bodies)('when a %s body comes with or without the person and the approval, then only the whole body parses', (_name, schema, body) => {
    expect(schema.safeParse({ ...body, actor, approval }).success).toBe(true);
    expect(schema.safeParse(body).success).toBe(false);
    expect(schema.safeParse({ ...body, actor }).success).toBe(false);
    expect(schema.safeParse({ ...body, approval }).success).toBe(false);
    expect(schema.safeParse({ ...body, actor, approval, extra: true }).success).toBe(false);
  });

  it('when a body changes nothing or more than one setting, then it does not parse', () => {
    expect(walletTierLimitRequestSchema.safeParse({ ...bodies[1]?.[2], limits: {}, actor, approval }).success).toBe(false);
    expect(authPartnerChangeRequestSchema.safeParse({ ...bodies[3]?.[2], change: { status: 'suspended', rateLimitPerMinute: 5 }, actor, approval }).success).toBe(false);
    expect(authPartnerChangeRequestSchema.safeParse({ ...bodies[3]?.[2], change: { permissions: ['collection', 'collection'] }, actor, approval }).success).toBe(false);
    expect(quotesFeeScheduleRequestSchema.safeParse({ ...bodies[2]?.[2], minimumFeeMinor: '010', actor, approval }).success).toBe(false);
  });

  it('when the approval is the maker’s own, not the actor’s, or another request’s, then it is named as the problem', () => {
    expect(adminApprovalProblemOf({ requestId, actor, approval })).toBeUndefined();
    expect(adminApprovalProblemOf({ requestId, actor, approval: { ...approval, makerId: actor.operatorId } })).toMatch(/second person/);
    expect(adminApprovalProblemOf({ requestId, actor: { ...actor, operatorId: approval.makerId }, approval })).toMatch(/checker/);
    expect(adminApprovalProblemOf({ requestId, actor, approval: { ...approval, requestId: approval.makerId } })).toMatch(/idempotency key/);
  });

  it('when the console builds read paths and phones, then the query carries only what was asked and phones come out in E.164', () => {
    expect(authAdminReadPaths.partners({ q: 'Remit & Co', pageSize: 25 })).toBe('/internal/admin/partners?q=Remit+%26+Co&pageSize=25');
    expect(walletAdminDisbursementPath('PKD-1/2')).toBe('/internal/admin/disbursements/PKD-1%2F2');
    expect(adminSearchPhone('0777 123 456')).toBe('+231777123456');
    expect(adminSearchPhone('12345')).toBeUndefined();
  });
});
