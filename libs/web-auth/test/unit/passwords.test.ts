import {
  checkPasswordPolicy,
  decoyPasswordHash,
  hashPassword,
  passwordHashNeedsUpgrade,
  passwordHashParameters,
  passwordHashParametersOf,
  verifyPassword,
  verifyPasswordOrDecoy,
} from '../../src';

const context = { identifiers: ['Jonathan.Appleseed@example.com', 'jappleseed-finance'] };

describe('password policy', () => {
  it('when a password is shorter than 12 characters, then the rule too_short fails', () => {
    expect(checkPasswordPolicy('short pass!', context)).toEqual({ acceptable: false, failedRule: 'too_short' });
  });

  it('when a password has exactly 12 and 256 characters, then both are acceptable', () => {
    expect(checkPasswordPolicy('tuna-orbit-7', context)).toEqual({ acceptable: true });
    expect(checkPasswordPolicy('x'.repeat(255) + 'y', context)).toEqual({ acceptable: true });
  });

  it('when a password is longer than 256 characters, then the rule too_long fails', () => {
    expect(checkPasswordPolicy('x'.repeat(257), context)).toEqual({ acceptable: false, failedRule: 'too_long' });
  });

  it('when lengths are counted, then characters count once however many UTF-16 units they take', () => {
    // Eleven emoji are 22 UTF-16 units but eleven characters.
    expect(checkPasswordPolicy('🔒'.repeat(11), context)).toEqual({ acceptable: false, failedRule: 'too_short' });
    expect(checkPasswordPolicy('🔒'.repeat(12), context)).toEqual({ acceptable: true });
  });

  it('when a password equals the email, its local part or the username in any case, then the rule same_as_identifier fails', () => {
    for (const password of ['jonathan.appleseed@EXAMPLE.com', 'JONATHAN.APPLESEED', 'jappleseed-finance']) {
      expect(checkPasswordPolicy(password, context)).toEqual({ acceptable: false, failedRule: 'same_as_identifier' });
    }
  });

  it('when a password is on the common list in any case, then the rule common_password fails', () => {
    expect(checkPasswordPolicy('Password1234', context)).toEqual({ acceptable: false, failedRule: 'common_password' });
    expect(checkPasswordPolicy('QWERTY123456', context)).toEqual({ acceptable: false, failedRule: 'common_password' });
  });

  it('when a password is a long passphrase, then it is acceptable without composition rules', () => {
    expect(checkPasswordPolicy('lanterns drift over the harbour', context)).toEqual({ acceptable: true });
  });
});

describe('password hashing', () => {
  // argon2id costs about 20 ms and 46 MiB per hash: this file makes one hash and a handful of verifies.
  let stored: string;
  beforeAll(async () => {
    // "ﬁ" (U+FB01) is "fi" under NFKC: the same password typed two ways.
    stored = await hashPassword('ﬁrst harbour lantern');
  });

  it('when a password is hashed, then the PHC string is argon2id with the configured parameters', () => {
    expect(stored.startsWith('$argon2id$v=19$m=47104,t=2,p=1$')).toBe(true);
    expect(passwordHashParametersOf(stored)).toEqual(passwordHashParameters);
    expect(passwordHashNeedsUpgrade(stored)).toBe(false);
  });

  it('when the right password is offered, in either Unicode form, then it verifies; a wrong one does not', async () => {
    expect(await verifyPassword(stored, 'ﬁrst harbour lantern')).toBe(true);
    expect(await verifyPassword(stored, 'first harbour lantern')).toBe(true);
    expect(await verifyPassword(stored, 'first harbour lanterns')).toBe(false);
  });

  it('when the stored hash is malformed or the offer is over the length bound, then verification answers false', async () => {
    expect(await verifyPassword('not-a-hash', 'first harbour lantern')).toBe(false);
    expect(await verifyPassword(stored, 'x'.repeat(257))).toBe(false);
  });

  it('when a password over the length bound is hashed, then it is refused without echoing it', async () => {
    await expect(hashPassword('secret-'.repeat(40))).rejects.toThrow(/^A password must be at most 256 characters$/);
  });

  it('when the account is unknown, then the decoy is verified and the answer is false', async () => {
    expect(await verifyPasswordOrDecoy(undefined, 'first harbour lantern')).toBe(false);
    expect(await verifyPasswordOrDecoy(stored, 'first harbour lantern')).toBe(true);
  });

  it('when the decoy hash is read, then it was made with the current parameters, so it costs what a real hash costs', () => {
    expect(passwordHashParametersOf(decoyPasswordHash)).toEqual(passwordHashParameters);
  });

  it('when a stored hash has older parameters or is not argon2id, then it needs an upgrade', () => {
    expect(passwordHashNeedsUpgrade('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g')).toBe(true);
    expect(passwordHashNeedsUpgrade('$2b$12$abcdefghijklmnopqrstuv')).toBe(true);
  });
});
