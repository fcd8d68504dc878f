import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  completeMfaSignIn,
  createSession,
  csrfTokenMatches,
  defaultSessionTimeouts,
  readSession,
  revokeAllSessionsOf,
  revokeSession,
  rotateSession,
  sessionIdHash,
  type IssuedSession,
  type SessionSettings,
} from '../../src';
import { redisTestKeys } from '../support/redis-test-keys';

const { redis, keyPrefix, keysUnderPrefix } = redisTestKeys('sessions');
const minuteMs = 60_000;

/** Settings on a clock the test moves, so timeouts of minutes and hours take no time. */
function onTestClock(): { settings: SessionSettings; advance: (ms: number) => void } {
  let nowMs = Date.now();
  return { settings: { keyPrefix, ...defaultSessionTimeouts, now: () => nowMs }, advance: (ms) => (nowMs += ms) };
}

const realClock: SessionSettings = { keyPrefix, ...defaultSessionTimeouts };

/** A signed-in session of a person no other test uses. */
function newSession(settings: SessionSettings, attributes?: Readonly<Record<string, string>>): Promise<IssuedSession> {
  return createSession(redis, settings, { subjectId: `op-${randomUUID()}`, stage: 'signed_in', attributes });
}

async function isAlive(settings: SessionSettings, sessionId: string, options: { refreshIdle?: boolean } = {}): Promise<boolean> {
  return (await readSession(redis, settings, sessionId, 'signed_in', options)).found;
}

/** The key a session is stored under: the SHA-256 of its id, never the id. */
function storedKeyOf(sessionId: string): string {
  return `${keyPrefix}session:${sessionIdHash(sessionId)}`;
}

describe('session lifecycle', () => {
  it('when a signed-in session is created and read, then the read returns its subject, stage, CSRF token and attributes', async () => {
    const { sessionId, session } = await newSession(realClock, { partnerId: 'p-1' });
    const lookup = await readSession(redis, realClock, sessionId, 'signed_in');
    expect(lookup).toEqual({ found: true, session: expect.objectContaining({ subjectId: session.subjectId, stage: 'signed_in', csrfToken: session.csrfToken, attributes: { partnerId: 'p-1' } }) });
  });

  it('when an unknown or malformed id is read, then nothing is found', async () => {
    expect(await readSession(redis, realClock, 'A'.repeat(43), 'signed_in')).toEqual({ found: false, reason: 'unknown' });
    expect(await readSession(redis, realClock, 'not an id', 'signed_in')).toEqual({ found: false, reason: 'malformed_id' });
  });

  it('when a read asks not to refresh, then the idle deadline does not move', async () => {
    const { settings, advance } = onTestClock();
    const { sessionId } = await newSession(settings);
    advance(10 * minuteMs);
    expect(await isAlive(settings, sessionId, { refreshIdle: false })).toBe(true);
    advance(5 * minuteMs);
    expect(await readSession(redis, settings, sessionId, 'signed_in')).toEqual({ found: false, reason: 'expired_idle' });
  });

  // On the test clock: the session is read every 10 minutes so many times, then left alone so long.
  it.each([
    { title: 'when a session is used every 10 minutes, then it stays alive; after 15 idle minutes it is expired and deleted', reads: 3, thenIdleMs: 15 * minuteMs, reason: 'expired_idle' },
    { title: 'when a session is busy for 8 hours, then it expires absolutely at 8 hours', reads: 47, thenIdleMs: 10 * minuteMs, reason: 'expired_absolute' },
  ])('$title', async ({ reads, thenIdleMs, reason }) => {
    const { settings, advance } = onTestClock();
    const { sessionId } = await newSession(settings);
    for (let read = 0; read < reads; read += 1) {
      advance(10 * minuteMs);
      expect(await isAlive(settings, sessionId)).toBe(true);
    }
    advance(thenIdleMs);
    expect(await readSession(redis, settings, sessionId, 'signed_in')).toEqual({ found: false, reason });
    expect(await redis.exists(storedKeyOf(sessionId))).toBe(0);
  });

  // On the real clock, so the key's TTL in Redis is what is tested. Each case: the session's absolute
  // timeout (its idle timeout is 1 s), when it is read, the bounds of its key's TTL just after that
  // read (above the first, at most the second), and how long after that read its key is gone.
  it.each([
    {
      title: 'when a session with a 1 s idle timeout is read at 0.4 s, then Redis keeps it 1 s more, and it is gone 1.2 s after its last read',
      absoluteTimeoutMs: 10_000,
      readAtMs: 400,
      keyTtlMsBounds: [800, 1_000] as const,
      goneAfterMs: 1_200,
    },
    {
      title: 'when the absolute end is nearer than the idle timeout, then Redis expires the key at the absolute end',
      absoluteTimeoutMs: 1_200,
      readAtMs: 500,
      // Capped at what is left of the 1.2 s (at most 0.7 s), not the 1 s idle timeout.
      keyTtlMsBounds: [0, 700] as const,
      goneAfterMs: 800,
    },
  ])('$title', async ({ absoluteTimeoutMs, readAtMs, keyTtlMsBounds: [ttlAboveMs, ttlAtMostMs], goneAfterMs }) => {
    const settings: SessionSettings = { keyPrefix, idleTimeoutMs: 1_000, absoluteTimeoutMs, mfaPendingTimeoutMs: 1_000 };
    const { sessionId } = await newSession(settings);
    await sleep(readAtMs);
    expect(await isAlive(settings, sessionId)).toBe(true);
    const keyTtlMs = await redis.pttl(storedKeyOf(sessionId));
    expect(keyTtlMs).toBeGreaterThan(ttlAboveMs);
    expect(keyTtlMs).toBeLessThanOrEqual(ttlAtMostMs);
    await sleep(goneAfterMs);
    expect(await readSession(redis, settings, sessionId, 'signed_in')).toEqual({ found: false, reason: 'unknown' });
  });
});

