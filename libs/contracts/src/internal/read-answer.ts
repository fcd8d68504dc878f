import type { z } from 'zod';
import { PkcError, errorFieldsOf, invalidFieldsName, isInvalidFieldList, isPkcCode, type InvalidField, type PkcCode } from '@pwa/errors';
import { refusalSchema } from './wire-fields';

/** What an upstream's answer means to its caller under the provider's contract. */
export type ContractAnswer<T> =
  | { kind: 'answer'; data: T }
  | { kind: 'refusal'; code: PkcCode; message: string | undefined; invalidFields?: InvalidField[] }
  | { kind: 'outside_contract'; problem: string };

/**
 * Reads an answer (status and JSON body) by the provider's contract: a 200 that parses with the
 * answer schema, a refusal whose code the caller passes on, or anything else, which is outside the
 * contract and the caller's to judge (PKC_7002, or "fate unknown" where money may have moved).
 */
export function readContractAnswer<S extends z.ZodType>(
  answer: { status: number; body: unknown },
  schema: S,
  refusalsPassedOn: ReadonlySet<PkcCode>,
): ContractAnswer<z.output<S>> {
  if (answer.status === 200) {
    const parsed = schema.safeParse(answer.body);
    if (parsed.success) return { kind: 'answer', data: parsed.data };
    return { kind: 'outside_contract', problem: `200 whose body does not match the contract: ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}` };
  }
  const refusal = refusalSchema.safeParse(answer.body);
  if (refusal.success && isPkcCode(refusal.data.code) && refusalsPassedOn.has(refusal.data.code)) {
    const invalidFields = (answer.body as Record<string, unknown>)[invalidFieldsName];
    return { kind: 'refusal', code: refusal.data.code, message: refusal.data.message, ...(isInvalidFieldList(invalidFields) ? { invalidFields } : {}) };
  }
  return { kind: 'outside_contract', problem: refusal.success ? `${answer.status} with code ${refusal.data.code}, which this caller does not pass on` : `${answer.status} without the error envelope` };
}

/**
 * The upstream's refusal as this service's own error, to pass on to its caller unchanged: the code,
 * the message and, for a validation refusal, the fields it named (decision 0075).
 */
export function passedOnRefusal(refusal: { code: PkcCode; message: string | undefined; invalidFields?: InvalidField[] }): PkcError {
  return new PkcError(refusal.code, refusal.message, refusal.invalidFields === undefined ? undefined : { fields: errorFieldsOf(refusal.invalidFields) });
}
