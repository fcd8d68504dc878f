import { z } from 'zod';
import { amountDecimalPlacesMax, currencyField, instantField, instantInputField, publicCurrencies, transactionIdField } from './fields';
import { pageCursorLengthMax, pageLimitDefault, pageLimitMax, pageQueryFields } from './pagination';

/**
 * GET /partner/v1/statement: the partner account's movements in one currency over a period, read
 * from the wallet's ledger (decision 0050). JSON by default; `Accept: text/csv` (or `format=csv`)
 * gives the same page as CSV.
 */

/** A statement covers at most this many days (from inclusive, to exclusive). */
export const statementPeriodDaysMax = 31;

/**
 * What moved the partner account. A disbursement is two movements (its amount and its fee); a
 * collection is one (the user bears the collection fee, so collection_fee appears only if a
 * partner is ever made to bear one). A refund of a collection is one movement (negative, named by
 * the refund's PKR-…; no fee, and the collection's fee is not given back); a reversal of a
 * disbursement by the operator is one (positive, named by the disbursement's PKD-…; its fee is not
 * given back). More types may be added: ignore the ones you do not know, the amounts still add up.
 */
export const statementMovementTypes = ['funding', 'collection', 'collection_fee', 'disbursement', 'disbursement_fee', 'refund', 'reversal'] as const;
export type StatementMovementType = (typeof statementMovementTypes)[number];

/** The CSV form's columns, in order (the header row). */
export const statementCsvColumns = ['postedAt', 'type', 'referenceId', 'transactionId', 'externalId', 'amount', 'balanceAfter'] as const;

export const statementFormats = ['json', 'csv'] as const;

const decimals = { 'x-decimal-places': amountDecimalPlacesMax } as const;

export const statementQuerySchema = z
  .object({
    currency: z.enum(publicCurrencies).meta({ param: { description: 'The account’s currency (required): LRD or USD.', example: 'USD' } }),
    from: instantInputField.meta({ param: { description: 'Start of the period, inclusive (ISO 8601 with Z or an offset).', example: '2024-06-10T00:00:00Z' } }),
    to: instantInputField.meta({
      param: { description: `End of the period, exclusive, after from and at most ${statementPeriodDaysMax} days after it. A time in the future means “until now”.`, example: '2024-06-11T00:00:00Z' },
    }),
    format: z
      .enum(statementFormats)
      .optional()
      .meta({ param: { description: 'csv gives the CSV form, as Accept: text/csv does (for clients that cannot set Accept); json or absent: negotiated by Accept.' } }),
    limit: pageQueryFields.limit.meta({ param: { description: `Movements per page, 1 to ${pageLimitMax} (default ${pageLimitDefault}); the same in both forms.` } }),
    cursor: z
      .string()
      .min(1)
      .max(pageCursorLengthMax)
      .optional()
      .meta({ param: { description: 'The nextCursor of the previous page (in CSV: the X-Next-Cursor header). Keep currency, from, to and limit the same (anything else is 400 PKC_2008).' } }),
  })
  .strict();
export type StatementQuery = z.output<typeof statementQuerySchema>;

const signedAmountField = z.number().meta({
  description: 'Signed, in major units, at most 2 decimal places: positive credits your account, negative debits it.',
  example: -25.5,
  ...decimals,
});

const balanceField = z.number().min(0).meta({ description: 'In major units, at most 2 decimal places.', example: 974.24, ...decimals });

