import { consoleOrigin, type PeopleStand } from './passkey-oidc-stand';

/** The binding cookie the back-office's start sets (`__Host-backoffice-oidc`). */
export const bindingCookiePrefix = '__Host-backoffice-oidc=';

export interface BrowserAtCallback {
  /** The callback's path and query, as the provider sent the browser to it. */
  callbackPath: string;
  /** The binding cookie the start set in this browser. */
  binding: string;
  authorizationUrl: URL;
}

/**
 * A browser signing in with the identity provider: the back-office's start, then the provider's
 * redirects followed with its own cookies (the test provider signs in the account named in
 * login_hint) until it sends the browser back to the console's callback.
 */
export async function browserAtCallback(stand: PeopleStand, accountId: string, tamper: (authorization: URL) => void = () => undefined): Promise<BrowserAtCallback> {
  const start = await stand.call('GET', '/api/v1/session/oidc/start', { origin: null });
  if (start.status !== 303 || start.location === null) throw new Error(`the start answered ${start.status} ${JSON.stringify(start.body)}`);
  const binding = start.cookies.find((cookie) => cookie.startsWith(bindingCookiePrefix)) ?? '';
  const authorizationUrl = new URL(start.location);
  authorizationUrl.searchParams.set('login_hint', accountId);
  tamper(authorizationUrl);
  const jar = new Map<string, string>();
  let next = authorizationUrl.toString();
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.startsWith(consoleOrigin)) return { callbackPath: next.slice(consoleOrigin.length), binding, authorizationUrl };
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const equals = pair.indexOf('=');
      jar.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
    next = new URL(location, next).toString();
  }
  throw new Error('the provider did not send the browser back');
}
