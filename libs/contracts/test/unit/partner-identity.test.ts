import { PkcError } from '@pwa/errors';
import {
  assertedPartnerOf,
  clientActor,
  isUuid,
  memberActor,
  partnerChangeLogFields,
  partnerIdentityHeaderNames,
  partnerIdentityHeadersOf,
  partnerIdentityRefusalCode,
  partnerIdentityRefusalMessage,
  rfc9562UuidPattern,
  uuidPattern,
  type RequestHeaders,
} from '../../src';

const partnerId = '0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a';
const clientId = '7d1e6a52-3b0f-4c1d-8e2a-9f4b5c6d7e8f';

function refusalOf(headers: RequestHeaders): { code: string; message: string; httpStatus: number } | undefined {
  try {
    assertedPartnerOf(headers);
    return undefined;
  } catch (error) {
    if (!(error instanceof PkcError)) throw error;
    return { code: error.code, message: error.message, httpStatus: error.httpStatus };
  }
}

describe('assertedPartnerOf: the partner an edge says is calling', () => {
  it.each([
    ['no x-partner-id header', {}],
    ['an empty x-partner-id', { 'x-partner-id': '' }],
    ['a name instead of an id', { 'x-partner-id': 'acme' }],
    ['an id one digit short', { 'x-partner-id': partnerId.slice(1) }],
    ['the header as an array', { 'x-partner-id': [partnerId] }],
    ['only a client id and permissions', { 'x-partner-client-id': clientId, 'x-partner-permissions': 'collection' }],
  ])('when the request has %s, then it is the one 403 PKC_6005 refusal', (_case, headers) => {
    expect(refusalOf(headers)).toEqual({ code: 'PKC_6005', message: 'x-partner-id header missing or not a UUID', httpStatus: 403 });
  });

  it('when the refusal is read from the module, then it is the code and message every service answers with', () => {
    expect({ code: partnerIdentityRefusalCode, message: partnerIdentityRefusalMessage }).toEqual({ code: 'PKC_6005', message: 'x-partner-id header missing or not a UUID' });
  });

  it('when only x-partner-id is sent, then the partner is known (in lower case) and the client and permissions are not', () => {
    expect(assertedPartnerOf({ 'x-partner-id': partnerId.toUpperCase() })).toEqual({ partnerId, clientId: undefined, permissions: undefined });
  });

  it('when the edge sends all three headers, then the identity is read whole, ids in lower case', () => {
    const headers = { 'x-partner-id': partnerId, 'x-partner-client-id': clientId.toUpperCase(), 'x-partner-permissions': 'collection,disbursement' };
    expect(assertedPartnerOf(headers)).toEqual({ partnerId, clientId, permissions: ['collection', 'disbursement'] });
  });

  it('when the client id is sent but is not a UUID, then the request is refused with PKC_6005 naming that header', () => {
    expect(refusalOf({ 'x-partner-id': partnerId, 'x-partner-client-id': 'client-1' })).toEqual({ code: 'PKC_6005', message: 'x-partner-client-id header not a UUID', httpStatus: 403 });
  });
});

describe('assertedPartnerOf: the permissions header', () => {
  it.each([
    ['empty (a partner without permissions)', '', []],
    ['one permission', 'disbursement', ['disbursement']],
    ['both, as the gateway writes them', 'collection,disbursement', ['collection', 'disbursement']],
    ['both, with spaces after the commas', 'collection, disbursement', ['collection', 'disbursement']],
  ])('when it is %s, then the permissions are read as listed', (_case, header, permissions) => {
    expect(assertedPartnerOf({ 'x-partner-id': partnerId, 'x-partner-permissions': header }).permissions).toEqual(permissions);
  });

  it.each([
    ['a permission the platform does not have', 'collection,refund'],
    ['a permission in upper case', 'COLLECTION'],
    ['the header as an array', ['collection']],
  ])('when it names %s, then the request is refused with PKC_6005 naming that header', (_case, header) => {
    expect(refusalOf({ 'x-partner-id': partnerId, 'x-partner-permissions': header })).toEqual({
      code: 'PKC_6005',
      message: 'x-partner-permissions header names a permission other than collection, disbursement',
      httpStatus: 403,
    });
  });
});

describe('partnerIdentityHeadersOf: what an edge writes', () => {
  it('when an edge admitted a partner, then it writes the three headers, permissions comma-separated', () => {
    expect(partnerIdentityHeadersOf({ partnerId, clientId, permissions: ['collection', 'disbursement'] })).toEqual({
      'x-partner-id': partnerId,
      'x-partner-client-id': clientId,
      'x-partner-permissions': 'collection,disbursement',
    });
  });

  it('when the partner has no permissions, then the permissions header is empty and reads back as none', () => {
    const headers = partnerIdentityHeadersOf({ partnerId, clientId, permissions: [] });
    expect(headers[partnerIdentityHeaderNames.permissions]).toBe('');
    expect(assertedPartnerOf(headers)).toEqual({ partnerId, clientId, permissions: [] });
  });

  it('when the written headers are read back, then the same identity comes out', () => {
    const identity = { partnerId, clientId, permissions: ['disbursement'] as const };
    expect(assertedPartnerOf(partnerIdentityHeadersOf(identity))).toEqual(identity);
  });
});

