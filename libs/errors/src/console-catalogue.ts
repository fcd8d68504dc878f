/**
 * The consoles' own refusals (the operator back-office and, later, the partner dashboard): codes
 * people's browsers get from those services' JSON APIs, never from the partner API. A console
 * answers the same envelope as every service ({ success: false, code, message }); refusals that are
 * the same everywhere keep their PKC code (a malformed body PKC_2008, an unknown path PKC_6002, a
 * failure PKC_7002, a dependency away PKC_7003), so one error handler serves every service.
 * Decision 0065. Messages name what to do, never whether an account exists or any secret.
 */
export const consoleErrorCatalogue = {
  // Sign-in and sessions (CON_1XXX)
  CON_1001: { httpStatus: 401, message: 'The e-mail address or the password is wrong' },
  CON_1002: { httpStatus: 429, message: 'Too many failed sign-ins: wait, then try again' },
  CON_1003: { httpStatus: 401, message: 'The code is wrong or was used already: enter the current code from your authenticator app' },
  CON_1004: { httpStatus: 401, message: 'Not signed in, or the session ended: sign in again' },
  CON_1005: { httpStatus: 403, message: 'The request did not carry this session’s CSRF token (X-CSRF-Token) or came from another site' },
  CON_1006: { httpStatus: 410, message: 'This set-up link was used, replaced or has expired: ask an admin for a new one' },
  CON_1007: { httpStatus: 400, message: 'The password does not meet the policy' },
  CON_1008: { httpStatus: 400, message: 'The enrolment does not belong to this set-up link: start the set-up again from the link' },
  CON_1009: { httpStatus: 401, message: 'The passkey could not be verified: try again, or sign in with your authenticator app code' },
  CON_1010: { httpStatus: 400, message: 'The passkey challenge expired or was used already: start again' },
  CON_1011: { httpStatus: 401, message: 'Sign-in with the identity provider failed or is not linked to an active operator: ask an admin' },
  CON_1012: { httpStatus: 401, message: 'This change needs a fresh code: enter the current code from your authenticator app in the code field' },
  // Input (CON_2XXX)
  CON_2001: { httpStatus: 400, message: 'One or more fields are missing or invalid' },
  // Permissions (CON_3XXX)
  CON_3001: { httpStatus: 403, message: 'Your roles do not allow this action' },
  CON_3002: { httpStatus: 403, message: 'You cannot decide your own request: another checker must' },
  CON_3003: { httpStatus: 403, message: 'You cannot disable your own account: another admin must' },
  CON_3004: { httpStatus: 403, message: 'Your role in the team does not allow this action: ask one of your admins' },
  // State (CON_4XXX)
  CON_4001: { httpStatus: 404, message: 'No such request' },
  CON_4002: { httpStatus: 409, message: 'The request was decided already' },
  CON_4003: { httpStatus: 409, message: 'The request expired unanswered and changes nothing' },
  CON_4004: { httpStatus: 409, message: 'An operator with this e-mail address exists already' },
  CON_4005: { httpStatus: 404, message: 'No such operator' },
  CON_4006: { httpStatus: 409, message: 'The back-office must keep at least one active admin' },
  CON_4007: { httpStatus: 404, message: 'The target of this change does not exist: check the partner id' },
  CON_4008: { httpStatus: 404, message: 'No such partner' },
  CON_4009: { httpStatus: 409, message: 'The disbursement was reversed already: a disbursement is reversed at most once' },
  CON_4010: { httpStatus: 404, message: 'No such webhook delivery' },
  CON_4011: { httpStatus: 409, message: 'You used this Idempotency-Key for another request: use a new key for a new request' },
  CON_4012: { httpStatus: 404, message: 'No such live personal token among those you may revoke' },
  CON_4013: { httpStatus: 409, message: 'The operator is disabled: a disabled person is not reset; invite them again under another address if they return' },
  CON_4014: { httpStatus: 409, message: 'This e-mail address is already a member of a team: use another address' },
  CON_4015: { httpStatus: 404, message: 'No such member of your team' },
  CON_4016: { httpStatus: 409, message: 'The team must keep at least one active admin' },
  CON_4017: { httpStatus: 404, message: 'Not found among your partner’s records: check the id' },
  CON_4019: { httpStatus: 409, message: 'The change does not apply to the partner as it is now: read the partner again' },
} as const satisfies Record<string, { httpStatus: number; message: string }>;

export type ConsoleCode = keyof typeof consoleErrorCatalogue;

export function isConsoleCode(value: unknown): value is ConsoleCode {
  return typeof value === 'string' && Object.hasOwn(consoleErrorCatalogue, value);
}

/** A console refusal: its code, status and message (the catalogue's unless given), and headers (Retry-After, say). */
export class ConsoleError extends Error {
  readonly code: ConsoleCode;
  readonly httpStatus: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ConsoleCode, message?: string, options?: { headers?: Record<string, string> }) {
    super(message ?? consoleErrorCatalogue[code].message);
    this.name = 'ConsoleError';
    this.code = code;
    this.httpStatus = consoleErrorCatalogue[code].httpStatus;
    this.headers = Object.freeze({ ...options?.headers });
  }
}

export function isConsoleError(value: unknown): value is ConsoleError {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'ConsoleError' && isConsoleCode((value as { code?: unknown }).code);
}
