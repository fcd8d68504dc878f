import type { ReactNode } from 'react';

export function OperatorsPage(): ReactNode {
  return <h1>Operators</h1>;
}
