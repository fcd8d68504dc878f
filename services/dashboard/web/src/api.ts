/**
 * The dashboard API client: JSON over same-origin fetch, the session's CSRF token on every state
 * change, the envelope unwrapped. A refusal becomes an ApiRefusal with the catalogue code and
 * message, shown as they are; a 401 sends the member to sign-in.
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

export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  code?: string;
  message?: string;
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== undefined) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
  } catch {
    throw new ApiRefusal(0, 'NETWORK', 'The dashboard did not answer: check your connection and try again');
  }
  if (response.status === 204) return undefined as T;
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (response.ok && envelope?.success === true) return envelope.data as T;
  if (response.status === 401 && !path.startsWith('/api/v1/session') && !path.startsWith('/api/v1/invitation') && envelope?.code === 'CON_1004') onSignedOut();
  throw new ApiRefusal(response.status, envelope?.code ?? `HTTP_${response.status}`, envelope?.message ?? `The dashboard answered ${response.status}`);
}

/** Query string from the filled-in fields only. */
export function queryOf(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value.trim() !== '') params.set(name, value.trim());
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

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
}

export async function currentSession(): Promise<SessionView> {
  const session = await api<SessionView>('GET', '/api/v1/session');
  rememberCsrfToken(session.csrfToken);
  return session;
}
