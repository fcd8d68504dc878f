/**
 * A console's API client (the back-office's and the dashboard's): JSON over same-origin fetch, the
 * session's CSRF token on every state change, and the API's envelope unwrapped. A refusal becomes
 * an ApiRefusal carrying the catalogue code and message, which the pages show as they are; a 401
 * saying the session is gone (outside sign-in and set-up) sends the person to sign-in.
 */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  code?: string;
  message?: string;
}

export interface ApiClient {
  api: <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, extraHeaders?: Record<string, string>) => Promise<T>;
  rememberCsrfToken: (token: string | undefined) => void;
  /** What to do when the API says the session is gone (the app sends the person to sign-in). */
  whenSignedOut: (handler: () => void) => void;
}

/** `consoleName` names the console in a network failure; a 401 on a path under `publicPrefixes` (sign-in, set-up) is the page's to show. */
export function createApiClient(options: { consoleName: string; publicPrefixes: readonly string[] }): ApiClient {
  let csrfToken: string | undefined;
  let onSignedOut: () => void = () => undefined;
  return {
    rememberCsrfToken: (token) => {
      csrfToken = token;
    },
    whenSignedOut: (handler) => {
      onSignedOut = handler;
    },
    api: async <T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> => {
      const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (method !== 'GET' && csrfToken !== undefined) headers['X-CSRF-Token'] = csrfToken;
      let response: Response;
      try {
        response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
      } catch {
        throw new ApiRefusal(0, 'NETWORK', `${options.consoleName} did not answer: check your connection and try again`);
      }
      if (response.status === 204) return undefined as T;
      let envelope: Envelope<T> | undefined;
      try {
        envelope = (await response.json()) as Envelope<T>;
      } catch {
        envelope = undefined;
      }
      if (response.ok && envelope?.success === true) return envelope.data as T;
      const refusal = new ApiRefusal(response.status, envelope?.code ?? `HTTP_${response.status}`, envelope?.message ?? `${options.consoleName} answered ${response.status}`);
      // Only a session that is gone (CON_1004, or a 401 without a catalogue code) sends the person to sign-in: a wrong or missing
      // fresh code (CON_1012), a passkey that did not verify (CON_1009) or a wrong code (CON_1003) is the page's to show, the session still stands.
      const sessionGone = refusal.code === sessionGoneCode || envelope?.code === undefined;
      if (response.status === 401 && sessionGone && !options.publicPrefixes.some((prefix) => path.startsWith(prefix))) onSignedOut();
      throw refusal;
    },
  };
}

/** The catalogue's code for a session that ended or never was (libs/errors console catalogue). */
const sessionGoneCode = 'CON_1004';

/** Query string from the filled-in fields only. */
export function queryOf(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value.trim() !== '') params.set(name, value.trim());
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
