import { z } from 'zod';
import { disbursementReferenceIdPattern } from '../disbursement-events';
import { failureReasonField } from '../event-fields';

/**
 * The field schemas of the public API as partners see them on the wire. Each carries the
 * description and the example the OpenAPI document shows; the routes and answers of the other
 * modules in this folder are built from them, and `generateOpenApiDocument()` turns them into the
 * document, so the document says what these schemas say.
 */

export const publicCurrencies = ['LRD', 'USD'] as const;
export type PublicCurrency = (typeof publicCurrencies)[number];

/** How many decimals a public amount may have; more are refused on input (PKC_2002), never written on output. */
export const amountDecimalPlacesMax = 2;

/**
 * A JSON number has no decimal count of its own, and `multipleOf: 0.01` fails on binary doubles
 * (25.76 / 0.01 is not an integer in IEEE 754), so the rule is said in words and in the
 * `x-decimal-places` extension, which the e2e answer validator checks on the number as written.
 */
const decimalsRule = { 'x-decimal-places': amountDecimalPlacesMax } as const;

export const currencyField = z.enum(publicCurrencies).meta({
  id: 'Currency',
  description: 'ISO 4217 code of one of the two currencies of the API, upper case.',
  example: 'USD',
});

export const amountField = z.number().positive().meta({
  id: 'Amount',
  description: 'An amount in major units (dollars), as a JSON number (never a string), greater than zero, with at most 2 decimal places. Whole amounts are written without decimals (100, not 100.00).',
  example: 25.5,
  ...decimalsRule,
});

export const feeField = z.number().min(0).meta({
  id: 'Fee',
  description: 'A fee in major units, as a JSON number, zero or more, with at most 2 decimal places. Fixed when the quote is made.',
  example: 0.26,
  ...decimalsRule,
});

/** A balance or another non-negative amount that may be zero (netAmount of a failed disbursement, a balance never funded). */
export const nonNegativeAmountField = z.number().min(0).meta({
  description: 'An amount in major units, as a JSON number, zero or more, with at most 2 decimal places.',
  example: 1000000,
  ...decimalsRule,
});

/** A phone as the partner may send it; anything that is not a Liberian mobile number is 400 PKC_2001. */
export const phoneInputField = z.string().meta({
  description:
    'A Liberian mobile number: a 9-digit national number starting with 77, 88 or 55, written with the leading local 0 (0770123456) or with the +231 country code (+231770123456). Spaces and hyphens are ignored. Anything else is answered 400 PKC_2001.',
  example: '0770000001',
});

export const phonePattern = /^\+231(77|88|55)\d{7}$/;

/** A phone as the API answers it: always the +231 form. */
export const phoneField = z.string().regex(phonePattern).meta({
  id: 'Phone',
  description: 'A Liberian mobile number in its international form: +231 and the 9-digit national number.',
  example: '+231770000001',
});

/** PKC-<creation time in ms>-<uppercase hex>, as the collections service makes them. */
export const collectionReferenceIdPattern = /^PKC-\d{1,20}-[0-9A-F]{8,64}$/;

export const collectionReferenceIdField = z.string().regex(collectionReferenceIdPattern).meta({
  id: 'CollectionReferenceId',
  description: "A collection's id: PKC-<digits>-<uppercase hex>. Treat it as an opaque string.",
  example: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
});

export const disbursementReferenceIdField = z.string().regex(disbursementReferenceIdPattern).meta({
  id: 'DisbursementReferenceId',
  description: "A disbursement's id: PKD-<digits>-<uppercase hex>. Treat it as an opaque string.",
  example: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
});

export const transactionIdPattern = /^TXN-[0-9A-F]+$/;

export const transactionIdField = z.string().regex(transactionIdPattern).meta({
  id: 'TransactionId',
  description: 'The wallet transaction that moved the money: TXN-<uppercase hex>.',
  example: 'TXN-8D41E6B09A2C7F35',
});

export const uuidField = z.uuid().meta({ example: '6f1c2a9e-4b7d-4e3a-9c55-0d2b8e7f1a34' });

export const externalIdField = z.string().min(1).max(100).meta({
  id: 'ExternalId',
  description:
    'Your unique reference for the transaction, 1 to 100 characters (counted as Unicode characters), without control characters. Longer is 400 PKC_2006; in use by a pending or completed transaction of the same kind is 409 PKC_6001.',
  example: 'order-1001',
});

/** An instant as the API writes it: ISO 8601 in UTC with milliseconds ("Z"). */
export const instantField = z.iso.datetime().meta({
  description: 'An ISO 8601 date-time in UTC (ends in Z).',
  example: '2024-06-10T06:15:02.000Z',
});

/** An instant as a partner may send it: with Z or an offset. */
export const instantInputField = z.iso.datetime({ offset: true }).meta({
  description: 'An ISO 8601 date-time with Z or an offset.',
  example: '2024-06-10T00:00:00Z',
});

/**
 * The events' failure reason (code and partner message), closed: the status answers and the
 * webhook payload carry exactly these two fields.
 */
export const failureReasonSchema = failureReasonField.strict().meta({
  id: 'FailureReason',
  description:
    'Why a collection or disbursement failed: `code`, a PKC code of the catalogue, and `message`, for people (at most 300 characters; the wording may change). Present only on failed transactions and failed events.',
  example: { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' },
});
export type PublicFailureReason = z.infer<typeof failureReasonSchema>;

export const pkcCodeField = z.string().regex(/^PKC_\d{4}$/).meta({ description: 'A PKC code of the error catalogue.', example: 'PKC_4002' });
