import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { AuditActor, AuditEntry, AuditEntryInput, AuditOutcome, AuditTarget, JsonValue } from './audit-entry';
import { AuditError, auditErrorCodes } from './audit-error';
import { findSecretKeyPath } from './secret-keys';

/** An entry checked and put in the form it is stored and hashed in: all the log holds but what appending adds. */
export type ValidatedEntry = Omit<AuditEntry, 'sequence' | 'occurredAt' | 'previousHash' | 'hash'>;

export const actionPattern = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const targetKindPattern = /^[a-z][a-z0-9_]*$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** In Unicode mode this matches a surrogate only when it is not half of a pair. */
const loneSurrogate = /[\uD800-\uDFFF]/u;
const nul = String.fromCharCode(0);

/** NUL cannot be stored in text or jsonb; a lone surrogate would be stored as U+FFFD and no longer match its hash. */
function hasUnstorableCharacter(text: string): boolean {
  return text.includes(nul) || loneSurrogate.test(text);
}

export const textLengthMax = 200;
export const actionLengthMax = 100;
export const reasonLengthMax = 2_000;
export const userAgentLengthMax = 512;
/** before and after together, as JSON text. */
export const valuesLengthMax = 64 * 1024;
export const valuesDepthMax = 32;

export function validateEntry(input: AuditEntryInput): ValidatedEntry {
  const actor = validateActor(input.actor);
  const action = requiredText(input.action, 'action', actionLengthMax);
  if (!actionPattern.test(action)) invalid('action must be dotted lower-case words, such as partner.status.change');
  const target = validateTarget(input.target);
  const outcome = validateOutcome(input.outcome);
  const reason = optionalText(input.reason, 'reason', reasonLengthMax);
  if (outcome === 'refused' && reason === null) invalid('reason is required when the outcome is refused');
  if (outcome === 'done' && reason !== null) invalid('reason is only for refusals');
  const before = storedJson(input.before, 'before');
  const after = storedJson(input.after, 'after');
  if (JSON.stringify(before).length + JSON.stringify(after).length > valuesLengthMax) invalid(`before and after together exceed ${valuesLengthMax} characters`);
  return {
    entryId: input.entryId === undefined ? randomUUID() : uuid(input.entryId, 'entryId'),
    actor,
    action,
    target,
    partnerId: input.partnerId === undefined || input.partnerId === null ? null : uuid(input.partnerId, 'partnerId'),
    before,
    after,
    outcome,
    reason,
    address: validateAddress(input.address),
    userAgent: validateUserAgent(input.userAgent),
    requestId: optionalText(input.requestId, 'requestId', textLengthMax),
  };
}

function validateActor(actor: AuditActor): AuditActor {
  if (typeof actor !== 'object' || actor === null) invalid('actor is required');
  if (actor.kind !== 'person' && actor.kind !== 'system') invalid('actor.kind must be person or system');
  return { kind: actor.kind, id: requiredText(actor.id, 'actor.id', textLengthMax), displayName: requiredText(actor.displayName, 'actor.displayName', textLengthMax) };
}

function validateTarget(target: AuditTarget): AuditTarget {
  if (typeof target !== 'object' || target === null) invalid('target is required');
  const kind = requiredText(target.kind, 'target.kind', textLengthMax);
  if (!targetKindPattern.test(kind)) invalid('target.kind must be a lower-case word, such as partner or team_member');
  return { kind, id: requiredText(target.id, 'target.id', textLengthMax) };
}

function validateOutcome(outcome: AuditOutcome): AuditOutcome {
  if (outcome !== 'done' && outcome !== 'refused') invalid('outcome must be done or refused');
  return outcome;
}

function validateAddress(address: string | null | undefined): string | null {
  const text = optionalText(address, 'address', textLengthMax);
  if (text !== null && isIP(text) === 0) invalid('address must be an IP address');
  return text;
}

/** The User-Agent is whatever the client sent: it is cut, not refused, so a long one cannot stop an action's entry. */
function validateUserAgent(userAgent: string | null | undefined): string | null {
  if (userAgent === undefined || userAgent === null || userAgent === '') return null;
  if (typeof userAgent !== 'string') invalid('userAgent must be text');
  const cut = Array.from(userAgent).slice(0, userAgentLengthMax).join('');
  return cut.split(nul).join('\uFFFD').replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
}

/**
 * The value as jsonb will give it back: through JSON text (undefined members dropped, a Date as its
 * ISO text), so the hash computed now matches the one verification computes from the stored row.
 */
function storedJson(value: JsonValue | undefined, field: 'before' | 'after'): JsonValue {
  if (value === undefined || value === null) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    invalid(`${field} must be a JSON value`);
  }
  if (text === undefined) invalid(`${field} must be a JSON value`);
  const stored = JSON.parse(text) as JsonValue;
  checkStorable(stored, field, 0);
  const secretPath = findSecretKeyPath(stored, field);
  if (secretPath !== undefined) throw new AuditError(auditErrorCodes.secretInValues, `${secretPath} looks like a secret; secrets are never written to the audit log`);
  return stored;
}

function checkStorable(value: JsonValue, path: string, depth: number): void {
  if (depth > valuesDepthMax) invalid(`${path} is nested deeper than ${valuesDepthMax} levels`);
  if (typeof value === 'string') {
    if (hasUnstorableCharacter(value)) invalid(`${path} holds a NUL character or a lone surrogate`);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => checkStorable(item, `${path}[${index}]`, depth + 1));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasUnstorableCharacter(key)) invalid(`a key in ${path} holds a NUL character or a lone surrogate`);
      checkStorable(item, `${path}.${key}`, depth + 1);
    }
  }
}

function requiredText(value: string, field: string, lengthMax: number): string {
  if (typeof value !== 'string' || value.trim() === '') invalid(`${field} is required`);
  return storableText(value, field, lengthMax);
}

function optionalText(value: string | null | undefined, field: string, lengthMax: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') invalid(`${field} must be text`);
  if (value.trim() === '') invalid(`${field} must not be empty when given`);
  return storableText(value, field, lengthMax);
}

function storableText(value: string, field: string, lengthMax: number): string {
  if (value.length > lengthMax) invalid(`${field} is longer than ${lengthMax} characters`);
  if (hasUnstorableCharacter(value)) invalid(`${field} holds a NUL character or a lone surrogate`);
  return value;
}

function uuid(value: string, field: string): string {
  if (typeof value !== 'string' || !uuidPattern.test(value.toLowerCase())) invalid(`${field} must be a UUID`);
  return value.toLowerCase();
}

function invalid(message: string): never {
  throw new AuditError(auditErrorCodes.entryInvalid, message);
}
