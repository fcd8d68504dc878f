import { PkcError } from '@pwa/errors';
import { isCurrency, parseAmount, type Currency, type MinorUnits } from '@pwa/money';
import { normaliseLiberianPhone } from '@pwa/phone';
import { transactionBoundsMinor } from './transaction-bounds';

/** A quote request that passed every check of the body; the phone is in its +231 form. */
export interface QuoteRequest {
  phone: string;
  amountMinor: MinorUnits;
  currency: Currency;
}

const requiredFields = ['phone', 'amount', 'currency'] as const;

/**
 * Checks a quote request body in one fixed order, so the same body always earns the same code:
 *
 * 1. PKC_2008 a required field (phone, amount, currency) is missing or null;
 * 2. PKC_2001 the phone is not a Liberian mobile number in either accepted form;
 * 3. PKC_2002 the amount is not a JSON number greater than zero with at most 2 decimals, judged
 *    on the number as written when the HTTP layer hands it over as a WrittenNumber (a numeric
 *    string such as "100" is not a number; 10.005 and 1.999999999999999999 are refused, never
 *    rounded; trailing zeros are not decimals: 10.50 and 10.500 are 10.50; a number beyond the
 *    range of a double such as 1e400 is not a number);
 * 4. PKC_2005 the currency is not LRD or USD (exact, upper case);
 * 5. PKC_2010 the currency is not enabled for this operation;
 * 6. PKC_2003 the amount is below the currency's minimum, PKC_2004 above its maximum.
 *
 * Currency problems come before the bounds because the bounds are per currency: a partner told
 * "below the minimum" for a currency it cannot use would fix the wrong thing. Fields other than
 * the three are ignored.
 */
export function validateQuoteRequest(body: unknown, enabledCurrencies: readonly Currency[]): QuoteRequest {
  const fields = isPlainObject(body) ? body : {};
  if (requiredFields.some((name) => fields[name] === undefined || fields[name] === null)) throw new PkcError('PKC_2008');

  const phone = normaliseLiberianPhone(fields.phone);
  if (phone === undefined) throw new PkcError('PKC_2001');

  const amount = parseAmount(fields.amount);
  if (!amount.ok && amount.failure !== 'too_large') throw new PkcError('PKC_2002', amountMessages[amount.failure]);

  const currency = fields.currency;
  if (!isCurrency(currency)) throw new PkcError('PKC_2005');
  if (!enabledCurrencies.includes(currency)) throw new PkcError('PKC_2010', `${currency} is not supported for this operation`);

  const bounds = transactionBoundsMinor[currency];
  // An amount too large to hold is far above every maximum, so it is PKC_2004 like any other.
  if (!amount.ok) throw new PkcError('PKC_2004');
  if (amount.minor < bounds.minimumMinor) throw new PkcError('PKC_2003');
  if (amount.minor > bounds.maximumMinor) throw new PkcError('PKC_2004');
  return { phone, amountMinor: amount.minor, currency };
}

const amountMessages = {
  not_a_number: 'Amount must be a JSON number greater than zero (not a string, nor beyond the range of a double such as 1e400)',
  not_positive: 'Amount must be a positive number greater than zero',
  too_many_decimals: 'Amount must have at most 2 decimal places',
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
