import { z } from '@pwa/config';
import { PkcError, echoInput } from '@pwa/errors';
import { currencies } from '@pwa/money';
import { normaliseLiberianPhone } from '@pwa/phone';
import { parseMinorUnitsText } from '../domain/amount-text';
import { transactionTypes } from '../domain/transaction-type';
import type { TransferCheckRequest } from '../use-cases/check-transfer';
import type { TransferRequest } from '../use-cases/post-transfer';

/**
 * Bodies of the internal API. Amounts are strings of minor units ("1050"), never JSON numbers, so
 * they cannot lose precision on the way. Anything malformed is 400 PKC_2008; a phone that is not a
 * Liberian mobile number is 400 PKC_2001, as on the public API.
 */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uuid = z
  .string()
  .regex(uuidPattern, 'must be a UUID')
  .transform((text) => text.toLowerCase());

const minorUnits = z
  .string()
  .refine((text) => parseMinorUnitsText(text) !== undefined, 'must be a string of whole minor units, such as "1050"')
  .transform((text) => BigInt(text));

const checkBodySchema = z.object({
  type: z.enum(transactionTypes),
  partnerId: uuid,
  phone: z.string().min(1).max(32),
  currency: z.enum(currencies),
  amountMinor: minorUnits.refine((minor) => minor > 0n, 'must be greater than zero'),
  feeMinor: minorUnits,
});

const transferBodySchema = checkBodySchema.extend({
  transferId: uuid,
  reference: z.string().max(200).nullish(),
});

export function parseCheckRequest(body: unknown): TransferCheckRequest {
  const parsed = parseOrRefuse(checkBodySchema, body);
  return { ...parsed, phone: normalisedPhone(parsed.phone) };
}

export function parseTransferRequest(body: unknown): TransferRequest {
  const parsed = parseOrRefuse(transferBodySchema, body);
  return { ...parsed, phone: normalisedPhone(parsed.phone), reference: parsed.reference ?? null };
}

export function parseTransferId(text: string): string {
  return parseOrRefuse(uuid, text);
}

function normalisedPhone(text: string): string {
  const phone = normaliseLiberianPhone(text);
  if (phone === undefined) throw new PkcError('PKC_2001');
  return phone;
}

function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // Field names come from the schema, but a message may still carry a client's text: cap each.
  const problems = parsed.error.issues.slice(0, 10).map((issue) => `${echoInput(issue.path.join('.') || 'body')}: ${echoInput(issue.message)}`);
  throw new PkcError('PKC_2008', `Malformed request: ${problems.join('; ')}`);
}
