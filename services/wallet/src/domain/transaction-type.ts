/** The two partner operations that move a user's money and count against the user's limits. */
export const transactionTypes = ['collection', 'disbursement'] as const;
export type TransactionType = (typeof transactionTypes)[number];

export function isTransactionType(value: string): value is TransactionType {
  return (transactionTypes as readonly string[]).includes(value);
}
