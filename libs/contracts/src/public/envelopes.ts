import { z } from 'zod';
import { errorCatalogue, fieldProblems, invalidFieldsError, invalidFieldsListedMax, invalidFieldsName, type InvalidField, type PkcCode } from '@pwa/errors';
import { externalIdLengthMax, noteLengthMax } from '../confirm-request';
import { amountBoundsText, expectedInputs } from '../input-refusals';

/**
 * The two envelopes of the public API. Every answer but the token endpoint's 200 is one of them;
 * both are closed (no field the document does not name), so a field added in code and not here
 * fails the e2e answer validation.
 */
export function successEnvelopeSchema<Data extends z.ZodType>(data: Data) {
  return z.strictObject({
    success: z.literal(true),
    data,
  });
}

/** Optional fields some refusals carry beside success, code and message (decided in 0038 and the refusal records). */
export type ErrorExtraFields = Readonly<Record<string, z.ZodType>>;

/** One offending field of a validation refusal (decision 0075). */
export const invalidFieldSchema = z
  .strictObject({
    field: z.string().min(1).meta({ description: 'The field as you sent it: a body field, a query or a path parameter (nested ones dotted, items.3.phone); `body` for the body as a whole. At most 64 characters of a name you sent are repeated.', example: 'currency' }),
    problem: z.enum(fieldProblems).meta({
      id: 'InvalidFieldProblem',
      description:
        'missing (absent or null, or empty where text is required), unknown (a field this operation does not take: remove it), wrong_type (another JSON type, or a repeated query parameter), wrong_format (the right type in a form that cannot be read: a date, a UUID, a phone, decimals), not_allowed (not one of the accepted values), out_of_range (a number, a period or a count outside its bounds), too_long (text over its maximum). More may be added: treat an unknown problem as wrong_format.',
      example: 'missing',
    }),
    expected: z.string().min(1).optional().meta({ description: 'What would be accepted, for people (the wording may change); absent for an unknown field.', example: 'LRD or USD' }),
  })
  .meta({ id: 'InvalidField', description: 'One field a validation refusal names, with what was wrong with it.' });

/** The list a validation refusal carries (every PKC_2xxx answer about named fields). */
export const invalidFieldsSchema = z
  .array(invalidFieldSchema)
  .min(1)
  .max(invalidFieldsListedMax)
  .meta({
    description: `On a validation refusal (PKC_2001 to PKC_2010) caused by named fields: the offending fields, each with its problem and what is expected, in the order checked (at most ${invalidFieldsListedMax}; the message counts any more). The message names the same fields in words. Absent when the body as a whole cannot be read (not JSON, a wrong Content-Type, too large).`,
    example: [{ field: 'currency', problem: 'missing', expected: 'LRD or USD' }],
  });

/** Whether refusals with this code may carry invalidFields: the request validation codes (PKC_2XXX). */
export function carriesInvalidFields(code: PkcCode): boolean {
  return code.startsWith('PKC_2');
}

/**
 * The error envelope of one response: `code` is one of the codes the operation answers with this
 * HTTP status (their meanings are in the response's description and in `x-error-codes`). Where one
 * of those codes is a validation code, the envelope may carry invalidFields.
 */
export function errorEnvelopeSchema(codes: readonly PkcCode[], extraFields: ErrorExtraFields = {}) {
  const [first, ...rest] = codes;
  if (first === undefined) throw new Error('an error response needs at least one code');
  const validationFields: ErrorExtraFields = codes.some(carriesInvalidFields) ? { [invalidFieldsName]: invalidFieldsSchema } : {};
  return z.strictObject({
    success: z.literal(false),
    code: z.enum([first, ...rest]).meta({ description: 'The PKC code: act on it.' }),
    message: z.string().min(1).meta({ description: 'For people; the wording may change. It repeats at most 64 characters of a value you sent.' }),
    ...Object.fromEntries(Object.entries({ ...validationFields, ...extraFields }).map(([name, schema]) => [name, schema.optional()])),
  });
}

/** An example error body of a code: its catalogue message, as the API answers it by default (validation refusals name their fields, see validationErrorExample). */
export function errorExample(code: PkcCode, fields: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const named = invalidFieldExamples[code];
  if (named === undefined || Object.keys(fields).length > 0) return { success: false, code, message: errorCatalogue[code].message, ...fields };
  const error = invalidFieldsError(code, named);
  return { success: false, code, message: error.message, ...error.fields };
}

/** The field each validation code's example names, as the API would answer it. */
const invalidFieldExamples: Partial<Record<PkcCode, readonly InvalidField[]>> = {
  PKC_2001: [{ field: 'phone', problem: 'wrong_format', expected: expectedInputs.phone }],
  PKC_2002: [{ field: 'amount', problem: 'wrong_type', expected: expectedInputs.amount }],
  PKC_2003: [{ field: 'amount', problem: 'out_of_range', expected: amountBoundsText('USD') }],
  PKC_2004: [{ field: 'amount', problem: 'out_of_range', expected: amountBoundsText('USD') }],
  PKC_2005: [{ field: 'currency', problem: 'not_allowed', expected: expectedInputs.currency }],
  PKC_2006: [{ field: 'externalId', problem: 'too_long', expected: `at most ${externalIdLengthMax} characters` }],
  PKC_2007: [{ field: 'note', problem: 'too_long', expected: `at most ${noteLengthMax} characters` }],
  PKC_2008: [{ field: 'currency', problem: 'missing', expected: expectedInputs.currency }],
  PKC_2009: [{ field: 'quoteId', problem: 'wrong_format', expected: expectedInputs.quoteId }],
  PKC_2010: [{ field: 'currency', problem: 'not_allowed', expected: 'LRD' }],
};
