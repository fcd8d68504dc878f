import { randomUUID } from 'node:crypto';
import { decidePartnerAccess, rateLimitPerMinuteOf, type PartnerRecord } from '../../src/domain/partner-access';

function partner(overrides: Partial<PartnerRecord> = {}): PartnerRecord {
  return { partnerId: randomUUID(), clientId: randomUUID(), status: 'active', permissions: ['collection', 'disbursement'], rateLimitPerMinute: null, ...overrides };
}

describe('decidePartnerAccess', () => {
  test('when an active partner has the permission, then it is allowed', () => {
    const record = partner();

    expect(decidePartnerAccess(record, 'disbursement')).toEqual({ allowed: true, partner: record });
  });

  test('when a route needs no permission, then an active partner without any is allowed', () => {
    expect(decidePartnerAccess(partner({ permissions: [] }), null)).toMatchObject({ allowed: true });
  });

  test.each([
    ['suspended', 'PKC_1006'],
    ['pending_activation', 'PKC_1007'],
    ['inactive', 'PKC_1009'],
  ] as const)('when the partner is %s, then it is refused with %s, whatever its permissions', (status, code) => {
    expect(decidePartnerAccess(partner({ status }), 'collection')).toEqual({ allowed: false, code });
    expect(decidePartnerAccess(partner({ status, permissions: [] }), 'collection')).toEqual({ allowed: false, code });
  });

  test('when auth does not know the partner, then it is refused with PKC_1009', () => {
    expect(decidePartnerAccess(undefined, null)).toEqual({ allowed: false, code: 'PKC_1009' });
  });

  test('when an active partner lacks the permission, then it is refused with PKC_1008', () => {
    expect(decidePartnerAccess(partner({ permissions: ['collection'] }), 'disbursement')).toEqual({ allowed: false, code: 'PKC_1008' });
  });
});

describe('rateLimitPerMinuteOf', () => {
  test('when the operator set no limit, then the default applies; otherwise the partner limit', () => {
    expect(rateLimitPerMinuteOf(partner(), 60)).toBe(60);
    expect(rateLimitPerMinuteOf(partner({ rateLimitPerMinute: 600 }), 60)).toBe(600);
  });
});
