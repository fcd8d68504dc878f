import { createApiClient } from '../../../../libs/console-web/pages/api-client';

export { ApiRefusal, queryOf } from '../../../../libs/console-web/pages/api-client';

/** The dashboard's API client (libs/console-web). */
export const apiClient = createApiClient({ consoleName: 'The dashboard', publicPrefixes: ['/api/v1/session', '/api/v1/invitation'] });
export const { api, rememberCsrfToken, whenSignedOut } = apiClient;

export interface Member {
  memberId: string;
  partnerId: string;
  email: string;
  displayName: string;
  role: string;
  allowedActions: string[];
}

export interface SessionView {
  member: Member;
  csrfToken: string;
  /** How this sign-in's second step was made: totp or passkey. */
  secondFactor: string | null;
}

export async function currentSession(): Promise<SessionView> {
  const session = await api<SessionView>('GET', '/api/v1/session');
  rememberCsrfToken(session.csrfToken);
  return session;
}
