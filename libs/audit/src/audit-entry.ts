/** A JSON value as the log stores it (jsonb): what before and after may hold. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Who acted: a person (an operator or a partner's team member, never a shared account) or the system itself. */
// Type aliases, not interfaces, so an actor or target is a JsonValue (what its hash covers).
export type AuditActor = {
  kind: 'person' | 'system';
  /** The person's id, or the name of the system part that acted (`approval-expiry`, say). */
  id: string;
  /** The name shown in the log as it was when the entry was written. */
  displayName: string;
};

/** What the action was done to: `partner` and its id, `team_member`, `funding_request`, ... */
export type AuditTarget = {
  kind: string;
  id: string;
};

/** `done`: the change happened. `refused`: it was asked for and refused (with the reason). */
export type AuditOutcome = 'done' | 'refused';

/** What a service gives appendAuditEntry. The log adds the sequence, the time and the hashes. */
export interface AuditEntryInput {
  /** The entry's id; a random UUID when not given. */
  entryId?: string;
  actor: AuditActor;
  /** Dotted lower-case words, from the general to the particular: `partner.status.change`. */
  action: string;
  target: AuditTarget;
  /** The partner whose log the entry belongs to (the dashboard's partner audit log), if any. */
  partnerId?: string | null;
  /** The values before and after the change; keys that look secret are refused, at any depth. */
  before?: JsonValue;
  after?: JsonValue;
  outcome: AuditOutcome;
  /** Why the action was refused; required for `refused`, absent for `done`. */
  reason?: string | null;
  /** Where the request came from: the client's IP address. */
  address?: string | null;
  /** The client's User-Agent header; cut to userAgentLengthMax characters. */
  userAgent?: string | null;
  requestId?: string | null;
}

/** One entry as the log holds it. */
export interface AuditEntry {
  /** The entry's place in the chain: 1, 2, 3, ... without gaps. */
  sequence: number;
  entryId: string;
  /** When the entry was appended (the database's clock), UTC to the microsecond: `2026-11-28T13:37:11.123456Z`. */
  occurredAt: string;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  partnerId: string | null;
  before: JsonValue;
  after: JsonValue;
  outcome: AuditOutcome;
  reason: string | null;
  address: string | null;
  userAgent: string | null;
  requestId: string | null;
  /** The previous entry's hash (64 zeros for the first), hexadecimal. */
  previousHash: string;
  /** SHA-256 of the entry's canonical content, hexadecimal. */
  hash: string;
}

/** What appendAuditEntry answers: where the entry went in the chain. */
export interface AppendedAuditEntry {
  sequence: number;
  entryId: string;
  occurredAt: string;
  hash: string;
}
