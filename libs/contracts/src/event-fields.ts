import { z } from 'zod';
import { ContractViolationError } from './contract-violation';
import type { EventEnvelope } from './envelope';

/**
 * Field schemas that the collection and disbursement events share: they carry the spec's webhook
 * fields, so the webhooks service can sign and deliver them without asking the producer anything.
 */
export const eventCurrencies = ['LRD', 'USD'] as const;
export type EventCurrency = (typeof eventCurrencies)[number];

export const transactionIdField = z.string().regex(/^TXN-[0-9A-F]+$/);
export const externalIdField = z.string().min(1).max(100);
/** API amounts: JSON numbers in major units with at most two decimals, as the partner sees them. */
export const apiAmountField = z.number().positive();
export const apiFeeField = z.number().min(0);
export const failureCodeField = z.string().regex(/^PKC_\d{4}$/);

/**
 * Why a collection or disbursement failed, as the partner is told it (status endpoint and webhook):
 * a PKC code of the catalogue and a message written for partners (never an internal detail).
 * Optional on the `*.failed` events of version 1: events recorded before it existed carry only
 * `failureCode`, and consumers must accept both.
 */
export const failureReasonField = z.object({
  code: failureCodeField,
  message: z.string().min(1).max(300),
});
export type FailureReason = z.infer<typeof failureReasonField>;

interface EventContract<Type extends string, Data> {
  /** "collection", "disbursement": used in the messages of violations. */
  family: string;
  types: readonly Type[];
  versions: readonly number[];
  parseData: (value: unknown) => Data;
}

/**
 * Narrows an envelope to an event of one family: a known type, a known version of its data, data
 * that parses, and data that agrees with its envelope (same type and event id). Throws
 * ContractViolationError otherwise, which the bus dead-letters since a retry cannot fix it.
 */
export function parseFamilyEvent<Type extends string, Data extends { event: Type; eventId: string }>(
  envelope: EventEnvelope,
  contract: EventContract<Type, Data>,
): EventEnvelope<Data> & { type: Type } {
  const type = contract.types.find((candidate) => candidate === envelope.type);
  if (type === undefined) {
    throw new ContractViolationError(`Not a ${contract.family} event`, [`type: expected one of ${contract.types.join(', ')}`]);
  }
  if (!contract.versions.includes(envelope.version)) {
    throw new ContractViolationError(`Unsupported ${contract.family} event version`, [`version: ${envelope.version} is not supported`]);
  }
  const data = contract.parseData(envelope.data);
  const problems = [
    ...(data.event === type ? [] : ['data.event: differs from the envelope type']),
    ...(data.eventId === envelope.eventId ? [] : ['data.eventId: differs from the envelope eventId']),
  ];
  if (problems.length > 0) throw new ContractViolationError(`Inconsistent ${type} event`, problems);
  return { ...envelope, type, data };
}

export function parseWith<T>(schema: z.ZodType<T>, message: string, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw ContractViolationError.fromZodError(message, parsed.error);
  return parsed.data;
}

/** What each event family exports: its type guard, its data parser and its envelope parser. */
export interface EventFamily<Type extends string, Data extends { event: Type; eventId: string }> {
  isType: (type: string) => type is Type;
  /** Parses the `data` of an event of the family, or throws ContractViolationError. */
  parseData: (value: unknown) => Data;
  /** Narrows an envelope to an event of the family, or throws ContractViolationError (dead-letter it). */
  parseEvent: (envelope: EventEnvelope) => EventEnvelope<Data> & { type: Type };
}

/** One family's guard and parsers from its types, supported versions and data schema (see parseFamilyEvent). */
export function defineEventFamily<Type extends string, Data extends { event: Type; eventId: string }>(definition: {
  family: string;
  types: readonly Type[];
  versions: readonly number[];
  dataSchema: z.ZodType<Data>;
  invalidDataMessage: string;
}): EventFamily<Type, Data> {
  const parseData = (value: unknown): Data => parseWith(definition.dataSchema, definition.invalidDataMessage, value);
  return {
    isType: (type: string): type is Type => (definition.types as readonly string[]).includes(type),
    parseData,
    parseEvent: (envelope) => parseFamilyEvent(envelope, { family: definition.family, types: definition.types, versions: definition.versions, parseData }),
  };
}
