/**
 * The errors libs/audit throws. Callers match on `code`, never on the class or the message, and a
 * message never holds a value from an entry (only key paths and field names), so it is safe to log.
 */
export const auditErrorCodes = {
  /** A field of the entry is missing, malformed or too long. */
  entryInvalid: 'AUDIT_ENTRY_INVALID',
  /** before or after holds a key that looks secret (password, token, ...): secrets never reach the log. */
  secretInValues: 'AUDIT_SECRET_IN_VALUES',
  /** A search's filter, page size or cursor is malformed or out of bounds. */
  searchInvalid: 'AUDIT_SEARCH_INVALID',
  /** More entries match an export than it may hold; narrow the filters. */
  exportTooLarge: 'AUDIT_EXPORT_TOO_LARGE',
} as const;

export type AuditErrorCode = (typeof auditErrorCodes)[keyof typeof auditErrorCodes];

export class AuditError extends Error {
  readonly code: AuditErrorCode;

  constructor(code: AuditErrorCode, message: string) {
    super(message);
    this.name = 'AuditError';
    this.code = code;
  }
}
