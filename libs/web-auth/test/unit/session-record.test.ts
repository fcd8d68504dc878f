import {
  checkSessionSettings,
  csrfTokenMatches,
  defaultSessionTimeouts,
  generateCsrfToken,
  generateSessionId,
  isWellFormedSessionId,
  judgeSession,
  newSessionRecord,
  sessionIdHash,
  sessionKeyTtlMs,
  type SessionSettings,
} from '../../src';

const settings: SessionSettings = { keyPrefix: 'unit:', ...defaultSessionTimeouts };
const startMs = Date.UTC(2026, 10, 28, 9, 0, 0);
const minuteMs = 60_000;

function signedIn(): ReturnType<typeof newSessionRecord> {
  return newSessionRecord({ subjectId: 'op-1', stage: 'signed_in', csrfToken: generateCsrfToken(), attributes: {} }, startMs, settings);
}

describe('session judgement on read', () => {
  it('when a signed-in session is read within its idle time, then it is valid for signed-in routes', () => {
    expect(judgeSession(signedIn(), 'signed_in', startMs + 14 * minuteMs, settings)).toEqual({ kind: 'valid' });
  });

  it('when 15 minutes pass without use, then the session has expired for idleness', () => {
    expect(judgeSession(signedIn(), 'signed_in', startMs + 15 * minuteMs, settings)).toEqual({ kind: 'expired', because: 'idle' });
  });

  it('when a session was used a minute ago but 8 hours have passed since sign-in, then it has expired absolutely', () => {
    const busy = { ...signedIn(), lastSeenAtMs: startMs + 8 * 60 * minuteMs - minuteMs };
    expect(judgeSession(busy, 'signed_in', startMs + 8 * 60 * minuteMs, settings)).toEqual({ kind: 'expired', because: 'absolute' });
  });

  it('when a session waits for its MFA code, then a signed-in route sees the wrong stage and the MFA step sees it valid', () => {
    const pending = newSessionRecord({ subjectId: 'op-1', stage: 'mfa_pending', csrfToken: generateCsrfToken(), attributes: {} }, startMs, settings);
    expect(judgeSession(pending, 'signed_in', startMs + minuteMs, settings)).toEqual({ kind: 'wrong_stage' });
    expect(judgeSession(pending, 'mfa_pending', startMs + minuteMs, settings)).toEqual({ kind: 'valid' });
  });

  it('when an MFA-pending session is 5 minutes old, then it has expired, even though it is not idle', () => {
    const pending = newSessionRecord({ subjectId: 'op-1', stage: 'mfa_pending', csrfToken: generateCsrfToken(), attributes: {} }, startMs, settings);
    expect(pending.expiresAtMs).toBe(startMs + 5 * minuteMs);
    expect(judgeSession({ ...pending, lastSeenAtMs: startMs + 4 * minuteMs }, 'mfa_pending', startMs + 5 * minuteMs, settings)).toEqual({ kind: 'expired', because: 'absolute' });
  });

  it('when the key TTL is computed, then it is the idle timeout, or what is left of the absolute one near the end', () => {
    expect(sessionKeyTtlMs(signedIn(), startMs, settings)).toBe(15 * minuteMs);
    expect(sessionKeyTtlMs(signedIn(), startMs + 8 * 60 * minuteMs - 2 * minuteMs, settings)).toBe(2 * minuteMs);
  });
});

describe('session settings', () => {
  it('when idle exceeds absolute, a timeout is not positive or the prefix is empty, then the settings are refused', () => {
    expect(() => checkSessionSettings({ ...settings, idleTimeoutMs: settings.absoluteTimeoutMs + 1 })).toThrow('idleTimeoutMs');
    expect(() => checkSessionSettings({ ...settings, mfaPendingTimeoutMs: 0 })).toThrow('mfaPendingTimeoutMs');
    expect(() => checkSessionSettings({ ...settings, keyPrefix: '' })).toThrow('keyPrefix');
    expect(() => checkSessionSettings(settings)).not.toThrow();
  });
});

describe('session ids and CSRF tokens', () => {
  it('when ids are generated, then each is 32 random bytes in base64url and the stored form is its SHA-256', () => {
    const id = generateSessionId();
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
    expect(isWellFormedSessionId(id)).toBe(true);
    expect(generateSessionId()).not.toBe(id);
    expect(sessionIdHash(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdHash(id)).not.toContain(id);
  });

  it('when a cookie value is not shaped like an id, then it is not well formed', () => {
    for (const value of ['', 'abc', `${generateSessionId()}x`, `${generateSessionId().slice(0, 42)}=`, '*'.repeat(43)]) {
      expect(isWellFormedSessionId(value)).toBe(false);
    }
  });

  it('when the offered CSRF token is the session’s, then it matches; another, a prefix, or none does not', () => {
    const token = generateCsrfToken();
    expect(csrfTokenMatches(token, token)).toBe(true);
    expect(csrfTokenMatches(token, generateCsrfToken())).toBe(false);
    expect(csrfTokenMatches(token, token.slice(0, 20))).toBe(false);
    expect(csrfTokenMatches(token, undefined)).toBe(false);
    expect(csrfTokenMatches(token, '')).toBe(false);
    expect(csrfTokenMatches('', '')).toBe(false);
  });
});
