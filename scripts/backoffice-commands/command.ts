// What every `npm run operator -- backoffice <command>` is made of: its options, how it calls the
// back-office API, and the lines it prints; and the option readers they share (amounts in major
// units made exact minor-unit strings, partner ids, reasons, idempotency keys).
import { randomUUID } from 'node:crypto';
import type { BackofficeClient } from '../lib/backoffice-client';
import { amountCurrencies, minorUnitsOf, type AmountCurrency } from '../lib/decimal-amount';

/** Wrong usage: exit 2, with the line to fix. */
export class UsageError extends Error {}

export type Output = { json: unknown; lines: string[] };
export type Values = Record<string, string | boolean | undefined>;
export interface Command {
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** How many positional arguments, and what the first is called in the usage error. */
  positionals: 0 | 1;
  run(client: BackofficeClient, values: Values, positionals: string[]): Promise<Output>;
}

export const text = (value: unknown): string => {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
};

export function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredOption(values: Values, name: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID option (a partner id, a request id), lower-cased. */
export function uuidOption(values: Values, name: string): string {
  const value = requiredOption(values, name);
  if (!uuidPattern.test(value)) throw new UsageError(`--${name}: a UUID such as 3f2b8c1e-…, as list-partners or list-requests print it`);
  return value.toLowerCase();
}

export function currencyOption(values: Values): AmountCurrency {
  const currency = requiredOption(values, 'currency').toUpperCase();
  if (!(amountCurrencies as readonly string[]).includes(currency)) throw new UsageError(`--currency: one of ${amountCurrencies.join(', ')}`);
  return currency as AmountCurrency;
}

/** An amount typed in major units ("12.50"), as the exact minor-unit string the API takes ("1250"). */
export function amountOption(values: Values, name: string, required: true): string;
export function amountOption(values: Values, name: string, required: false): string | undefined;
export function amountOption(values: Values, name: string, required: boolean): string | undefined {
  const typed = required ? requiredOption(values, name) : stringOption(values, name);
  if (typed === undefined) return undefined;
  const minor = minorUnitsOf(typed);
  if (minor === undefined) throw new UsageError(`--${name}: a positive amount in major units with at most two decimals, e.g. 12.50`);
  return minor;
}

/** A whole number option within bounds. */
export function wholeNumberOption(values: Values, name: string, bounds: { min: number; max: number }): number | undefined {
  const typed = stringOption(values, name);
  if (typed === undefined) return undefined;
  const value = /^\d{1,10}$/.test(typed.trim()) ? Number(typed.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) throw new UsageError(`--${name}: a whole number from ${bounds.min} to ${bounds.max}`);
  return value;
}

export const reasonOption = (values: Values): string => requiredOption(values, 'reason');

/** The Idempotency-Key of a one-person change: the one given (a retry), or a new one that the output names for a retry. */
export function idempotencyKeyOption(values: Values): string {
  const given = stringOption(values, 'idempotency-key');
  if (given === undefined) return randomUUID();
  if (!/^[A-Za-z0-9._:-]{8,100}$/.test(given)) throw new UsageError('--idempotency-key: 8 to 100 letters, digits or . _ : - (the key an earlier run printed)');
  return given;
}

export const idempotencyKeyOptions = { 'idempotency-key': { type: 'string' } } as const;

export function requestLine(request: Record<string, unknown>): string {
  const target = (request.target ?? {}) as Record<string, unknown>;
  return `${text(request.requestId)}  ${text(request.status)}  ${text(request.action)}  ${text(target.kind)}:${text(target.id)}  ${JSON.stringify(request.parameters ?? {})}  maker ${text(request.makerId)}`;
}
