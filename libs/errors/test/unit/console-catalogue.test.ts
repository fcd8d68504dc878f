import { ConsoleError, consoleErrorCatalogue, isConsoleCode, isConsoleError, PkcError } from '../../src';

describe('the consoles’ error catalogue', () => {
  test('when the catalogue is read, then every code is CON_ and four digits, every status a 4xx, every message a sentence', () => {
    for (const [code, entry] of Object.entries(consoleErrorCatalogue)) {
      expect(code).toMatch(/^CON_\d{4}$/);
      expect(entry.httpStatus).toBeGreaterThanOrEqual(400);
      expect(entry.httpStatus).toBeLessThan(500);
      expect(entry.message.length).toBeGreaterThan(10);
    }
  });

  test('when a sign-in is refused, then no message says whether an account exists', () => {
    const signInMessages = Object.entries(consoleErrorCatalogue).filter(([code]) => code.startsWith('CON_1')).map(([, entry]) => entry.message.toLowerCase());
    for (const message of signInMessages) expect(message).not.toMatch(/no (such )?(account|user|operator)|unknown (account|user|e-mail)|not registered|does not exist/);
  });

  test('when a ConsoleError is made, then it carries the catalogue status and message unless given, and only it is a ConsoleError', () => {
    const error = new ConsoleError('CON_1002', undefined, { headers: { 'Retry-After': '60' } });
    expect(error).toMatchObject({ code: 'CON_1002', httpStatus: 429, message: consoleErrorCatalogue.CON_1002.message, headers: { 'Retry-After': '60' } });
    expect(new ConsoleError('CON_2001', 'email must be an e-mail address').message).toBe('email must be an e-mail address');
    expect(isConsoleError(error)).toBe(true);
    expect(isConsoleError(new PkcError('PKC_2008'))).toBe(false);
    expect(isConsoleError({ name: 'ConsoleError', code: 'CON_9999' })).toBe(false);
    expect(isConsoleCode('PKC_2008')).toBe(false);
  });
});
