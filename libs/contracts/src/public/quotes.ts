import { z } from 'zod';
import { accountStatusField } from './accounts';
import { amountField, currencyField, feeField, nonNegativeAmountField, phoneField, phoneInputField, uuidField } from './fields';

/**
 * The body of both quote endpoints. Other fields are refused (decision 0075). Each rule is checked
 * in the order of the guide's table "Which error a quote answers" (PKC_2008, 2001, 2002, 2005,
 * 2010, 2003/2004); every refusal names its fields in invalidFields.
 */
export const quoteRequestSchema = z
  .object({
    phone: phoneInputField,
    amount: amountField,
    currency: currencyField,
  })
  .strict()
  .meta({
    id: 'QuoteRequest',
    description:
      'What to quote. A missing field, or a field other than these three, is 400 PKC_2008 (each named in invalidFields, as missing or unknown); an amount that is not a JSON number greater than zero with at most 2 decimals is 400 PKC_2002 (never rounded); a currency other than LRD or USD is 400 PKC_2005.',
    example: { phone: '0770000001', amount: 25.5, currency: 'USD' },
  });
export type PublicQuoteRequest = z.infer<typeof quoteRequestSchema>;

const quoteIdField = uuidField.meta({ description: 'The quote’s id, for the confirm call: valid 10 minutes, single use.', example: '6f1c2a9e-4b7d-4e3a-9c55-0d2b8e7f1a34' });
const sufficientBalanceField = z.literal(true).meta({ description: 'Always true: a quote that fails any check is not created. Kept for backward compatibility.' });
const noteField = z.string().min(1).meta({ description: 'A summary for people; its wording may change.' });
/** Who the quote is for, as both quotes name them. */
const quoteRecipientFields = {
  name: z.string().min(1).meta({ example: 'Comfort Gold' }),
  phone: phoneField,
  accountStatus: accountStatusField,
};

export const collectionQuoteSchema = z
  .strictObject({
    quoteId: quoteIdField,
    recipient: z.strictObject(quoteRecipientFields),
    amount: amountField.meta({ description: 'The amount to collect (credited to your balance once the user approves).' }),
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField.meta({ description: 'amount + fee: what the user’s wallet is debited once they approve.' }),
    sufficientBalance: sufficientBalanceField,
    approvalWindowMinutes: z.number().int().positive().meta({ description: 'How long the user has to approve after the request: 10.', example: 10 }),
    note: noteField,
  })
  .meta({ id: 'CollectionQuote', description: 'A collection quote: nothing moved, nothing but the quote was created, no limit was used.' });
export type PublicCollectionQuote = z.infer<typeof collectionQuoteSchema>;

export const disbursementQuoteSchema = z
  .strictObject({
    quoteId: quoteIdField,
    recipient: z.strictObject({
      ...quoteRecipientFields,
      hasWallet: z.boolean().meta({ description: 'Whether the user has a wallet in the currency: always true on a quote.' }),
    }),
    amount: amountField.meta({ description: 'The amount the user receives.' }),
    currency: currencyField,
    fee: feeField,
    totalDebit: amountField.meta({ description: 'amount + fee: what your balance is debited by the transfer.' }),
    partnerBalance: nonNegativeAmountField.meta({ description: 'Your balance in the currency when the quote was made.' }),
    sufficientBalance: sufficientBalanceField,
    note: noteField,
  })
  .meta({ id: 'DisbursementQuote', description: 'A disbursement quote: nothing moved, nothing but the quote was created, no limit was used.' });
export type PublicDisbursementQuote = z.infer<typeof disbursementQuoteSchema>;

export const collectionQuoteExample: PublicCollectionQuote = {
  quoteId: '6f1c2a9e-4b7d-4e3a-9c55-0d2b8e7f1a34',
  recipient: { name: 'Comfort Gold', phone: '+231770000001', accountStatus: 'active' },
  amount: 25.5,
  currency: 'USD',
  fee: 0.26,
  totalDebit: 25.76,
  sufficientBalance: true,
  approvalWindowMinutes: 10,
  note: "Collect 25.50 USD from Comfort Gold (+231770000001); fee 0.26 USD, 25.76 USD in total will be debited from the user's wallet once approved. The user has 10 minutes to approve after the request; this quote is valid for 10 minutes.",
};

export const disbursementQuoteExample: PublicDisbursementQuote = {
  quoteId: 'b3e0d7c4-1f52-4a8e-8d6b-7c9a2e4f5b10',
  recipient: { name: 'Comfort Gold', phone: '+231770000001', accountStatus: 'active', hasWallet: true },
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  totalDebit: 5100,
  partnerBalance: 1000000,
  sufficientBalance: true,
  note: 'Send 5,000.00 LRD to Comfort Gold (+231770000001); fee 100.00 LRD, 5,100.00 LRD in total will be debited from your balance of 1,000,000.00 LRD, leaving 994,900.00 LRD. This quote is valid for 10 minutes.',
};
