import { createContext, useContext } from 'react';
import type { SessionView } from './api';

export interface SessionContextValue {
  session: SessionView;
  refresh: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/** The signed-in person (pages under the layout only render once there is one). */
export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (value === undefined) throw new Error('useSession outside the signed-in layout');
  return value;
}

export function hasRole(session: SessionView, ...roles: string[]): boolean {
  return session.operator.roles.some((role) => roles.includes(role));
}
