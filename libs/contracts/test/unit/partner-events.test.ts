import { randomUUID } from 'node:crypto';
import { createEventEnvelope, isContractViolation, parsePartnerEvent, partnerEventTypes, type PartnerEventData } from '@pwa/contracts';

function partnerData(): PartnerEventData {
  return {
    partnerId: randomUUID(),
    clientId: randomUUID(),
    name: 'Acme Money',
    status: 'active',
    permissions: ['collection', 'disbursement'],
    rateLimitPerMinute: 600,
    webhookUrl: 'https://acme.example/hooks/pwa',
  };
}

function violationOf(action: () => unknown): { problems: string[] } {
  try {
    action();
  } catch (error) {
    if (isContractViolation(error)) return error as { problems: string[] };
    throw error;
  }
  throw new Error('expected a contract violation');
}

describe('parsePartnerEvent', () => {
  test.each(partnerEventTypes)('when a valid %s event arrives, then it is returned with typed data', (type) => {
    const data = partnerData();
    const event = parsePartnerEvent(createEventEnvelope({ type, data, producer: 'auth' }));
    expect(event.type).toBe(type);
    expect(event.data).toEqual(data);
  });

  test('when the rate limit and webhook are null, then the event is valid (platform defaults apply)', () => {
    const data = { ...partnerData(), rateLimitPerMinute: null, webhookUrl: null, permissions: [] };
    expect(parsePartnerEvent(createEventEnvelope({ type: 'partner.updated', data, producer: 'auth' })).data).toEqual(data);
  });

  test('when the type is not a partner event, then it is a contract violation', () => {
    const envelope = createEventEnvelope({ type: 'collection.completed', data: partnerData(), producer: 'auth' });
    expect(violationOf(() => parsePartnerEvent(envelope)).problems.join()).toContain('type');
  });

  test('when the version is one this code does not know, then it is a contract violation rather than a guess', () => {
    const envelope = createEventEnvelope({ type: 'partner.updated', data: partnerData(), producer: 'auth', version: 2 });
    expect(violationOf(() => parsePartnerEvent(envelope)).problems.join()).toContain('version');
  });

  test.each([
    ['partnerId is not a uuid', { partnerId: 'p-1' }],
    ['status is unknown', { status: 'deleted' }],
    ['a permission is unknown', { permissions: ['collection', 'refund'] }],
    ['rateLimitPerMinute is zero', { rateLimitPerMinute: 0 }],
    ['rateLimitPerMinute is fractional', { rateLimitPerMinute: 1.5 }],
    ['webhookUrl is not a URL', { webhookUrl: 'acme.example/hooks' }],
    ['webhookUrl is not a web URL', { webhookUrl: 'file:///etc/passwd' }],
    ['name is missing', { name: undefined }],
  ])('when %s, then it is a contract violation naming the field', (_case, override) => {
    const envelope = createEventEnvelope({ type: 'partner.created', data: { ...partnerData(), ...override }, producer: 'auth' });
    const field = Object.keys(override)[0] ?? '';
    expect(violationOf(() => parsePartnerEvent(envelope)).problems.join()).toContain(field);
  });

  test('when the data carries a field the contract does not have (such as a secret), then it is dropped', () => {
    const envelope = createEventEnvelope({ type: 'partner.secret_rotated', data: { ...partnerData(), clientSecret: 's3cr3t' }, producer: 'auth' });
    expect(parsePartnerEvent(envelope).data).not.toHaveProperty('clientSecret');
  });
});
