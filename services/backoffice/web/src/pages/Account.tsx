import type { ReactNode } from 'react';

export function AccountPage(): ReactNode {
  return <h1>Account</h1>;
}
