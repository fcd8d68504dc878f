import { decisionRefusal, fourEyesActions, isFourEyesAction, mayRequestChange, requestLifetimeSeconds, type ApprovalRequestState } from '../../src/domain/approval-rules';
import { isOperatorRole, mayPerform, operatorCapabilities, operatorRoles } from '../../src/domain/operator-roles';

const maker = '00000000-0000-4000-8000-000000000001';
const checker = '00000000-0000-4000-8000-000000000002';
const now = new Date('2026-11-28T12:00:00Z');
const pending = (overrides: Partial<ApprovalRequestState> = {}): ApprovalRequestState => ({ makerId: maker, status: 'pending', expiresAt: new Date('2026-11-29T12:00:00Z'), ...overrides });

describe('operator roles', () => {
  test('when each role is asked for each capability, then only the documented ones are granted', () => {
    const granted = Object.fromEntries(operatorRoles.map((role) => [role, operatorCapabilities.filter((capability) => mayPerform([role], capability))]));
    expect(granted).toEqual({
      viewer: ['read'],
      maker: ['read', 'request-change'],
      checker: ['read', 'decide-request', 'read-audit'],
      admin: ['read', 'read-audit', 'manage-operators'],
    });
  });

  test('when a person holds no role, then they may do nothing', () => {
    expect(mayPerform([], 'read')).toBe(false);
    expect(mayRequestChange([])).toBe(false);
  });

  test('when a role name is checked, then only the four roles are roles', () => {
    expect(operatorRoles.every(isOperatorRole)).toBe(true);
    expect(isOperatorRole('superuser')).toBe(false);
    expect(isOperatorRole('Admin')).toBe(false);
  });
});

describe('four-eyes decisions', () => {
  test('when a checker decides someone else’s pending, unexpired request, then nothing refuses it', () => {
    expect(decisionRefusal(pending(), { operatorId: checker, roles: ['checker'] }, now)).toBeUndefined();
  });

  test('when the maker decides their own request, then it is refused even with the checker role', () => {
    expect(decisionRefusal(pending(), { operatorId: maker, roles: ['maker', 'checker'] }, now)).toBe('own-request');
  });

  test('when a maker, viewer or admin without the checker role decides, then it is refused', () => {
    for (const roles of [['maker'], ['viewer'], ['admin'], []] as const) {
      expect(decisionRefusal(pending(), { operatorId: checker, roles }, now)).toBe('not-a-checker');
    }
  });

  test('when the request was decided or executed already, then a second decision is refused', () => {
    for (const status of ['approved', 'rejected', 'executed'] as const) {
      expect(decisionRefusal(pending({ status }), { operatorId: checker, roles: ['checker'] }, now)).toBe('already-decided');
    }
  });

  test('when the request expired, by its status or by the clock at the very instant, then it is refused as expired', () => {
    expect(decisionRefusal(pending({ status: 'expired' }), { operatorId: checker, roles: ['checker'] }, now)).toBe('expired');
    expect(decisionRefusal(pending({ expiresAt: now }), { operatorId: checker, roles: ['checker'] }, now)).toBe('expired');
    expect(decisionRefusal(pending({ expiresAt: new Date(now.getTime() + 1) }), { operatorId: checker, roles: ['checker'] }, now)).toBeUndefined();
  });

  test('when a lifetime is asked for, then 24 h is the default and 60 s to 7 days are allowed', () => {
    expect(requestLifetimeSeconds(undefined)).toBe(86_400);
    expect(requestLifetimeSeconds(60)).toBe(60);
    expect(requestLifetimeSeconds(604_800)).toBe(604_800);
    for (const wrong of [59, 604_801, 1.5, Number.NaN]) expect(() => requestLifetimeSeconds(wrong)).toThrow(/60 to 604800/);
  });

  test('when an action name is checked, then the eight four-eyes actions are the ones the issue lists', () => {
    expect(fourEyesActions).toHaveLength(8);
    expect(isFourEyesAction('partner.fund')).toBe(true);
    expect(isFourEyesAction('partner.onboard')).toBe(false);
  });
});
