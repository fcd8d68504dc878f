import type { Browser } from 'playwright-core';
import { totpCodeAt } from '@pwa/web-auth';
import { onboardPartner } from '../../../../test/support/partners';
import { startBackofficeStack, type BackofficeStack, type SeededOperator } from '../../../../test/support/stack';
import { base32Bytes, launchChromium, requireBuiltConsole, screenshot, seriousAxeViolations, signInThroughThePage, watchedPage } from './console-browser';

/**
 * The console in a real Chromium against the real stack: sign-in through the pages with a TOTP
 * code, what each role is offered and refused (the API's refusal shown as it said it), a person's
 * name rendered as text only, no CSP or Trusted Types violation, and no serious or critical axe
 * finding on any page (screenshots of each in artifacts/screenshots/backoffice).
 */
describe('the back-office console: sign-in and roles in the browser', () => {
  let stack: BackofficeStack;
  let browser: Browser;
  let viewer: SeededOperator;
  let everyRole: SeededOperator;
  let partnerId: string;
  // A person's authenticator gives one new code at once and the next one a TOTP step (30 s) later:
  // each test that signs in through the page has a person of its own.
  const seedEveryRole = (): Promise<SeededOperator> => stack.backoffice.seedOperator({ name: 'Ada Every-Role', roles: ['maker', 'checker', 'admin'] });

  beforeAll(async () => {
    requireBuiltConsole();
    stack = await startBackofficeStack();
    browser = await launchChromium(stack);
    viewer = await stack.backoffice.seedOperator({ name: '<script>alert(1)</script>', roles: ['viewer'] });
    everyRole = await seedEveryRole();
    partnerId = (await onboardPartner(stack)).partnerId;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('when a wrong password is typed, then the page shows the refusal and its code, and asks again', async () => {
    const { page, context, policyViolations } = await watchedPage(browser);
    await page.goto(`${stack.backoffice.baseUrl}/approvals`);
    // Not signed in: the console sends the person to sign-in.
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByLabel('E-mail address').fill(viewer.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('CON_1001');
    await expect(page.getByLabel('E-mail address').isVisible()).resolves.toBe(true);
    expect(policyViolations).toEqual([]);
    await context.close();
  });

  it('when a viewer named <script>alert(1)</script> signs in, then the name is text, no dialog fires, and asking for a funding is refused with the API’s code shown', async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    await signInThroughThePage(page, stack.backoffice.baseUrl, viewer);
    await expect(page.locator('.who-name').textContent()).resolves.toBe('<script>alert(1)</script>');
    await expect(page.locator('.who-roles').textContent()).resolves.toBe('viewer');
    await expect(page.locator('header script').count()).resolves.toBe(0);
    // A viewer is offered neither the request form nor decisions.
    await expect(page.getByRole('link', { name: 'New request' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Approve', exact: true }).count()).resolves.toBe(0);

    // Typed in by address, the form is there, and the API refuses what the viewer asks for.
    await page.goto(`${stack.backoffice.baseUrl}/approvals/new`);
    await page.getByLabel('Partner id').fill(partnerId);
    await page.getByLabel('Amount').fill('10.00');
    await page.getByLabel('Reason').fill('A viewer trying to fund');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    const refusal = await page.getByRole('alert').textContent();
    expect(refusal).toContain('CON_3001');
    expect(refusal).toContain('Only a maker can ask for this change');

    const pending = await (await stack.backoffice.sessionOf(everyRole)).get('/api/v1/approval-requests?status=pending');
    expect(pending.body.data.requests).toEqual([]);
    expect(watched.dialogs).toEqual([]);
    expect(watched.policyViolations).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    await watched.context.close();
  });

  it('when an admin invites a person in the page, then the person sets up through the link (QR code and key shown once), signs in, adds a passkey, and signs in again with the password and the passkey', async () => {
    const admin = await watchedPage(browser);
    await signInThroughThePage(admin.page, stack.backoffice.baseUrl, await seedEveryRole());
    await admin.page.getByRole('link', { name: 'Operators' }).click();
    const email = `nia.${Date.now()}@operator.example`;
    const invite = admin.page.getByRole('form', { name: 'Invite a person' });
    await invite.getByLabel('E-mail address').fill(email);
    await invite.getByLabel('Name').fill('Nia New');
    await invite.getByLabel('maker').check();
    await invite.getByRole('button', { name: 'Invite' }).click();
    const setupLink = (await admin.page.locator('.once code').textContent()) ?? '';
    expect(setupLink).toMatch(new RegExp(`^${stack.backoffice.baseUrl}/setup#token=[A-Za-z0-9_-]{43}$`));

    const person = await watchedPage(browser);
    const { page } = person;
    await page.goto(setupLink);
    await page.getByRole('button', { name: 'Begin set-up' }).click();
    await expect(page.getByRole('img', { name: /QR code/ }).getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,/);
    // The token left the address bar as soon as the page read it.
    expect(page.url()).toBe(`${stack.backoffice.baseUrl}/setup`);
    const secret = base32Bytes((await page.locator('code.secret').textContent()) ?? '');
    const password = 'a long passphrase nobody guesses 7@';
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('The same password again').fill(password);
    const setupStep = Math.floor(Date.now() / 30_000) - 1;
    await page.getByLabel('Code from your authenticator app').fill(totpCodeAt(secret, setupStep * 30_000));
    await page.getByRole('button', { name: 'Activate my account' }).click();
    await page.getByRole('button', { name: 'Go to sign-in' }).click();

    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Code from your authenticator app').fill(totpCodeAt(secret, (setupStep + 1) * 30_000));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await expect(page.locator('.who-name').textContent()).resolves.toBe('Nia New');

    // A passkey from Chromium's virtual authenticator, added on the account page.
    const cdp = await person.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } });
    await page.getByRole('link', { name: 'My account' }).click();
    await page.getByLabel('Name for the new passkey (optional)').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('status').filter({ hasText: 'Passkey added' }).waitFor();
    await expect(page.getByRole('table', { name: 'Passkeys' }).textContent()).resolves.toContain('Laptop');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await page.getByRole('link', { name: 'My account' }).click();
    await expect(page.locator('.facts').first().textContent()).resolves.toMatch(/with (a )?password and (a )?passkey/);

    // A personal token for the CLI, made right after the sign-in: the secret shown once, listed without it, then revoked.
    await page.getByLabel('Name of the new token (where it is used)').fill('Ops laptop CLI');
    await page.getByRole('button', { name: 'Make a token' }).click();
    const shownOnce = page.getByRole('status').filter({ hasText: 'shown only this once' });
    await shownOnce.waitFor();
    const tokenSecret = (await shownOnce.locator('code').textContent()) ?? '';
    expect(tokenSecret).toMatch(/^pwabo_[A-Za-z0-9_-]{43}$/);
    const tokensTable = page.getByRole('table', { name: 'Personal tokens' });
    await expect(tokensTable.textContent()).resolves.toContain('Ops laptop CLI');
    await expect(tokensTable.textContent()).resolves.not.toContain(tokenSecret);
    await page.getByRole('button', { name: 'Revoke Ops laptop CLI' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Token Ops laptop CLI revoked' }).waitFor();
    await expect(tokensTable.textContent()).resolves.toContain('revoked');
    await page.reload();
    await page.getByRole('table', { name: 'Personal tokens' }).waitFor();
    await expect(page.content()).resolves.not.toContain(tokenSecret);

    for (const each of [admin, person]) {
      expect(each.policyViolations).toEqual([]);
      expect(each.pageErrors).toEqual([]);
      await each.context.close();
    }
  });

  it('when a person with every role visits each page, then no page has a serious or critical accessibility finding and none breaks the CSP', async () => {
    const signedIn = await watchedPage(browser);
    await signInThroughThePage(signedIn.page, stack.backoffice.baseUrl, await seedEveryRole());
    const pages: [string, string, string][] = [
      ['approvals', '/approvals', 'Approvals'],
      ['new-request', '/approvals/new', 'New four-eyes request'],
      ['partners', '/partners', 'Partners'],
      ['partner-detail', `/partners/${partnerId}`, ''],
      ['transactions', '/transactions', 'Transactions'],
      ['webhooks', '/webhooks', 'Webhook deliveries'],
      ['audit', '/audit', 'Audit log'],
      ['operators', '/operators', 'Operators'],
      ['account', '/account', 'My account'],
    ];
    // Every page once without bypassCSP: nothing refused by the policy.
    for (const [, address] of pages) {
      await signedIn.page.goto(`${stack.backoffice.baseUrl}${address}`);
      await signedIn.page.locator('main h1').first().waitFor();
      await signedIn.page.waitForLoadState('networkidle');
    }
    expect(signedIn.policyViolations).toEqual([]);
    expect(signedIn.pageErrors).toEqual([]);

    // axe's script is injected, which the console's CSP refuses: this pass alone runs with bypassCSP, signed in with the same cookie.
    const audited = await watchedPage(browser, { bypassCSP: true, storageState: await signedIn.context.storageState() });
    const findings: Record<string, unknown[]> = {};
    for (const [name, address, heading] of pages) {
      await audited.page.goto(`${stack.backoffice.baseUrl}${address}`);
      if (heading !== '') await audited.page.getByRole('heading', { level: 1, name: heading }).waitFor();
      else await audited.page.locator('main h1').first().waitFor();
      await audited.page.waitForLoadState('networkidle');
      await screenshot(audited.page, name);
      findings[name] = await seriousAxeViolations(audited.page);
    }
    const signedOut = await watchedPage(browser, { bypassCSP: true });
    for (const [name, address] of [
      ['sign-in', '/sign-in'],
      ['setup', '/setup'],
    ] as const) {
      await signedOut.page.goto(`${stack.backoffice.baseUrl}${address}`);
      await signedOut.page.locator('main h1').first().waitFor();
      await screenshot(signedOut.page, name);
      findings[name] = await seriousAxeViolations(signedOut.page);
    }
    expect(findings).toEqual(Object.fromEntries(Object.keys(findings).map((name) => [name, []])));
    for (const each of [signedIn, audited, signedOut]) await each.context.close();
    // Eleven pages walked twice and audited by axe: about 30 s alone, more beside another browser file.
  }, 150_000);

  it('when an admin resets the sign-in factors of a person who lost their phone, then the page asks for a reason, shows the new set-up link once, and the old password no longer signs in', async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    await signInThroughThePage(page, stack.backoffice.baseUrl, await seedEveryRole());
    await page.getByRole('link', { name: 'Operators' }).click();
    const card = page.locator('article', { has: page.getByRole('heading', { name: '<script>alert(1)</script>' }) });
    await card.getByRole('button', { name: 'Reset sign-in factors' }).click();
    const confirmation = card.getByRole('group', { name: 'Confirm the factor reset' });
    await expect(confirmation.textContent()).resolves.toContain('their sessions and personal tokens end');
    await confirmation.getByRole('button', { name: 'Yes, reset the factors' }).click();
    await expect(card.getByRole('alert').textContent()).resolves.toContain('Reason');
    await confirmation.getByLabel('Reason').fill('Lost phone, ticket 4102');
    await confirmation.getByRole('button', { name: 'Yes, reset the factors' }).click();
    const shownOnce = card.getByRole('status');
    await shownOnce.waitFor();
    const setupLink = ((await shownOnce.locator('code').textContent()) ?? '').trim();
    expect(setupLink).toMatch(new RegExp(`^${stack.backoffice.baseUrl}/setup#token=[A-Za-z0-9_-]{43}$`));
    // The link is shown as soon as the reset is answered; the card's status follows when the list reloads.
    await card.locator('dd', { hasText: /^invited$/ }).waitFor();
    await screenshot(page, 'operators-factor-reset');
    const oldSignIn = await stack.backoffice.client().post('/api/v1/session', { email: viewer.email, password: viewer.password });
    expect(oldSignIn.body).toMatchObject({ code: 'CON_1001' });
    await page.reload();
    await expect(page.content()).resolves.not.toContain(setupLink.split('#token=')[1] ?? 'no token');
    expect(watched.policyViolations).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    await watched.context.close();
  });
});