export const statementMovementSchema = z
  .strictObject({
    postedAt: instantField.meta({ description: 'When the ledger entry was written (UTC). Movements are in posting order.' }),
    type: z.enum(statementMovementTypes).meta({
      id: 'StatementMovementType',
      description:
        'funding (money you sent the operator), collection (a collection’s amount credited), collection_fee (a collection fee you bear: none today, the user bears it), disbursement (a disbursement’s amount debited), disbursement_fee (its fee debited), refund (a refund of one of your collections debited: its referenceId is the refund’s PKR-…; no fee), reversal (a disbursement the operator reversed, its amount credited back: its referenceId is the disbursement’s PKD-…; the disbursement fee is not returned). More may be added: ignore types you do not know.',
      example: 'disbursement',
    }),
    referenceId: z.string().min(1).meta({ description: 'The collection’s PKC-…, the disbursement’s PKD-… (for a reversal too: the disbursement it reversed) or the refund’s PKR-… referenceId; for funding, the transactionId.', example: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4' }),
    transactionId: transactionIdField,
    externalId: z.string().nullable().meta({ description: 'Your externalId of the collection, disbursement or refund (for a reversal: of the disbursement it reversed); null for funding and for movements posted before the ledger kept it.', example: 'order-1001' }),
    amount: signedAmountField,
    balanceAfter: balanceField.meta({ description: 'The account’s balance right after this movement (major units).' }),
  })
  .meta({ id: 'StatementMovement', description: 'One movement of your partner account.' });
export type PublicStatementMovement = z.infer<typeof statementMovementSchema>;

export const statementPageSchema = z
  .strictObject({
    currency: currencyField,
    from: instantField.meta({ description: 'The period’s start (inclusive), as asked, in UTC.' }),
    to: instantField.meta({ description: 'The period’s end (exclusive): as asked, or now when that is in the future.' }),
    openingBalance: balanceField.meta({ description: 'The balance just before from (the same on every page).' }),
    closingBalance: balanceField.meta({ description: 'The balance at to (the same on every page): openingBalance plus the sum of all the period’s amounts.' }),
    items: z.array(statementMovementSchema).meta({ description: 'This page’s movements, in posting order.' }),
    nextCursor: z.string().min(1).nullable().meta({ description: 'Opaque; pass it as cursor for the next page. null on the last page.' }),
    hasMore: z.boolean().meta({ description: 'true when there is a next page (then nextCursor is set).' }),
  })
  .meta({ id: 'StatementPage', description: 'A page of your statement, with the period’s opening and closing balance.' });
export type PublicStatementPage = z.infer<typeof statementPageSchema>;

export const statementPageExample: PublicStatementPage = {
  currency: 'USD',
  from: '2024-06-10T00:00:00.000Z',
  to: '2024-06-11T00:00:00.000Z',
  openingBalance: 1000,
  closingBalance: 974.24,
  items: [
    {
      postedAt: '2024-06-10T06:15:02.131Z',
      type: 'disbursement',
      referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
      transactionId: 'TXN-8D41E6B09A2C7F35',
      externalId: 'payout-1001',
      amount: -25.5,
      balanceAfter: 974.5,
    },
    {
      postedAt: '2024-06-10T06:15:02.131Z',
      type: 'disbursement_fee',
      referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4',
      transactionId: 'TXN-8D41E6B09A2C7F35',
      externalId: 'payout-1001',
      amount: -0.26,
      balanceAfter: 974.24,
    },
  ],
  nextCursor: null,
  hasMore: false,
};

export const statementCsvExample = [
  statementCsvColumns.join(','),
  '2024-06-10T06:15:02.131Z,disbursement,PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4,TXN-8D41E6B09A2C7F35,payout-1001,-25.5,974.5',
  '2024-06-10T06:15:02.131Z,disbursement_fee,PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4,TXN-8D41E6B09A2C7F35,payout-1001,-0.26,974.24',
  '',
].join('\r\n');

/** The CSV form's response headers beside the body: the page's balances and the next page's cursor. */
export const statementCsvHeaders = {
  openingBalance: 'x-opening-balance',
  closingBalance: 'x-closing-balance',
  nextCursor: 'x-next-cursor',
} as const;

export const statementCsvSchema = z.string().meta({
  description: `RFC 4180 CSV (text/csv; charset=utf-8; header=present), CRLF line ends: the header row ${statementCsvColumns.join(',')}, then one movement a line, the same rows and values as the JSON page (amounts as the JSON writes them; an empty externalId for null; fields with a comma, a quote or a line break quoted; a text field a spreadsheet would run as a formula, one starting with =, +, -, @, a tab or a carriage return, gets a leading apostrophe). The page's balances and the next page's cursor are in the headers X-Opening-Balance, X-Closing-Balance and X-Next-Cursor (absent on the last page).`,
  example: statementCsvExample,
});
