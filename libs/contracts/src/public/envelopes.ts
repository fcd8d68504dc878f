import { z } from 'zod';
import { errorCatalogue, type PkcCode } from '@pwa/errors';

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

/**
 * The error envelope of one response: `code` is one of the codes the operation answers with this
 * HTTP status (their meanings are in the response's description and in `x-error-codes`).
 */
export function errorEnvelopeSchema(codes: readonly PkcCode[], extraFields: ErrorExtraFields = {}) {
  const [first, ...rest] = codes;
  if (first === undefined) throw new Error('an error response needs at least one code');
  return z.strictObject({
    success: z.literal(false),
    code: z.enum([first, ...rest]).meta({ description: 'The PKC code: act on it.' }),
    message: z.string().min(1).meta({ description: 'For people; the wording may change. It repeats at most 64 characters of a value you sent.' }),
    ...Object.fromEntries(Object.entries(extraFields).map(([name, schema]) => [name, schema.optional()])),
  });
}

/** An example error body of a code: its catalogue message, as the API answers it by default. */
export function errorExample(code: PkcCode, fields: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { success: false, code, message: errorCatalogue[code].message, ...fields };
}
