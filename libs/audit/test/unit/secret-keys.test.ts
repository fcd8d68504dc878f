import { findSecretKeyPath, keyLooksSecret, type JsonValue } from '../../src';
import { auditErrorCodes, type AuditErrorCode } from '../../src/audit-error';
import { validateEntry } from '../../src/entry-validation';

const baseEntry = {
  actor: { kind: 'person' as const, id: 'operator-1', displayName: 'Ama' },
  action: 'partner.webhook_url.change',
  target: { kind: 'partner', id: 'p-1' },
  outcome: 'done' as const,
};

/** toThrow's expectation of the AuditError validation throws: matched on its code, as callers match. */
const auditErrorWith = (code: AuditErrorCode, message: unknown = expect.any(String)) => expect.objectContaining({ name: 'AuditError', code, message });

describe('secret key detection', () => {
  it.each(['password', 'newPassword', 'PASSWORD_HASH', 'clientSecret', 'client_secret', 'accessToken', 'totpSecret', 'TOTP', 'sessionId', 'Set-Cookie', 'Authorization', 'apiKey', 'private_key'])(
    'when a key is %s, then it looks secret',
    (key) => {
      expect(keyLooksSecret(key)).toBe(true);
    },
  );

  it.each(['status', 'webhookUrl', 'name', 'limits', 'clientId', 'amountMinor'])('when a key is %s, then it does not look secret', (key) => {
    expect(keyLooksSecret(key)).toBe(false);
  });

  it('when a secret key sits deep in objects and arrays, then its whole path is named', () => {
    const value: JsonValue = { credentials: [{ clientId: 'c-1' }, { clientId: 'c-2', nested: { ClientSecret: 'hunter2' } }] };
    expect(findSecretKeyPath(value, 'after')).toBe('after.credentials[1].nested.ClientSecret');
  });

  it('when a key is not an identifier, then the path quotes it', () => {
    expect(findSecretKeyPath({ headers: { 'x-session-id': 'abc' } }, 'before')).toBe('before.headers["x-session-id"]');
  });

  it('when no key looks secret, even if a value does, then nothing is found', () => {
    expect(findSecretKeyPath({ note: 'my password is hunter2', list: ['token'] }, 'after')).toBeUndefined();
  });

  it('when an entry carries a secret key in after, then it is refused with the path and never the value', () => {
    const refused = (): unknown => validateEntry({ ...baseEntry, after: { webhook: { url: 'https://x', signingSecret: 'whsec_do_not_log' } } });
    expect(refused).toThrow(auditErrorWith(auditErrorCodes.secretInValues, expect.stringContaining('after.webhook.signingSecret')));
    expect(refused).toThrow(auditErrorWith(auditErrorCodes.secretInValues, expect.not.stringContaining('whsec_do_not_log')));
  });

  it('when an entry carries a secret key inside an array in before, then it is refused', () => {
    expect(() => validateEntry({ ...baseEntry, before: { members: [{ name: 'a', Session: 's-1' }] } })).toThrow(
      auditErrorWith(auditErrorCodes.secretInValues, expect.stringContaining('before.members[0].Session')),
    );
  });
});

describe('entry validation', () => {
  it('when an entry is well formed, then it is kept as it will be stored (undefined members dropped, ids in lower case)', () => {
    const entry = validateEntry({ ...baseEntry, entryId: 'ABCDEF01-2345-4678-9ABC-DEF012345678', after: { url: 'https://x', dropped: undefined } as never });
    expect(entry.entryId).toBe('abcdef01-2345-4678-9abc-def012345678');
    expect(entry.after).toEqual({ url: 'https://x' });
    expect(entry.before).toBeNull();
  });

  it.each([
    ['a refusal without a reason', { outcome: 'refused' as const }],
    ['a done action with a reason', { reason: 'why' }],
    ['an action that is not dotted lower-case words', { action: 'Partner Status' }],
    ['an address that is not an IP address', { address: 'example.com' }],
    ['a NUL character in a value', { after: { note: 'a\u0000b' } }],
    ['a lone surrogate in a value', { after: { note: 'a\uD800b' } }],
    ['an actor of another kind', { actor: { kind: 'robot', id: 'x', displayName: 'x' } }],
  ])('when an entry has %s, then it is refused as invalid', (_case, change) => {
    expect(() => validateEntry({ ...baseEntry, ...change } as never)).toThrow(auditErrorWith(auditErrorCodes.entryInvalid));
  });

  it('when the user agent is very long, then it is cut, not refused', () => {
    expect(validateEntry({ ...baseEntry, userAgent: 'x'.repeat(5000) }).userAgent).toHaveLength(512);
  });
});