describe('the UUID patterns', () => {
  const version4 = '0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a';
  const noVersion = '00000000-0000-0000-0000-000000000000';

  it('when an id has the 8-4-4-4-12 hex form in either case, then uuidPattern and isUuid take it whatever its version', () => {
    for (const id of [version4, version4.toUpperCase(), noVersion]) {
      expect(uuidPattern.test(id)).toBe(true);
      expect(isUuid(id)).toBe(true);
    }
  });

  it('when an id has no RFC 9562 version or variant, then only the lenient pattern takes it', () => {
    expect(rfc9562UuidPattern.test(version4)).toBe(true);
    expect(rfc9562UuidPattern.test(version4.toUpperCase())).toBe(true);
    expect(rfc9562UuidPattern.test(noVersion)).toBe(false);
    expect(rfc9562UuidPattern.test('0b5c2f7e-8a51-4c0e-7d43-3f3f0c1d2e4a')).toBe(false);
  });

  it('when a value is not a string or has another shape, then isUuid says no', () => {
    for (const value of [undefined, null, 42, '', `${version4}0`, `{${version4}}`, version4.replaceAll('-', '')]) expect(isUuid(value)).toBe(false);
  });
});

describe('assertedPartnerOf: the rate limit the gateway admitted the request under', () => {
  it('when the gateway sends it with the identity, then it is read as a number; without it, it is unknown', () => {
    const headers = partnerIdentityHeadersOf({ partnerId, clientId, permissions: ['collection'] }, { rateLimitPerMinute: 600 });
    expect(headers[partnerIdentityHeaderNames.rateLimitPerMinute]).toBe('600');
    expect(assertedPartnerOf(headers).rateLimitPerMinute).toBe(600);
    expect(assertedPartnerOf({ 'x-partner-id': partnerId }).rateLimitPerMinute).toBeUndefined();
    expect(partnerIdentityHeadersOf({ partnerId, clientId, permissions: [] })).not.toHaveProperty(partnerIdentityHeaderNames.rateLimitPerMinute);
  });

  it.each([['0'], ['-5'], ['60.5'], ['1e3'], [''], ['12345678901']])('when it is %j, then the request is refused with PKC_6005 naming the header', (value) => {
    expect(refusalOf({ 'x-partner-id': partnerId, 'x-partner-rate-limit': value })).toEqual({ code: 'PKC_6005', message: 'x-partner-rate-limit header not a positive whole number', httpStatus: 403 });
  });
});

describe('assertedPartnerOf: the actor (who of the partner acts)', () => {
  const memberId = '3c9a1f0e-2b4d-4e6f-8a0b-1c2d3e4f5a6b';

  it('when the dashboard sends member:<uuid> or the gateway client:<uuid>, then the actor is read in lower case; without the header it is unknown', () => {
    expect(assertedPartnerOf({ 'x-partner-id': partnerId, 'x-partner-actor': `member:${memberId.toUpperCase()}` }).actor).toBe(`member:${memberId}`);
    expect(assertedPartnerOf({ 'x-partner-id': partnerId, 'x-partner-actor': `client:${clientId}` }).actor).toBe(`client:${clientId}`);
    expect(assertedPartnerOf({ 'x-partner-id': partnerId }).actor).toBeUndefined();
  });

  it('when an edge writes the actor with the identity, then the same actor reads back', () => {
    const headers = partnerIdentityHeadersOf({ partnerId, clientId, permissions: ['disbursement'] }, { actor: memberActor(memberId) });
    expect(headers[partnerIdentityHeaderNames.actor]).toBe(`member:${memberId}`);
    expect(assertedPartnerOf(headers)).toMatchObject({ partnerId, clientId, actor: `member:${memberId}` });
    expect(partnerIdentityHeadersOf({ partnerId, clientId, permissions: [] })).not.toHaveProperty(partnerIdentityHeaderNames.actor);
    expect(clientActor(clientId.toUpperCase())).toBe(`client:${clientId}`);
  });

  it.each([
    ['empty', ''],
    ['a bare UUID', memberId],
    ['an operator', `operator:${memberId}`],
    ['a kind in upper case', `MEMBER:${memberId}`],
    ['a member named, not a UUID', 'member:<script>alert(1)</script>'],
    ['a UUID with a trailing part', `member:${memberId}:extra`],
    ['spaces around it', ` member:${memberId} `],
    ['the header as an array', [`member:${memberId}`]],
  ])('when it is %s, then the request is the same 403 PKC_6005 refusal, naming the header but never echoing its value', (_case, header) => {
    const refusal = refusalOf({ 'x-partner-id': partnerId, 'x-partner-actor': header });
    expect(refusal).toEqual({ code: 'PKC_6005', message: 'x-partner-actor header not member:<uuid> or client:<uuid>', httpStatus: 403 });
    if (typeof header === 'string' && header !== '') expect(refusal?.message).not.toContain(header);
  });

  it('when an owner logs a partner change, then the fields are the partner and the actor, null when no edge named one', () => {
    expect(partnerChangeLogFields({ partnerId, actor: `member:${memberId}` })).toEqual({ partnerId, actor: `member:${memberId}` });
    expect(partnerChangeLogFields(assertedPartnerOf({ 'x-partner-id': partnerId }))).toEqual({ partnerId, actor: null });
  });
});
