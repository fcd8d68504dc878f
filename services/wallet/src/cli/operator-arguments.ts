import { userInfo } from 'node:os';
import { uuidPattern } from '@pwa/contracts';
import { isCurrency, parseMajorUnitsText, type Currency } from '@pwa/money';
import { OperatorUsageError } from '@pwa/runtime/operator-cli';
import { normaliseLiberianPhone } from '@pwa/phone';
import { isAccountStatus, isKycStatus, isTier, type AccountStatus, type KycStatus, type Tier } from '../domain/user';
import { isTransactionType, type TransactionType } from '../domain/transaction-type';

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

/** A disbursement's public referenceId, PKD-<digits>-<hex> (upper-cased: the services write it so). */
export function parseDisbursementReferenceIdArgument(text: string): string {
  const referenceId = text.trim().toUpperCase();
  if (!/^PKD-[0-9]{1,20}-[0-9A-F]{1,64}$/.test(referenceId)) throw new OperatorUsageError(`Not a disbursement referenceId: ${text} (PKD-<digits>-<hex>)`);
  return referenceId;
}

/** A ledger transaction id, TXN-<16 hex digits>. */
export function parseTransactionIdArgument(text: string): string {
  const transactionId = text.trim().toUpperCase();
  if (!/^TXN-[0-9A-F]{16}$/.test(transactionId)) throw new OperatorUsageError(`Not a transaction id: ${text} (TXN-<16 hex digits>)`);
  return transactionId;
}

/** Why an operator corrects the ledger: kept in the audit record, so it must say something (1 to 500 characters). */
export function parseReasonArgument(text: string): string {
  const reason = text.trim();
  if (reason.length === 0 || reason.length > 500) throw new OperatorUsageError('--reason must be 1 to 500 characters');
  return reason;
}

/** Who runs the command, for the audit record: --operator, else the OS user running the CLI. */
export function operatorName(flag: string | undefined): string {
  const name = (flag ?? currentOsUser())?.trim();
  if (name === undefined || name.length === 0) throw new OperatorUsageError('Cannot tell who runs this command: give --operator <your name>');
  if (name.length > 200) throw new OperatorUsageError('--operator must be at most 200 characters');
  return name;
}

function currentOsUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the operator names themselves with --operator.
    return undefined;
  }
}

export function optional<T>(value: string | undefined, parse: (text: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}
