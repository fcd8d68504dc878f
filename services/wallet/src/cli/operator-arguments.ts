import { uuidPattern } from '@pwa/contracts';
import { isCurrency, parseMajorUnitsText, type Currency } from '@pwa/money';
import { normaliseLiberianPhone } from '@pwa/phone';
import { isAccountStatus, isKycStatus, isTier, type AccountStatus, type KycStatus, type Tier } from '../domain/user';
import { isTransactionType, type TransactionType } from '../domain/transaction-type';

/** A command line the CLI cannot run; exit code 2 with the usage text. */
export class OperatorUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorUsageError';
  }
}

export function requireArgument(args: readonly string[], index: number, label: string): string {
  const value = args[index];
  if (value === undefined) throw new OperatorUsageError(`Missing ${label}`);
  return value;
}

export function requireOption(value: string | undefined, flag: string): string {
  if (value === undefined) throw new OperatorUsageError(`Missing --${flag}`);
  return value;
}

export function parsePhoneArgument(text: string): string {
  const phone = normaliseLiberianPhone(text);
  if (phone === undefined) throw new OperatorUsageError(`Not a Liberian mobile number: ${text} (use 0770123456 or +231770123456)`);
  return phone;
}

export function parseCurrencyArgument(text: string): Currency {
  const currency = text.trim().toUpperCase();
  if (!isCurrency(currency)) throw new OperatorUsageError(`Unknown currency: ${text} (LRD or USD)`);
  return currency;
}

/** "LRD,USD" (or "none") into a de-duplicated list in the catalogue's order. */
export function parseCurrencyList(text: string): Currency[] {
  if (text.trim() === 'none') return [];
  const listed = new Set(text.split(',').filter((item) => item.trim() !== '').map(parseCurrencyArgument));
  return (['LRD', 'USD'] as const).filter((currency) => listed.has(currency));
}

export function parseAmountArgument(text: string): bigint {
  const minor = parseMajorUnitsText(text, { allowZero: false });
  if (minor === undefined) throw new OperatorUsageError(`Not an amount: ${text} (a positive number with at most 2 decimals, such as 1500.50)`);
  return minor;
}

export function parseCountArgument(text: string, flag: string): number {
  if (!/^[0-9]{1,9}$/.test(text.trim()) || Number(text) < 1) throw new OperatorUsageError(`--${flag} must be a whole number of at least 1`);
  return Number(text);
}

export function parseUuidArgument(text: string, label: string): string {
  if (!uuidPattern.test(text)) throw new OperatorUsageError(`The ${label} must be a UUID`);
  return text.toLowerCase();
}

export function parseTierArgument(text: string): Tier {
  const tier = text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
  if (!isTier(tier)) throw new OperatorUsageError(`Unknown tier: ${text} (Basic, Silver, Gold or Platinum)`);
  return tier;
}

export function parseAccountStatusArgument(text: string): AccountStatus {
  if (!isAccountStatus(text)) throw new OperatorUsageError(`Unknown account status: ${text} (active, suspended or closed)`);
  return text;
}

export function parseKycStatusArgument(text: string): KycStatus {
  if (!isKycStatus(text)) throw new OperatorUsageError(`Unknown KYC status: ${text} (pending, approved or rejected)`);
  return text;
}

export function parseTransactionTypeArgument(text: string): TransactionType {
  if (!isTransactionType(text)) throw new OperatorUsageError(`Unknown transaction type: ${text} (collection or disbursement)`);
  return text;
}

export function optional<T>(value: string | undefined, parse: (text: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}
