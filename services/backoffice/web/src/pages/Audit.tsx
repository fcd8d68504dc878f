import type { ReactNode } from 'react';

export function AuditPage(): ReactNode {
  return <h1>Audit</h1>;
}
