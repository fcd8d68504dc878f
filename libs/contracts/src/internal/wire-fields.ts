import { z } from 'zod';
import { currencies, minorUnitsText, parseMinorUnitsText, type MinorUnits } from '@pwa/money';

/**
 * Fields every internal contract spells the same way. Amounts travel as decimal strings of minor
 * units ("1050" is 10.50; libs/money's one codec), never JSON numbers; instants as ISO 8601 with
 * "Z" or an offset; ids as UUIDs (compared in lower case).
 */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID as RFC 9562 (formerly RFC 4122) defines one: the version nibble 1 to 8 and the variant
 * bits 10. uuidPattern takes any 8-4-4-4-12 hex id, as every id the platform stores or forwards
 * has been; this one is for where the stricter form is the rule (auth's client_id at the token
 * endpoint).
 */
export const rfc9562UuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Whether a value is a string of uuidPattern's form. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

export const uuidField = z
  .string()
  .regex(uuidPattern, 'must be a UUID')
  .transform((text) => text.toLowerCase());

/** A decimal string of whole minor units, read as bigint. */
export const minorUnitsField = z
  .string()
  .refine((text) => parseMinorUnitsText(text) !== undefined, 'must be a string of whole minor units, such as "1050"')
  .transform((text) => BigInt(text));

/** How a caller writes an amount into a contract body. */
export function minorUnitsWire(minor: MinorUnits): string {
  return minorUnitsText(minor);
}

export const currencyField = z.enum(currencies);

export const instantField = z.iso.datetime({ offset: true });

/** The two partner operations that quotes price and limits count: a collection and a disbursement. */
export const transactionTypeField = z.enum(['collection', 'disbursement']);
export type TransactionType = z.infer<typeof transactionTypeField>;

/**
 * What the wallet's internal checks and transfers move: a transaction type, or a refund of a
 * completed collection (partner -amount, user wallet +amount, no fee; decision 0053). Wallet-only:
 * a refund has no quote, so transactionTypeField stays as quotes use it.
 */
export const walletMovementTypeField = z.enum(['collection', 'disbursement', 'refund']);
export type WalletMovementType = z.infer<typeof walletMovementTypeField>;

export const transactionIdField = z.string().regex(/^TXN-[0-9A-F]+$/, 'must be TXN- and uppercase hex');

/**
 * A refusal: the error envelope every service answers with (the spec's three fields; a refusal may
 * carry more, which a caller ignores).
 */
export const refusalSchema = z.object({ success: z.literal(false), code: z.string(), message: z.string().optional() });
export type Refusal = z.infer<typeof refusalSchema>;
