import { randomUUID } from 'node:crypto';
import { createEventEnvelope, eventEnvelopeSchema, isContractViolation, parseEventEnvelope } from '@pwa/contracts';

function validEnvelope(): Record<string, unknown> {
  return {
    eventId: randomUUID(),
    type: 'partner.updated',
    version: 1,
    occurredAt: '2025-01-31T10:15:00.000Z',
    producer: 'auth',
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    data: { any: 'thing' },
  };
}

describe('event envelope schema', () => {
  test('when every field is valid, then the envelope parses unchanged', () => {
    const envelope = validEnvelope();
    expect(parseEventEnvelope(envelope)).toEqual(envelope);
  });

  test('when traceparent is absent, then the envelope is still valid', () => {
    const withoutTrace = validEnvelope();
    delete withoutTrace.traceparent;
    expect(eventEnvelopeSchema.safeParse(withoutTrace).success).toBe(true);
  });

  test('when the producer adds an unknown field, then it is tolerated and dropped', () => {
    const parsed = parseEventEnvelope({ ...validEnvelope(), addedLater: true });
    expect(parsed).not.toHaveProperty('addedLater');
  });

  test.each([
    ['eventId is not a uuid', { eventId: 'not-a-uuid' }],
    ['type is empty', { type: '' }],
    ['version is zero', { version: 0 }],
    ['version is fractional', { version: 1.5 }],
    ['occurredAt has an offset instead of UTC', { occurredAt: '2025-01-31T10:15:00+01:00' }],
    ['occurredAt is not a date', { occurredAt: 'yesterday' }],
    ['producer is missing', { producer: undefined }],
    ['data is missing', { data: undefined }],
  ])('when %s, then parsing throws a contract violation naming the field', (_case, override) => {
    const candidate = { ...validEnvelope(), ...override };
    let thrown: unknown;
    try {
      parseEventEnvelope(candidate);
    } catch (error) {
      thrown = error;
    }
    expect(isContractViolation(thrown)).toBe(true);
    const field = Object.keys(override)[0] ?? '';
    expect((thrown as { problems: string[] }).problems.join('\n')).toContain(field);
  });

  test('when the body is not an object, then parsing throws a contract violation', () => {
    expect(() => parseEventEnvelope('{"eventId":')).toThrow(/Invalid event envelope/);
  });
});

describe('createEventEnvelope', () => {
  test('when only type, data and producer are given, then it fills a random id, version 1 and the current UTC time', () => {
    const before = Date.now();
    const envelope = createEventEnvelope({ type: 'partner.created', data: { a: 1 }, producer: 'auth' });
    expect(eventEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(envelope.version).toBe(1);
    expect(envelope.occurredAt.endsWith('Z')).toBe(true);
    expect(Date.parse(envelope.occurredAt)).toBeGreaterThanOrEqual(before);
    expect(envelope).not.toHaveProperty('traceparent');
    expect(envelope.data).toEqual({ a: 1 });
  });

  test('when two envelopes are created, then their event ids differ', () => {
    const first = createEventEnvelope({ type: 't', data: {}, producer: 'p' });
    const second = createEventEnvelope({ type: 't', data: {}, producer: 'p' });
    expect(first.eventId).not.toBe(second.eventId);
  });

  test('when eventId, occurredAt and traceparent are given, then they are kept', () => {
    const eventId = randomUUID();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const envelope = createEventEnvelope({
      type: 'partner.updated',
      data: null,
      producer: 'auth',
      eventId,
      occurredAt: new Date('2025-02-01T00:00:00Z'),
      traceparent,
    });
    expect(envelope).toMatchObject({ eventId, occurredAt: '2025-02-01T00:00:00.000Z', traceparent });
  });

  test('when the given event id is not a uuid, then it throws instead of building an invalid envelope', () => {
    expect(() => createEventEnvelope({ type: 't', data: {}, producer: 'p', eventId: '42' })).toThrow(/eventId/);
  });
});
