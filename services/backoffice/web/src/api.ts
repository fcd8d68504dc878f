/**
 * The console API client: JSON over same-origin fetch, the session's CSRF token on every state
 * change, and the API's envelope unwrapped. A refusal becomes an ApiRefusal carrying the catalogue
 * code and message, which the pages show as they are; a 401 sends the person to sign-in.
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

let csrfToken: string | undefined;
let onSignedOut: () => void = () => undefined;

export function rememberCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** What to do when the API says the session is gone (the app sends the person to sign-in). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  code?: string;
  message?: string;
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== undefined) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
  } catch {
    throw new ApiRefusal(0, 'NETWORK', 'The back-office did not answer: check your connection and try again');
  }
  if (response.status === 204) return undefined as T;
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (response.ok && envelope?.success === true) return envelope.data as T;
  const refusal = new ApiRefusal(response.status, envelope?.code ?? `HTTP_${response.status}`, envelope?.message ?? `The back-office answered ${response.status}`);
  if (response.status === 401 && !path.startsWith('/api/v1/session') && !path.startsWith('/api/v1/setup')) onSignedOut();
  throw refusal;
}

/** Query string from the filled-in fields only. */
export function queryOf(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value.trim() !== '') params.set(name, value.trim());
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

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
