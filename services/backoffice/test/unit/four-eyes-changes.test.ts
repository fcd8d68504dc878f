import { checkFourEyesChange, feeScheduleTargetOf, ownerCheckedTargetOf, tierLimitTargetOf } from '../../src/domain/four-eyes-changes';
import { executableFourEyesActions, fourEyesActions } from '../../src/domain/approval-rules';
import { actionExecutorsOf, type AuthAdminPort, type QuotesAdminPort, type WalletAdminPort } from '../../src/use-cases/action-executors';
import type { ApprovedChange } from '../../src/use-cases/execute-approved-request';

describe('the four-eyes changes', () => {
  test('when the back-office lists what it executes, then every action is there', () => {
    expect([...executableFourEyesActions].sort()).toEqual([...fourEyesActions].sort());
  });

  test('when a change names a partner or a disbursement, then its owner checks it at request time; fee schedules and tier limits are a fixed set', () => {
    const partner = { kind: 'partner', id: '6F1C2B9E-3D4A-4F5B-8C7D-9E0F1A2B3C4D' };
    expect(ownerCheckedTargetOf('partner.fund', partner)).toEqual({ kind: 'partner', partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d' });
    expect(ownerCheckedTargetOf('partner.rate_limit.set', partner)).toEqual({ kind: 'partner', partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d' });
    expect(ownerCheckedTargetOf('disbursement.reverse', { kind: 'disbursement', id: 'PKD-1' })).toEqual({ kind: 'disbursement', referenceId: 'PKD-1' });
    expect(ownerCheckedTargetOf('fee_schedule.set', { kind: 'fee_schedule', id: 'collection:USD' })).toBeUndefined();
    expect(ownerCheckedTargetOf('tier_limit.set', { kind: 'tier_limit', id: 'Gold:collection:USD' })).toBeUndefined();
    expect(tierLimitTargetOf('Gold:collection:USD')).toEqual({ tier: 'Gold', transactionType: 'collection', currency: 'USD' });
    expect(feeScheduleTargetOf('disbursement:LRD')).toEqual({ type: 'disbursement', currency: 'LRD' });
  });

  test('when fee and limit changes are checked, then amounts without leading zeros, at least one field, and each permission once are required', () => {
    expect(checkFourEyesChange('fee_schedule.set', { target: { kind: 'fee_schedule', id: 'collection:USD' }, parameters: { minimumFeeMinor: '0' } })).toEqual({ ok: true });
    expect(checkFourEyesChange('fee_schedule.set', { target: { kind: 'fee_schedule', id: 'collection:USD' }, parameters: { minimumFeeMinor: '01' } })).toMatchObject({ ok: false });
    expect(checkFourEyesChange('tier_limit.set', { target: { kind: 'tier_limit', id: 'Gold:collection:USD' }, parameters: {} })).toMatchObject({ ok: false });
    expect(checkFourEyesChange('partner.permissions.set', { target: { kind: 'partner', id: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d' }, parameters: { permissions: [] } })).toEqual({ ok: true });
    expect(checkFourEyesChange('partner.permissions.set', { target: { kind: 'partner', id: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d' }, parameters: { permissions: ['collection', 'collection'] } })).toMatchObject({
      ok: false,
    });
  });
});

describe('one executor per action', () => {
  const calls: { owner: string; body: unknown }[] = [];
  const record = (owner: string, body: unknown) => {
    calls.push({ owner, body });
    return Promise.resolve({ kind: 'done', result: {} } as const);
  };
  const wallet: WalletAdminPort = {
    executeFunding: (body) => record('wallet.funding', body),
    reverseDisbursement: (body) => record('wallet.reversal', body),
    setTierLimit: (body) => record('wallet.tier-limit', body),
  };
  const auth: AuthAdminPort = { changePartner: (body) => record('auth', body) };
  const quotes: QuotesAdminPort = { setFeeSchedule: (body) => record('quotes', body) };
  const executors = actionExecutorsOf({ wallet, auth, quotes });
  const actor = { operatorId: 'checker', displayName: 'Checker' };
  const approval = { requestId: 'request', makerId: 'maker', checkerId: 'checker' };
  const changeOf = (action: ApprovedChange['request']['action'], target: Record<string, unknown>, parameters: Record<string, unknown>): ApprovedChange => ({
    request: { requestId: 'request', action, target, parameters, reason: 'why', makerId: 'maker', requestedAt: new Date(), expiresAt: new Date(), status: 'approved', checkerId: 'checker', decidedAt: new Date(), decisionNote: null, executedAt: null, executionResult: null },
    actor,
    approval,
  });

  beforeEach(() => {
    calls.length = 0;
  });

  test('when a tier limit change executes, then the wallet gets its own limit names, the target split, the request id, the person and the approval', async () => {
    await executors['tier_limit.set'](changeOf('tier_limit.set', { kind: 'tier_limit', id: 'Silver:disbursement:LRD' }, { dailyMinor: '500', perHourCount: 3 }), null);
    expect(calls).toEqual([
      { owner: 'wallet.tier-limit', body: { requestId: 'request', tier: 'Silver', transactionType: 'disbursement', currency: 'LRD', limits: { dailyMaxMinor: '500', perHourCountMax: 3 }, reason: 'why', actor, approval } },
    ]);
  });

  test('when each other action executes, then it reaches its owner with the request id as the idempotency key', async () => {
    const partner = { kind: 'partner', id: 'partner-1' };
    await executors['partner.fund'](changeOf('partner.fund', partner, { currency: 'USD', amountMinor: '100' }), null);
    await executors['partner.funding.correct'](changeOf('partner.funding.correct', partner, { currency: 'USD', amountMinor: '50', direction: 'debit', correctsRequestId: 'x' }), null);
    await executors['disbursement.reverse'](changeOf('disbursement.reverse', { kind: 'disbursement', id: 'PKD-1' }, {}), null);
    await executors['fee_schedule.set'](changeOf('fee_schedule.set', { kind: 'fee_schedule', id: 'collection:USD' }, { maximumFeeMinor: '900' }), null);
    await executors['partner.status.set'](changeOf('partner.status.set', partner, { status: 'inactive' }), null);
    expect(calls.map((call) => call.owner)).toEqual(['wallet.funding', 'wallet.funding', 'wallet.reversal', 'quotes', 'auth']);
    expect(calls[0]?.body).toMatchObject({ transferId: 'request', partnerId: 'partner-1', direction: 'credit', amountMinor: '100' });
    expect(calls[1]?.body).toMatchObject({ transferId: 'request', direction: 'debit' });
    expect(calls[2]?.body).toEqual({ requestId: 'request', referenceId: 'PKD-1', reason: 'why', actor, approval });
    expect(calls[3]?.body).toEqual({ requestId: 'request', type: 'collection', currency: 'USD', maximumFeeMinor: '900', reason: 'why', actor, approval });
    expect(calls[4]?.body).toEqual({ requestId: 'request', partnerId: 'partner-1', change: { status: 'inactive' }, reason: 'why', actor, approval });
  });
});
