import { createApiClient } from '../../../../libs/console-web/pages/api-client';

export { ApiRefusal, queryOf } from '../../../../libs/console-web/pages/api-client';

/** The back-office console's API client (libs/console-web). */
export const apiClient = createApiClient({ consoleName: 'The back-office', publicPrefixes: ['/api/v1/session', '/api/v1/setup'] });
export const { api, rememberCsrfToken, whenSignedOut } = apiClient;

export interface Operator {
  operatorId: string;
  email: string;
  displayName: string;
  roles: string[];
}

export interface SessionView {
  operator: Operator;
  csrfToken: string;
  signIn: { method: string; secondFactor: string | null; completedAt: string; factorChangesUntil: string | null };
}

export async function currentSession(): Promise<SessionView> {
  const session = await api<SessionView>('GET', '/api/v1/session');
  rememberCsrfToken(session.csrfToken);
  return session;
}
