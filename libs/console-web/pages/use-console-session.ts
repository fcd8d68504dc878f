import { useCallback, useEffect, useState } from 'react';
import { ApiRefusal, type ApiClient } from './api-client';
import { navigate } from './router';

/**
 * The signed-in person of a console, read from its session endpoint: undefined while it is read,
 * null when nobody is signed in (then any page but the public ones goes to sign-in), and again
 * null at once when the API says the session ended. `refresh` reads it again (after a sign-in).
 */
export function useConsoleSession<Session>(
  client: Pick<ApiClient, 'rememberCsrfToken' | 'whenSignedOut'>,
  readSession: () => Promise<Session>,
  publicPaths: ReadonlySet<string>,
  pathname: string,
): { session: Session | null | undefined; refresh: () => Promise<void> } {
  const [session, setSession] = useState<Session | null>();

  const refresh = useCallback(async () => {
    try {
      setSession(await readSession());
    } catch (error) {
      if (error instanceof ApiRefusal && (error.status === 401 || error.status === 403)) setSession(null);
      else throw error;
    }
  }, [readSession]);

  useEffect(() => {
    client.whenSignedOut(() => {
      setSession(null);
      client.rememberCsrfToken(undefined);
      navigate('/sign-in', { replace: true });
    });
    if (!publicPaths.has(location.pathname)) void refresh();
    else setSession(null);
  }, [client, publicPaths, refresh]);

  useEffect(() => {
    if (session === null && !publicPaths.has(pathname)) navigate('/sign-in', { replace: true });
  }, [session, pathname, publicPaths]);

  return { session, refresh };
}
