/** The two partner operations that move a user's money and count against the user's limits. */
export const transactionTypes = ['collection', 'disbursement'] as const;
export type TransactionType = (typeof transactionTypes)[number];

export function isTransactionType(value: string): value is TransactionType {
  return (transactionTypes as readonly string[]).includes(value);
}

/**
 * What the internal checks and transfers move: a transaction type, or a refund of a completed
 * collection. A refund gives back money the user paid, so it neither checks nor consumes the
 * user's limits and carries no fee (decision 0053).
 */
export const movementTypes = [...transactionTypes, 'refund'] as const;
export type MovementType = (typeof movementTypes)[number];

/** The limit rules a movement is counted against, or undefined for one that has none (a refund). */
export function limitedTypeOf(type: MovementType): TransactionType | undefined {
  return type === 'refund' ? undefined : type;
}