describe('revocation', () => {
  it('when a session is revoked, then it cannot be read and a second revoke finds nothing', async () => {
    const subjectId = `op-${randomUUID()}`;
    const { sessionId } = await createSession(redis, realClock, { subjectId, stage: 'signed_in' });
    expect(await revokeSession(redis, realClock, sessionId)).toBe(true);
    expect(await readSession(redis, realClock, sessionId, 'signed_in')).toEqual({ found: false, reason: 'unknown' });
    expect(await revokeSession(redis, realClock, sessionId)).toBe(false);
    expect(await redis.smembers(`${keyPrefix}subject-sessions:${subjectId}`)).toEqual([]);
  });

  it('when all sessions of a person are revoked except the current one, then the others end and other people’s stay', async () => {
    const subjectId = `op-${randomUUID()}`;
    const mine = await Promise.all([1, 2, 3].map(() => createSession(redis, realClock, { subjectId, stage: 'signed_in' })));
    const pending = await createSession(redis, realClock, { subjectId, stage: 'mfa_pending' });
    const someoneElse = await createSession(redis, realClock, { subjectId: `op-${randomUUID()}`, stage: 'signed_in' });
    const [current, ...others] = mine.map((issued) => issued.sessionId) as [string, ...string[]];
    expect(await revokeAllSessionsOf(redis, realClock, subjectId, { exceptSessionId: current })).toBe(3);
    for (const sessionId of others) expect((await readSession(redis, realClock, sessionId, 'signed_in')).found).toBe(false);
    expect((await readSession(redis, realClock, pending.sessionId, 'mfa_pending')).found).toBe(false);
    expect((await readSession(redis, realClock, current, 'signed_in')).found).toBe(true);
    expect((await readSession(redis, realClock, someoneElse.sessionId, 'signed_in')).found).toBe(true);
    expect(await revokeAllSessionsOf(redis, realClock, subjectId)).toBe(1);
    expect((await readSession(redis, realClock, current, 'signed_in')).found).toBe(false);
  });

  it('when a person signs in again after a session expired in Redis, then the dead session leaves their set', async () => {
    const subjectId = `op-${randomUUID()}`;
    const shortLived: SessionSettings = { keyPrefix, idleTimeoutMs: 300, absoluteTimeoutMs: 10_000, mfaPendingTimeoutMs: 300 };
    const expired = await createSession(redis, shortLived, { subjectId, stage: 'signed_in' });
    await sleep(400);
    const current = await createSession(redis, realClock, { subjectId, stage: 'signed_in' });
    expect(await redis.smembers(`${keyPrefix}subject-sessions:${subjectId}`)).toEqual([sessionIdHash(current.sessionId)]);
    expect(await redis.smembers(`${keyPrefix}subject-sessions:${subjectId}`)).not.toContain(sessionIdHash(expired.sessionId));
  });

  it('when a rotated session’s person is signed out everywhere, then the new id ends too', async () => {
    const subjectId = `op-${randomUUID()}`;
    const { sessionId } = await createSession(redis, realClock, { subjectId, stage: 'signed_in' });
    const rotated = await rotateSession(redis, realClock, sessionId, 'signed_in');
    expect(rotated).toBeDefined();
    expect(await revokeAllSessionsOf(redis, realClock, subjectId)).toBe(1);
    expect((await readSession(redis, realClock, rotated?.sessionId ?? '', 'signed_in')).found).toBe(false);
  });
});

