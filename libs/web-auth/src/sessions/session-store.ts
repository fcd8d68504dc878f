import type { Redis } from 'ioredis';
import { RedisScript } from '@pwa/redis';
import { judgeSession, newSessionRecord, sessionFromFields, sessionKeyTtlMs, sessionToFields, type Session, type SessionStage } from './session-record';
import type { SessionSettings } from './session-settings';
import { generateCsrfToken, generateSessionId, isWellFormedSessionId, sessionIdHash } from './session-tokens';

/**
 * Sessions in Redis. Keys (under settings.keyPrefix):
 * - `session:<sha256 of the id>`: a hash with the Session's fields; its TTL is the idle deadline
 *   or the absolute end, whichever is first. The id itself is never stored.
 * - `subject-sessions:<subjectId>`: the set of that person's session hashes, for revoking them all.
 *   Dead members are pruned whenever the person signs in again; the set expires with their
 *   longest-lived session.
 * Every change of more than one key is one Lua script, so a revocation racing a rotation or a
 * sign-in leaves no session behind. The scripts build session keys from the prefix they are given,
 * which suits a single Redis (not Redis Cluster, which this platform does not run).
 */

export interface IssuedSession {
  /** The opaque id for the `__Host-` cookie; shown to nobody else and stored nowhere. */
  sessionId: string;
  session: Session;
}

export type SessionLookup =
  | { found: true; session: Session }
  | { found: false; reason: 'malformed_id' | 'unknown' | 'expired_idle' | 'expired_absolute' | 'wrong_stage' };

export interface NewSession {
  subjectId: string;
  /** 'mfa_pending' after the password; 'signed_in' only for a sign-in that needs no second step here (single sign-on whose provider did MFA). */
  stage: SessionStage;
  attributes?: Readonly<Record<string, string>>;
}

const sessionKeyPart = 'session:';
const subjectKeyPart = 'subject-sessions:';

/**
 * How both scripts that store a session end: the new session's fields with its TTL, its hash in the
 * person's set, and the set kept alive at least as long as the session can live. KEYS[1]: the new
 * session, KEYS[2]: the subject set. ARGV[1]: its hash, ARGV[2]: key ttl, ARGV[3]: set ttl,
 * ARGV[5]...: its fields.
 */
const storeNewSessionLua = `
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
return 1
`;

/** KEYS: session, subject set. ARGV: session hash, key ttl, set ttl, session key prefix, fields... */
const createLua = `
for _, member in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('EXISTS', ARGV[4] .. member) == 0 then redis.call('SREM', KEYS[2], member) end
end
${storeNewSessionLua}`;

/** KEYS: new session, subject set, old session. ARGV: new hash, key ttl, set ttl, old hash, fields... */
const replaceLua = `
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('DEL', KEYS[3])
redis.call('SREM', KEYS[2], ARGV[4])
${storeNewSessionLua}`;

/** KEYS: session. ARGV: seen at, key ttl. Moves lastSeenAtMs forward only, and never revives a deleted key. */
const touchLua = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'lastSeenAtMs') or '0') < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'lastSeenAtMs', ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** KEYS: session. ARGV: session hash, subject set prefix. */
const revokeLua = `
local subject = redis.call('HGET', KEYS[1], 'subjectId')
local removed = redis.call('DEL', KEYS[1])
if subject then redis.call('SREM', ARGV[2] .. subject, ARGV[1]) end
return removed
`;

/** KEYS: subject set. ARGV: session key prefix, hash to keep ('' for none). */
const revokeAllLua = `
local revoked = 0
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if member ~= ARGV[2] then
    revoked = revoked + redis.call('DEL', ARGV[1] .. member)
    redis.call('SREM', KEYS[1], member)
  end
end
return revoked
`;

const createScript = new RedisScript(createLua);
const replaceScript = new RedisScript(replaceLua);
const touchScript = new RedisScript(touchLua);
const revokeScript = new RedisScript(revokeLua);
const revokeAllScript = new RedisScript(revokeAllLua);

function sessionKey(settings: SessionSettings, hash: string): string {
  return `${settings.keyPrefix}${sessionKeyPart}${hash}`;
}

function subjectKey(settings: SessionSettings, subjectId: string): string {
  return `${settings.keyPrefix}${subjectKeyPart}${subjectId}`;
}

function nowOf(settings: SessionSettings): number {
  return (settings.now ?? Date.now)();
}

/** Starts a session for a person whose password (or single sign-on) was just accepted. */
export async function createSession(redis: Redis, settings: SessionSettings, request: NewSession): Promise<IssuedSession> {
  if (request.subjectId === '') throw new Error('A session needs a subject id');
  const nowMs = nowOf(settings);
  const session = newSessionRecord({ subjectId: request.subjectId, stage: request.stage, csrfToken: generateCsrfToken(), attributes: request.attributes ?? {} }, nowMs, settings);
  const sessionId = generateSessionId();
  const hash = sessionIdHash(sessionId);
  await createScript.run(
    redis,
    [sessionKey(settings, hash), subjectKey(settings, session.subjectId)],
    [hash, sessionKeyTtlMs(session, nowMs, settings), settings.absoluteTimeoutMs, `${settings.keyPrefix}${sessionKeyPart}`, ...sessionToFields(session)],
  );
  return { sessionId, session };
}

