import type { ConsumeMessage, Options } from 'amqplib';
import { parseEventEnvelope, type EventEnvelope } from '@pwa/contracts';

/**
 * Persistent (survives a broker restart once confirmed), and carrying the trace context as an
 * AMQP header too, so tools that read headers (and consumers on other stacks) can follow the trace.
 */
export function publishOptions(envelope: EventEnvelope, serviceName: string): Options.Publish {
  return {
    persistent: true,
    contentType: 'application/json',
    messageId: envelope.eventId,
    type: envelope.type,
    appId: serviceName,
    timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
    headers: envelope.traceparent === undefined ? {} : { traceparent: envelope.traceparent },
  };
}

export function encodeEnvelope(envelope: EventEnvelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/**
 * Reads the envelope from a delivered message, or throws (bad JSON, or a ContractViolationError).
 * The body's traceparent wins; the header is the fallback for producers that only set headers.
 */
export function decodeEnvelope(message: Pick<ConsumeMessage, 'content' | 'properties'>): EventEnvelope {
  const envelope = parseEventEnvelope(JSON.parse(message.content.toString('utf8')));
  const headerTraceparent: unknown = message.properties.headers?.traceparent;
  if (envelope.traceparent === undefined && typeof headerTraceparent === 'string' && headerTraceparent !== '') {
    return { ...envelope, traceparent: headerTraceparent };
  }
  return envelope;
}