describe('rotation and MFA stages', () => {
  it('when a session is rotated, then the old id is dead, the new one works with a new CSRF token, and the absolute end stays', async () => {
    const { settings, advance } = onTestClock();
    const created = await createSession(redis, settings, { subjectId: `op-${randomUUID()}`, stage: 'signed_in', attributes: { method: 'password' } });
    advance(minuteMs);
    const rotated = await rotateSession(redis, settings, created.sessionId, 'signed_in');
    if (rotated === undefined) throw new Error('the rotation should have succeeded');
    expect(rotated.sessionId).not.toBe(created.sessionId);
    expect(rotated.session.csrfToken).not.toBe(created.session.csrfToken);
    expect(rotated.session.expiresAtMs).toBe(created.session.expiresAtMs);
    expect(rotated.session.attributes).toEqual({ method: 'password' });
    expect(await readSession(redis, settings, created.sessionId, 'signed_in')).toEqual({ found: false, reason: 'unknown' });
    expect((await readSession(redis, settings, rotated.sessionId, 'signed_in')).found).toBe(true);
    expect(await rotateSession(redis, settings, created.sessionId, 'signed_in')).toBeUndefined();
  });

  it('when a session waits for MFA, then signed-in routes cannot use it, and completing MFA gives a new signed-in id and kills the old one', async () => {
    const { settings, advance } = onTestClock();
    const pending = await createSession(redis, settings, { subjectId: `op-${randomUUID()}`, stage: 'mfa_pending' });
    expect(await readSession(redis, settings, pending.sessionId, 'signed_in')).toEqual({ found: false, reason: 'wrong_stage' });
    expect(await rotateSession(redis, settings, pending.sessionId, 'signed_in')).toBeUndefined();
    advance(minuteMs);
    const signedIn = await completeMfaSignIn(redis, settings, pending.sessionId);
    if (signedIn === undefined) throw new Error('completing MFA should have succeeded');
    expect(signedIn.session.stage).toBe('signed_in');
    expect(signedIn.session.expiresAtMs).toBe((settings.now ?? Date.now)() + defaultSessionTimeouts.absoluteTimeoutMs);
    expect((await readSession(redis, settings, signedIn.sessionId, 'signed_in')).found).toBe(true);
    expect(await readSession(redis, settings, pending.sessionId, 'mfa_pending')).toEqual({ found: false, reason: 'unknown' });
    expect(await readSession(redis, settings, signedIn.sessionId, 'mfa_pending')).toEqual({ found: false, reason: 'wrong_stage' });
  });

  it('when two requests complete MFA on one session at once, then exactly one gets a signed-in session', async () => {
    const pending = await createSession(redis, realClock, { subjectId: `op-${randomUUID()}`, stage: 'mfa_pending' });
    const outcomes = await Promise.all([completeMfaSignIn(redis, realClock, pending.sessionId), completeMfaSignIn(redis, realClock, pending.sessionId)]);
    expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
  });

  it('when an MFA-pending session is 5 minutes old, then the code can no longer be given', async () => {
    const { settings, advance } = onTestClock();
    const pending = await createSession(redis, settings, { subjectId: `op-${randomUUID()}`, stage: 'mfa_pending' });
    advance(5 * minuteMs);
    expect(await completeMfaSignIn(redis, settings, pending.sessionId)).toBeUndefined();
  });
});

describe('CSRF tokens', () => {
  it('when a state-changing call offers the token of its own session, then it matches; another session’s token does not', async () => {
    const first = await createSession(redis, realClock, { subjectId: `op-${randomUUID()}`, stage: 'signed_in' });
    const second = await createSession(redis, realClock, { subjectId: `op-${randomUUID()}`, stage: 'signed_in' });
    const lookup = await readSession(redis, realClock, first.sessionId, 'signed_in');
    if (!lookup.found) throw new Error('the session should be alive');
    expect(csrfTokenMatches(lookup.session.csrfToken, first.session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(lookup.session.csrfToken, second.session.csrfToken)).toBe(false);
    expect(csrfTokenMatches(lookup.session.csrfToken, undefined)).toBe(false);
  });
});

describe('what Redis holds', () => {
  it('when sessions exist, then their ids appear in no key, field, value or set member, only their SHA-256 does', async () => {
    const subjectId = `op-${randomUUID()}`;
    const issued = await Promise.all([
      createSession(redis, realClock, { subjectId, stage: 'signed_in' }),
      createSession(redis, realClock, { subjectId, stage: 'mfa_pending' }),
    ]);
    const rotated = await rotateSession(redis, realClock, issued[0].sessionId, 'signed_in');
    const ids = [...issued.map((one) => one.sessionId), rotated?.sessionId ?? ''];
    const stored: string[] = [];
    for (const key of await keysUnderPrefix()) {
      stored.push(key);
      const type = await redis.type(key);
      if (type === 'hash') stored.push(...Object.entries(await redis.hgetall(key)).flat());
      else if (type === 'set') stored.push(...(await redis.smembers(key)));
      else stored.push(String(await redis.get(key)));
    }
    const everything = stored.join('\n');
    for (const id of ids) expect(everything).not.toContain(id);
    const keys = await keysUnderPrefix();
    expect(keys).toContain(`${keyPrefix}session:${sessionIdHash(issued[1].sessionId)}`);
    expect(keys).toContain(`${keyPrefix}session:${sessionIdHash(rotated?.sessionId ?? '')}`);
    expect(keys).not.toContain(`${keyPrefix}session:${sessionIdHash(issued[0].sessionId)}`);
  });
});
