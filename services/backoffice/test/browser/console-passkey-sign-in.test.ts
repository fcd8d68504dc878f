import type { Browser } from 'playwright-core';
import { startBackofficeStack, type BackofficeStack, type SeededOperator } from '../../../../test/support/stack';
import { launchChromium, requireBuiltConsole, signInThroughThePage, watchedPage } from './console-browser';

/**
 * Passkeys in the browser: Chromium's virtual authenticator (CDP WebAuthn) stands in for the
 * person's device. The back-office is served over HTTPS with a certificate Chromium trusts by its
 * key, so the page is a secure context without a certificate error, as WebAuthn requires.
 */
describe('the back-office console: signing in with a passkey in the browser', () => {
  let stack: BackofficeStack;
  let browser: Browser;
  let person: SeededOperator;

  beforeAll(async () => {
    requireBuiltConsole();
    stack = await startBackofficeStack();
    browser = await launchChromium(stack);
    person = await stack.backoffice.seedOperator({ name: 'Pat Passkey', roles: ['viewer'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('when a person adds a passkey on their account page, then after the password the passkey signs them in instead of a TOTP code', async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    // Signed in with TOTP, the person adds a passkey from the account page.
    await signInThroughThePage(page, stack.backoffice.baseUrl, person);
    await page.getByRole('link', { name: 'My account' }).click();
    await page.getByLabel('Name for the new passkey (optional)').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('status').filter({ hasText: 'Passkey added' }).waitFor();
    await page.getByRole('table', { name: 'Passkeys' }).getByRole('cell', { name: 'Work laptop', exact: true }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);

    // Signed out, then in again: the password, then the passkey (no TOTP code typed).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();

    // The session says how the person signed in, and the authenticator's counter moved.
    await page.getByRole('link', { name: 'My account' }).click();
    await expect(page.locator('.facts').first().textContent()).resolves.toContain('with password and passkey');
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);

    expect(watched.policyViolations).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.dialogs).toEqual([]);
    await watched.context.close();
  }, 120_000);
});
