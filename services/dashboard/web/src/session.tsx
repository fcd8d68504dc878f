import { createContext, useContext } from 'react';
import type { SessionView } from './api';

export const SessionContext = createContext<SessionView | undefined>(undefined);

/** The signed-in member (pages under the layout only render once there is one). */
export function useSession(): SessionView {
  const value = useContext(SessionContext);
  if (value === undefined) throw new Error('useSession outside the signed-in layout');
  return value;
}

/** Whether the member's role allows an action: the pages draw only the buttons the server would accept. */
export function may(session: SessionView, action: string): boolean {
  return session.member.allowedActions.includes(action);
}
