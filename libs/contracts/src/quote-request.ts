import { alternatives, invalidFieldError, invalidFieldsError, type FieldProblem, type InvalidField, type PkcError } from '@pwa/errors';
import { isCurrency, isWrittenNumber, parseAmount, type AmountParseFailure, type Currency, type MinorUnits } from '@pwa/money';
import { normaliseLiberianPhone } from '@pwa/phone';
import { amountBoundsText, expectedInputs } from './input-refusals';
import { transactionBoundsMinor } from './transaction-bounds';

/** A quote request that passed every check of the body; the phone is in its +231 form. */
export interface QuoteRequest {
  phone: string;
  amountMinor: MinorUnits;
  currency: Currency;
}

const requiredFields = ['phone', 'amount', 'currency'] as const;
const knownFields: ReadonlySet<string> = new Set(requiredFields);

/**
 * Checks a quote request body in one fixed order, so the same body always earns the same code, and
 * names the offending fields in the refusal's invalidFields (decision 0075):
 *
 * 1. PKC_2008 the body is not a JSON object, a required field (phone, amount, currency) is missing
 *    or null, or a field other than the three is sent (listed together, `missing` and `unknown`);
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
 * "below the minimum" for a currency it cannot use would fix the wrong thing. Unknown fields are
 * refused (decision 0075): a misspelt field is named rather than silently dropped.
 */
export function validateQuoteRequest(body: unknown, enabledCurrencies: readonly Currency[]): QuoteRequest {
  if (body !== undefined && !isPlainObject(body)) {
    throw invalidFieldError('PKC_2008', 'body', 'wrong_type', `${expectedInputs.jsonObject} with phone, amount and currency`);
  }
  const fields = body ?? {};
  const missing = requiredFields.filter((name) => fields[name] === undefined || fields[name] === null).map((field): InvalidField => ({ field, problem: 'missing', expected: expectedOf[field] }));
  const unknown = Object.keys(fields).filter((name) => !knownFields.has(name)).map((field): InvalidField => ({ field, problem: 'unknown' }));
  if (missing.length + unknown.length > 0) throw invalidFieldsError('PKC_2008', [...missing, ...unknown]);

  const phone = normaliseLiberianPhone(fields.phone);
  if (phone === undefined) throw invalidFieldError('PKC_2001', 'phone', typeof fields.phone === 'string' ? 'wrong_format' : 'wrong_type', expectedInputs.phone);

  const amount = parseAmount(fields.amount);
  if (!amount.ok && amount.failure !== 'too_large') throw amountRefusal(fields.amount, amount.failure);

  const currency = fields.currency;
  if (!isCurrency(currency)) throw invalidFieldError('PKC_2005', 'currency', typeof currency === 'string' ? 'not_allowed' : 'wrong_type', expectedInputs.currency);
  if (!enabledCurrencies.includes(currency)) {
    const enabled = enabledCurrencies.length === 0 ? 'none is enabled for this operation' : alternatives(enabledCurrencies);
    throw invalidFieldError('PKC_2010', 'currency', 'not_allowed', enabled, { lead: `${currency} is not supported for this operation` });
  }

  const bounds = transactionBoundsMinor[currency];
  // An amount too large to hold is far above every maximum, so it is PKC_2004 like any other.
  if (!amount.ok || amount.minor > bounds.maximumMinor) throw invalidFieldError('PKC_2004', 'amount', 'out_of_range', amountBoundsText(currency));
  if (amount.minor < bounds.minimumMinor) throw invalidFieldError('PKC_2003', 'amount', 'out_of_range', amountBoundsText(currency));
  return { phone, amountMinor: amount.minor, currency };
}

const expectedOf: Readonly<Record<(typeof requiredFields)[number], string>> = {
  phone: expectedInputs.phone,
  amount: expectedInputs.amount,
  currency: expectedInputs.currency,
};

/** The PKC_2002 refusal of an amount (a quote's, a bulk item's, a refund's), saying which rule it broke. */
export function amountRefusal(value: unknown, failure: Exclude<AmountParseFailure, 'too_large'>): PkcError {
  return invalidFieldError('PKC_2002', 'amount', amountProblemOf(value, failure), expectedInputs.amount, { lead: amountMessages[failure] });
}

const amountMessages = {
  not_a_number: 'Amount must be a JSON number greater than zero (not a string, nor beyond the range of a double such as 1e400)',
  not_positive: 'Amount must be a positive number greater than zero',
  too_many_decimals: 'Amount must have at most 2 decimal places',
} as const;

/**
 * What was wrong with an amount refused with PKC_2002: not a JSON number at all (a numeric string
 * included), a number beyond the range of a double (1e400), zero or less, or more than 2 decimals.
 */
export function amountProblemOf(value: unknown, failure: Exclude<AmountParseFailure, 'too_large'>): FieldProblem {
  if (failure === 'not_positive') return 'out_of_range';
  if (failure === 'too_many_decimals') return 'wrong_format';
  return typeof value === 'number' || isWrittenNumber(value) ? 'out_of_range' : 'wrong_type';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
