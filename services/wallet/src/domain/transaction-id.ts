import { randomBytes } from 'node:crypto';

/**
 * The spec's transaction id: TXN-<uppercase hex>. Sixteen hex digits (64 random bits) make a
 * collision across the ledger's lifetime negligible, and the column is UNIQUE regardless.
 */
const transactionIdPattern = /^TXN-[0-9A-F]{16}$/;

export function newTransactionId(randomSource: (size: number) => Buffer = randomBytes): string {
  return `TXN-${randomSource(8).toString('hex').toUpperCase()}`;
}

export function isTransactionId(value: string): boolean {
  return transactionIdPattern.test(value);
}
