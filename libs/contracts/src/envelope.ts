import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ContractViolationError } from './contract-violation';

/**
 * The JSON body of every message on the bus. `type` is also the routing key; `version` is the
 * version of the `data` contract for that type, so a consumer can refuse a version it does not know
 * instead of misreading it. Unknown envelope keys are tolerated (and dropped) so producers can add
 * fields before every consumer knows them.
 */
export const eventEnvelopeSchema = z.object({
  eventId: z.uuid(),
  // The type is the routing key, an AMQP short string (at most 255 bytes; our types are ASCII).
  type: z.string().min(1).max(255),
  version: z.number().int().min(1),
  // UTC only ("Z" suffix): every service compares these instants, and offsets invite mistakes.
  occurredAt: z.iso.datetime(),
  producer: z.string().min(1),
  /** W3C trace context of the operation that caused the event, so a trace spans the AMQP hop. */
  traceparent: z.string().min(1).optional(),
  /** x-request-id of the partner request that caused the event, so log lines of its consumers can be found with it. */
  requestId: z.string().min(1).max(128).optional(),
  data: z.unknown().refine((value) => value !== undefined, { message: 'data is required' }),
});

type ParsedEnvelope = z.infer<typeof eventEnvelopeSchema>;

export type EventEnvelope<T = unknown> = Omit<ParsedEnvelope, 'data'> & { data: T };

/** Parses an untrusted value (a message body, an outbox row) into an envelope, or throws ContractViolationError. */
export function parseEventEnvelope(value: unknown): EventEnvelope {
  const parsed = eventEnvelopeSchema.safeParse(value);
  if (!parsed.success) throw ContractViolationError.fromZodError('Invalid event envelope', parsed.error);
  return parsed.data;
}

export interface CreateEventEnvelopeOptions<T> {
  type: string;
  data: T;
  /** The service that emits the event, e.g. "auth". */
  producer: string;
  /** Defaults to a random UUID. Pass one to make the event id part of an idempotent operation. */
  eventId?: string;
  /** Defaults to now. */
  occurredAt?: Date | string;
  traceparent?: string;
  /** The request id of the partner request that caused the event, when there was one. */
  requestId?: string;
  /** Version of the `data` contract; defaults to 1. */
  version?: number;
}

/** Builds a valid envelope, or throws ContractViolationError if the given fields cannot make one. */
export function createEventEnvelope<T>(options: CreateEventEnvelopeOptions<T>): EventEnvelope<T> {
  const occurredAt = options.occurredAt ?? new Date();
  const envelope: EventEnvelope<T> = {
    eventId: options.eventId ?? randomUUID(),
    type: options.type,
    version: options.version ?? 1,
    occurredAt: typeof occurredAt === 'string' ? occurredAt : occurredAt.toISOString(),
    producer: options.producer,
    ...(options.traceparent === undefined ? {} : { traceparent: options.traceparent }),
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
    data: options.data,
  };
  parseEventEnvelope(envelope);
  return envelope;
}