/**
 * The session a request's cookie names, if it is alive and at the stage the route needs: a route
 * for signed-in people asks for 'signed_in', so a session still waiting for its MFA code can do
 * nothing there; the MFA step asks for 'mfa_pending'. An expired session is deleted. A valid read
 * moves the idle deadline unless refreshIdle is false (for background polling that must not keep
 * an unattended console alive).
 */
export async function readSession(
  redis: Redis,
  settings: SessionSettings,
  sessionId: string,
  expectedStage: SessionStage,
  options: { refreshIdle?: boolean } = {},
): Promise<SessionLookup> {
  if (!isWellFormedSessionId(sessionId)) return { found: false, reason: 'malformed_id' };
  const hash = sessionIdHash(sessionId);
  const key = sessionKey(settings, hash);
  const session = sessionFromFields(await redis.hgetall(key));
  if (session === undefined) return { found: false, reason: 'unknown' };
  const nowMs = nowOf(settings);
  const judgement = judgeSession(session, expectedStage, nowMs, settings);
  switch (judgement.kind) {
    case 'expired':
      await revokeScript.run(redis, [key], [hash, `${settings.keyPrefix}${subjectKeyPart}`]);
      return { found: false, reason: judgement.because === 'idle' ? 'expired_idle' : 'expired_absolute' };
    case 'wrong_stage':
      return { found: false, reason: 'wrong_stage' };
    case 'valid':
      break;
  }
  if (options.refreshIdle === false) return { found: true, session };
  const touched = await touchScript.run(redis, [key], [nowMs, sessionKeyTtlMs(session, nowMs, settings)]);
  if (touched !== 1) return { found: false, reason: 'unknown' };
  return { found: true, session: { ...session, lastSeenAtMs: Math.max(session.lastSeenAtMs, nowMs) } };
}

/**
 * Gives a live session a new id (and a new CSRF token) and kills the old id in the same step: call
 * it whenever the session's privilege changes (the person's roles changed, a step-up) so an id
 * planted or seen before cannot ride along (session fixation). The absolute end stays where it
 * was. Undefined when the old session is not alive at that stage (or another request rotated it first).
 */
export async function rotateSession(redis: Redis, settings: SessionSettings, sessionId: string, expectedStage: SessionStage): Promise<IssuedSession | undefined> {
  const lookup = await readSession(redis, settings, sessionId, expectedStage, { refreshIdle: false });
  if (!lookup.found) return undefined;
  const nowMs = nowOf(settings);
  return replaceSession(redis, settings, sessionId, { ...lookup.session, csrfToken: generateCsrfToken(), issuedAtMs: nowMs, lastSeenAtMs: nowMs });
}

/**
 * The MFA code was right: the half-signed-in session becomes a signed-in one under a new id (the
 * old id dies), and the absolute timeout starts now. Undefined when the session is not waiting for
 * its code (already completed by a concurrent request, expired or revoked).
 */
export async function completeMfaSignIn(
  redis: Redis,
  settings: SessionSettings,
  sessionId: string,
  options: { /** Facts added to the session's (which factor completed it, say); never secrets. */ attributes?: Readonly<Record<string, string>> } = {},
): Promise<IssuedSession | undefined> {
  const lookup = await readSession(redis, settings, sessionId, 'mfa_pending', { refreshIdle: false });
  if (!lookup.found) return undefined;
  const nowMs = nowOf(settings);
  const attributes = { ...lookup.session.attributes, ...options.attributes };
  const signedIn = newSessionRecord({ subjectId: lookup.session.subjectId, stage: 'signed_in', csrfToken: generateCsrfToken(), attributes }, nowMs, settings);
  return replaceSession(redis, settings, sessionId, signedIn);
}

async function replaceSession(redis: Redis, settings: SessionSettings, oldSessionId: string, session: Session): Promise<IssuedSession | undefined> {
  const nowMs = session.issuedAtMs;
  const oldHash = sessionIdHash(oldSessionId);
  const sessionId = generateSessionId();
  const hash = sessionIdHash(sessionId);
  const replaced = await replaceScript.run(
    redis,
    [sessionKey(settings, hash), subjectKey(settings, session.subjectId), sessionKey(settings, oldHash)],
    [hash, sessionKeyTtlMs(session, nowMs, settings), settings.absoluteTimeoutMs, oldHash, ...sessionToFields(session)],
  );
  return replaced === 1 ? { sessionId, session } : undefined;
}

/** Ends one session (sign-out). True when it was alive. */
export async function revokeSession(redis: Redis, settings: SessionSettings, sessionId: string): Promise<boolean> {
  if (!isWellFormedSessionId(sessionId)) return false;
  const hash = sessionIdHash(sessionId);
  const removed = await revokeScript.run(redis, [sessionKey(settings, hash)], [hash, `${settings.keyPrefix}${subjectKeyPart}`]);
  return removed === 1;
}

/**
 * Ends every session of a person: sign-out everywhere, a password change or reset, a role change,
 * a disabled account. exceptSessionId keeps the one the person is using (after a password change
 * they made themselves; rotate it too). Returns how many sessions ended.
 */
export async function revokeAllSessionsOf(redis: Redis, settings: SessionSettings, subjectId: string, options: { exceptSessionId?: string } = {}): Promise<number> {
  const keep = options.exceptSessionId === undefined ? '' : sessionIdHash(options.exceptSessionId);
  const revoked = await revokeAllScript.run(redis, [subjectKey(settings, subjectId)], [`${settings.keyPrefix}${sessionKeyPart}`, keep]);
  return Number(revoked);
}
