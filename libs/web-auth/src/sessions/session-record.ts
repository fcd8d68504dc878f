import type { SessionSettings } from './session-settings';

/**
 * `mfa_pending`: the password was right, the second factor is still to come; such a session may
 * only be used to give the code (readSession with 'mfa_pending'). `signed_in`: both factors given.
 */
export type SessionStage = 'mfa_pending' | 'signed_in';

export interface Session {
  subjectId: string;
  stage: SessionStage;
  /** The synchronizer token the page sends back on every state-changing call. */
  csrfToken: string;
  /** When this id was issued (a rotation issues a new one). */
  issuedAtMs: number;
  lastSeenAtMs: number;
  /** The absolute end: sign-in plus absoluteTimeoutMs, or plus mfaPendingTimeoutMs while MFA is pending. */
  expiresAtMs: number;
  /** Small facts the service keeps with the session (the partner id, the sign-in method), never secrets. */
  attributes: Readonly<Record<string, string>>;
}

export type SessionJudgement = { kind: 'valid' } | { kind: 'expired'; because: 'idle' | 'absolute' } | { kind: 'wrong_stage' };

/** A new session's record; the absolute end starts now. */
export function newSessionRecord(
  fields: { subjectId: string; stage: SessionStage; csrfToken: string; attributes: Readonly<Record<string, string>> },
  nowMs: number,
  settings: SessionSettings,
): Session {
  const lifetimeMs = fields.stage === 'mfa_pending' ? settings.mfaPendingTimeoutMs : settings.absoluteTimeoutMs;
  return { ...fields, issuedAtMs: nowMs, lastSeenAtMs: nowMs, expiresAtMs: nowMs + lifetimeMs };
}

/**
 * Whether a stored session may serve a request that needs `expectedStage` at nowMs. Both timeouts
 * are judged here on every read, so a session is refused at its deadline even if Redis has not
 * expired the key yet.
 */
export function judgeSession(session: Session, expectedStage: SessionStage, nowMs: number, settings: SessionSettings): SessionJudgement {
  if (nowMs >= session.expiresAtMs) return { kind: 'expired', because: 'absolute' };
  if (nowMs >= session.lastSeenAtMs + settings.idleTimeoutMs) return { kind: 'expired', because: 'idle' };
  if (session.stage !== expectedStage) return { kind: 'wrong_stage' };
  return { kind: 'valid' };
}

/** How long Redis keeps the key from nowMs: until the idle deadline or the absolute end, whichever is first. */
export function sessionKeyTtlMs(session: Pick<Session, 'expiresAtMs'>, nowMs: number, settings: SessionSettings): number {
  return Math.max(1, Math.min(settings.idleTimeoutMs, session.expiresAtMs - nowMs));
}

/** The record as the flat field/value list HSET takes. */
export function sessionToFields(session: Session): string[] {
  return [
    'subjectId', session.subjectId,
    'stage', session.stage,
    'csrfToken', session.csrfToken,
    'issuedAtMs', String(session.issuedAtMs),
    'lastSeenAtMs', String(session.lastSeenAtMs),
    'expiresAtMs', String(session.expiresAtMs),
    'attributes', JSON.stringify(session.attributes),
  ];
}

/** The record HGETALL returned, or undefined when it is missing or not one this library wrote. */
export function sessionFromFields(fields: Record<string, string>): Session | undefined {
  const { subjectId, stage, csrfToken } = fields;
  const issuedAtMs = Number(fields.issuedAtMs);
  const lastSeenAtMs = Number(fields.lastSeenAtMs);
  const expiresAtMs = Number(fields.expiresAtMs);
  if (subjectId === undefined || subjectId === '' || csrfToken === undefined || (stage !== 'mfa_pending' && stage !== 'signed_in')) return undefined;
  if (![issuedAtMs, lastSeenAtMs, expiresAtMs].every(Number.isSafeInteger)) return undefined;
  const attributes = attributesFrom(fields.attributes);
  if (attributes === undefined) return undefined;
  return { subjectId, stage, csrfToken, issuedAtMs, lastSeenAtMs, expiresAtMs, attributes };
}

function attributesFrom(json: string | undefined): Record<string, string> | undefined {
  if (json === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (!entries.every(([, value]) => typeof value === 'string')) return undefined;
    return Object.fromEntries(entries) as Record<string, string>;
  } catch {
    return undefined;
  }
}
