import type { ReactNode } from 'react';

export function TransactionsPage(): ReactNode {
  return <h1>Transactions</h1>;
}
