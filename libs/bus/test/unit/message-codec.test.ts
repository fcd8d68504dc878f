import { randomUUID } from 'node:crypto';
import type { MessageProperties } from 'amqplib';
import { createEventEnvelope } from '@pwa/contracts';
import { decodeEnvelope, encodeEnvelope, publishOptions } from '../../src/message-codec';

const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function message(content: Buffer, headers: Record<string, unknown> = {}): { content: Buffer; properties: MessageProperties } {
  return { content, properties: { headers } as unknown as MessageProperties };
}

describe('message codec', () => {
  test('when an envelope is encoded and decoded, then it comes back equal', () => {
    const envelope = createEventEnvelope({ type: 'partner.updated', data: { partnerId: randomUUID() }, producer: 'auth', traceparent });
    expect(decodeEnvelope(message(encodeEnvelope(envelope)))).toEqual(envelope);
  });

  test('when the body has no traceparent but the header has, then the header is used', () => {
    const envelope = createEventEnvelope({ type: 'partner.updated', data: {}, producer: 'auth' });
    expect(decodeEnvelope(message(encodeEnvelope(envelope), { traceparent })).traceparent).toBe(traceparent);
  });

  test('when the body is not JSON, then decoding throws', () => {
    expect(() => decodeEnvelope(message(Buffer.from('<xml/>')))).toThrow(SyntaxError);
  });

  test('when the body is JSON but not an envelope, then decoding throws a contract violation', () => {
    expect(() => decodeEnvelope(message(Buffer.from('{"hello":"world"}')))).toThrow(expect.objectContaining({ code: 'CONTRACT_VIOLATION' }));
  });

  test('when publishing, then the message is persistent JSON with the event id and the trace header', () => {
    const envelope = createEventEnvelope({ type: 'partner.created', data: {}, producer: 'auth', traceparent });
    expect(publishOptions(envelope, 'auth')).toMatchObject({
      persistent: true,
      contentType: 'application/json',
      messageId: envelope.eventId,
      type: 'partner.created',
      appId: 'auth',
      headers: { traceparent },
    });
  });
});
