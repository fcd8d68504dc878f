import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createCollection } from '../../../../test/support/collection-flow';
import { launchConsoleChromium, screenshotOf, seriousAxeViolations, watchedPage, type WatchedPage } from '../../../../test/support/console-browser';
import { disbursementQuote, transfer } from '../../../../test/support/disbursement-helpers';
import { accessTokenFor, onboardPartner, type OnboardedPartner } from '../../../../test/support/partners';
import { startDashboardStack, type DashboardStack } from '../../../../test/support/stack';
import { startWebhookReceiver } from '../../../../test/support/webhook-receiver';
import { currentTotpStep, totpCodeOfStep, totpCodes } from '../../../../test/support/totp-person';
import { createWalletUser, creditWallet, fundPartner } from '../../../../test/support/wallet-users';

const builtPages = path.join(__dirname, '..', '..', 'dist', 'console', 'index.html');
const hostileExternalId = '<script>window.__injected = 1</script><img src=x onerror="window.__injected = 2">';
/** A bulk line's note as a spreadsheet might hold it: markup that must stay text on every page that shows the note. */
const hostileNote = '<script>window.__injected = 3</script><img src=x onerror="alert(4)">';

/** A person of the partner's team in the browser: their page and their authenticator app. */
interface PagePerson {
  watched: WatchedPage;
  email: string;
  password: string;
  nextCode: () => Promise<string>;
}

/**
 * The partner dashboard in headless Chromium against the running stack: the first admin invited by
 * the operator signs up with TOTP and invites a finance and a support member in the pages; finance
 * downloads a statement whose lines add up to the closing balance; support reaches no write action;
 * an externalId and a bulk line's note with markup render as text; axe-core finds no serious violation on any page.
 */
describe('the partner dashboard in the browser', () => {
  let stack: DashboardStack;
  let browser: Browser;
  let partner: OnboardedPartner;
  /** The first admin and the finance member, still signed in after the first test (the next ones act as them). */
  let adminPerson: PagePerson | undefined;
  let financePerson: PagePerson | undefined;
  let payees: { local: string }[] = [];
  /** The customer who paid the collection with the hostile externalId, as support would type their phone. */
  let payerPhone = '';

  beforeAll(async () => {
    if (!fs.existsSync(builtPages)) throw new Error(`The dashboard's pages are not built (${builtPages} is missing): run npm run build`);
    stack = await startDashboardStack({ logLevel: 'warn' });
    browser = await launchConsoleChromium(stack.dashboard.chromiumArgs);
    partner = await onboardPartner(stack);
    const user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    payerPhone = user.localPhone;
    await creditWallet(stack, user, 'USD', '500');
    await fundPartner(stack, partner.partnerId, 'USD', '750.25');
    // Ten payees: each user's tier limits count the bulk's payouts to them together (five each stays well within).
    payees = await Promise.all(Array.from({ length: 10 }, () => createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] }))).then((users) => users.map((each) => ({ local: each.localPhone })));
    const token = await accessTokenFor(stack.client, partner);
    for (const amount of [10.1, 20.2, 30.3]) {
      const quote = await disbursementQuote(stack.client, token, user, amount);
      const sent = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `payout-${amount}` });
      expect(sent.status).toBe(200);
    }
    await createCollection(stack.client, token, { phone: user.phone, amount: 5, currency: 'USD', externalId: hostileExternalId });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** Opens an invitation link in a fresh browser context and joins the team with a password and the authenticator app. */
  async function acceptInPage(invitationLink: string, email: string, name: string): Promise<PagePerson> {
    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(invitationLink);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    const secret = ((await page.locator('code.secret').textContent()) ?? '').trim();
    expect(await page.locator('main').textContent()).toContain(name);
    await screenshotOf(page, 'dashboard', `invitation-${name.split(' ')[0]?.toLowerCase() ?? 'member'}`);
    const password = `${name} keeps a long passphrase`;
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('The same password again').fill(password);
    const step = currentTotpStep();
    await page.getByLabel('Code from your authenticator app').fill(totpCodeOfStep(secret, step));
    await page.getByRole('button', { name: 'Activate my account' }).click();
    await page.getByRole('button', { name: 'Go to sign-in' }).click();
    return { watched, email, password, nextCode: totpCodes(secret, step) };
  }

  async function signIn(person: PagePerson): Promise<Page> {
    const { page } = person.watched;
    await page.goto(`${stack.dashboard.baseUrl}/sign-in`);
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Code from your authenticator app').fill(await person.nextCode());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    return page;
  }

  async function inviteInPage(page: Page, name: string, email: string, role: string): Promise<string> {
    await page.getByRole('link', { name: 'Team' }).click();
    const form = page.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('E-mail address').fill(email);
    await form.getByLabel('Role', { exact: true }).selectOption(role);
    await form.getByRole('button', { name: 'Invite', exact: true }).click();
    const shown = page.getByRole('status').filter({ hasText: `Invited ${name}` });
    await shown.waitFor();
    return ((await shown.locator('code').textContent()) ?? '').trim();
  }

  test('when the operator invites the first admin, then the admin signs up with TOTP and invites finance and support, finance downloads a statement that adds up, and support reaches no write action', async () => {
    const invited = await stack.dashboard.setupCli(['invite-admin', '--partner-id', partner.partnerId, '--email', 'ada.admin@partner.example', '--name', 'Ada Admin']);
    expect(invited.exitCode).toBe(0);
    const admin = await acceptInPage(String(invited.json?.invitationLink), 'ada.admin@partner.example', 'Ada Admin');
    adminPerson = admin;
    const adminPage = await signIn(admin);
    await adminPage.getByRole('heading', { name: 'Balances' }).waitFor();
    await screenshotOf(adminPage, 'dashboard', 'home');
    const financeLink = await inviteInPage(adminPage, 'Femi Finance', 'femi.finance@partner.example', 'finance');
    await screenshotOf(adminPage, 'dashboard', 'team-invited');
    const supportLink = await inviteInPage(adminPage, 'Sade Support', 'sade.support@partner.example', 'support');
    // The link was shown once: after a reload the page holds no invitation token.
    await adminPage.reload();
    await adminPage.getByRole('table', { name: 'Members' }).waitFor();
    expect(await adminPage.content()).not.toContain(new URL(financeLink).hash.slice(1));
    expect(await adminPage.getByRole('table', { name: 'Members' }).textContent()).toContain('Femi Finance');

    const finance = await acceptInPage(financeLink, 'femi.finance@partner.example', 'Femi Finance');
    financePerson = finance;
    const financePage = await signIn(finance);
    await financePage.getByRole('link', { name: 'Statements' }).click();
    await financePage.getByLabel('Currency').selectOption('USD');
    await screenshotOf(financePage, 'dashboard', 'statements');
    const [download] = await Promise.all([financePage.waitForEvent('download'), financePage.getByRole('link', { name: 'Download the statement (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^statement-USD-.*\.csv$/);
    const file = await download.path();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\r\n').slice(1).map((line) => line.split(','));
    const cents = (cell: string | undefined): number => Math.round(Number(cell) * 100);
    const closing = lines[lines.length - 1];
    expect([lines[0]?.[1], closing?.[1]]).toEqual(['opening_balance', 'closing_balance']);
    expect(lines.slice(1, -1).map((line) => line[1])).toEqual(['funding', 'disbursement', 'disbursement_fee', 'disbursement', 'disbursement_fee', 'disbursement', 'disbursement_fee']);
    expect(lines.slice(0, -1).reduce((sum, line) => sum + cents(line[5]), 0)).toBe(cents(closing?.[5]));
    const balance = await stack.client.get('/partner/v1/balance', { bearer: await accessTokenFor(stack.client, partner) });
    expect(cents(closing?.[5])).toBe(Math.round(balance.body.data.USD * 100));
    // The page showed the same closing balance before the download.
    const shownClosing = ((await financePage.locator('dl[aria-label="Statement balances"] dd').nth(1).textContent()) ?? '').replace(/[^0-9.]/g, '');
    expect(cents(shownClosing)).toBe(cents(closing?.[5]));

    const support = await acceptInPage(supportLink, 'sade.support@partner.example', 'Sade Support');
    const supportPage = await signIn(support);
    const navigation = (await supportPage.getByRole('navigation', { name: 'Main' }).textContent()) ?? '';
    expect(navigation).not.toContain('Statements');
    expect(navigation).not.toContain('Audit log');
    await supportPage.getByRole('link', { name: 'Team' }).click();
    await supportPage.getByRole('table', { name: 'Members' }).waitFor();
    expect(await supportPage.getByRole('form', { name: 'Invite a member' }).count()).toBe(0);
    expect(await supportPage.getByRole('button', { name: /Remove|Invite/ }).count()).toBe(0);
    expect(await supportPage.getByRole('combobox', { name: /New role/ }).count()).toBe(0);
    // Typing the address of a page the role may not use shows the server's refusal, nothing else.
    await supportPage.goto(`${stack.dashboard.baseUrl}/audit`);
    await expect(supportPage.getByRole('alert').textContent()).resolves.toContain('CON_3004');
    await screenshotOf(supportPage, 'dashboard', 'support-refused');

    // The admin changes Sade's role on the page (confirmed there, no browser prompt; the sign-in is recent, so no fresh code): Sade's session ends at once.
    await adminPage.getByRole('link', { name: 'Team' }).click();
    await adminPage.getByRole('combobox', { name: 'New role for Sade Support' }).selectOption('developer');
    const confirmation = adminPage.getByRole('group', { name: 'Confirm the change' });
    await expect(confirmation.textContent()).resolves.toContain('Make Sade Support developer?');
    await expect(confirmation.getByLabel('Code from your authenticator app').inputValue()).resolves.toBe('');
    await screenshotOf(adminPage, 'dashboard', 'team-role-change');
    await confirmation.getByRole('button', { name: 'Yes, make them developer' }).click();
    await adminPage.getByRole('status').filter({ hasText: 'Sade Support is now developer' }).waitFor();
    const sadeRow = adminPage.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'Sade Support' });
    await expect(sadeRow.textContent()).resolves.toContain('developer');
    await supportPage.goto(`${stack.dashboard.baseUrl}/team`);
    await supportPage.getByLabel('E-mail address').waitFor();
    expect(admin.watched.dialogs).toEqual([]);

    for (const person of [admin, finance, support]) {
      expect(person.watched.policyViolations).toEqual([]);
      expect(person.watched.pageErrors).toEqual([]);
    }
    await support.watched.context.close();
  });

  test('when finance uploads a bulk file of 50 lines with 3 bad ones and a note with markup, then the preview shows each line’s result and the note as text, the confirmation pays the 47 others once and the bulk is followed to the end', async () => {
    if (financePerson === undefined) throw new Error('the first test signs finance in');
    const { page } = financePerson.watched;
    const lines = ['phone,amount,externalId,note'];
    for (let index = 0; index < 50; index += 1) {
      const payee = payees[index % payees.length]?.local ?? '';
      if (index === 7) lines.push(`${payee},ten dollars,payroll-${index},bad amount`);
      else if (index === 21) lines.push(`0779999999,1.00,payroll-${index},nobody has this phone`);
      else if (index === 42) lines.push(`,1.00,payroll-${index},no phone`);
      else if (index === 0) lines.push(`${payee},1.00,payroll-${index},"${hostileNote.replace(/"/g, '""')}"`);
      else lines.push(`${payee},${(1 + (index % 5) / 10).toFixed(2)},payroll-${index},"November, line ${index + 2}"`);
    }
    await page.goto(`${stack.dashboard.baseUrl}/bulk-payouts`);
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('CSV file').setInputFiles({ name: 'payroll.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`) });
    await page.getByRole('button', { name: 'Check the file' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'payouts will be paid' });
    await expect(summary.textContent()).resolves.toContain('47 of 50 payouts will be paid');
    const table = page.getByRole('table', { name: 'Preview lines' });
    for (const [line, reason] of [[9, 'amount'], [23, 'not paid'], [44, 'phone is empty']] as const) {
      await expect(table.getByRole('row').filter({ has: page.getByRole('cell', { name: String(line), exact: true }) }).textContent()).resolves.toContain(reason);
    }
    // The note with markup is a cell of text: nothing ran, no element was made of it, no dialog opened.
    expect(await table.getByRole('cell', { name: hostileNote, exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => (globalThis as { __injected?: unknown }).__injected)).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(financePerson.watched.dialogs).toEqual([]);
    await screenshotOf(page, 'dashboard', 'bulk-preview');
    const before = await stack.client.get('/partner/v1/balance', { bearer: await accessTokenFor(stack.client, partner) });
    await page.getByRole('button', { name: 'Confirm and pay 47 payouts' }).click();
    await page.getByRole('heading', { level: 1, name: /^PKB-/ }).waitFor();
    const bulkId = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
    await expect(page.getByRole('status').filter({ hasText: 'Finished' }).textContent({ timeout: 60_000 })).resolves.toContain('47 paid, 0 failed, 0 waiting, of 47 (completed)');
    // The owner's record gives the item's note back: in the bulk's items it is literal text too.
    expect(await page.getByRole('table', { name: 'Bulk items' }).getByRole('cell', { name: hostileNote, exact: true }).count()).toBe(1);
    await screenshotOf(page, 'dashboard', 'bulk-finished');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the outcome (CSV)' }).click()]);
    const outcome = fs.readFileSync(await download.path(), 'utf8').trim().split('\r\n');
    expect(outcome[0]).toBe('index,externalId,phone,amount,fee,status,referenceId,failureReason');
    expect(outcome.slice(1).map((line) => line.split(',')[5])).toEqual(Array.from({ length: 47 }, () => 'completed'));
    // The balance moved once, by the bulk's total debit, to the cent.
    const bulk = await stack.client.get(`/partner/v1/disbursement/bulk/${bulkId}`, { bearer: await accessTokenFor(stack.client, partner) });
    const after = await stack.client.get('/partner/v1/balance', { bearer: await accessTokenFor(stack.client, partner) });
    expect(Math.round(before.body.data.USD * 100) - Math.round(after.body.data.USD * 100)).toBe(Math.round(bulk.body.data.totalDebit * 100));
    // Keyset pages in the browser: "Next page" to the end lists each of the 47 payouts once, and "Previous page" goes back a page.
    const pagesWalked = await walkKeysetPages(page, `${stack.dashboard.baseUrl}/transactions?kind=disbursements`, 'Disbursements');
    const paidLines = pagesWalked.flat().filter((externalId) => externalId.startsWith('payroll-'));
    expect(pagesWalked.length).toBeGreaterThanOrEqual(3);
    expect(pagesWalked.every((walked) => walked.length <= 20)).toBe(true);
    expect(new Set(paidLines).size).toBe(47);
    expect(paidLines).toHaveLength(47);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(secondColumnOnceChanged(page, 'Disbursements', pagesWalked[pagesWalked.length - 1] ?? [])).resolves.toEqual(pagesWalked[pagesWalked.length - 2]);
    // Another tab starts from its own first page (the disbursements' cursor is not sent for collections), and coming back starts over too.
    await page.getByRole('link', { name: 'Collections', exact: true }).click();
    await page.getByRole('table', { name: 'Collections' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('link', { name: 'Disbursements', exact: true }).click();
    await expect(secondColumnOnceChanged(page, 'Disbursements', [])).resolves.toEqual(pagesWalked[0]);
    // The status filter offers the list's own statuses: no disbursement failed, and the completed ones are listed.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Nothing yet.').waitFor();
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(secondColumnOnceChanged(page, 'Disbursements', [])).resolves.toEqual(pagesWalked[0]);
    expect(await page.getByLabel('Status').locator('option').allTextContents()).toEqual(['Any', 'pending', 'completed', 'failed']);
    expect(financePerson.watched.policyViolations).toEqual([]);
    expect(financePerson.watched.pageErrors).toEqual([]);
    await financePerson.watched.context.close();
  });

  test('when the admin adds a passkey on the account page, then the next sign-in takes the password and the passkey, and the page says so', async () => {
    if (adminPerson === undefined) throw new Error('the first test signs the admin in');
    const { page, context } = adminPerson.watched;
    // Chromium's virtual authenticator stands in for the laptop's screen lock.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } });
    await page.getByRole('link', { name: 'My account' }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    await page.getByLabel('Name for the new passkey (optional)').fill('Ada’s laptop');
    // The first test's sign-in may be older than the fresh window: a code confirms it is her.
    await page.getByLabel('Code from your authenticator app').fill(await adminPerson.nextCode());
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('status').filter({ hasText: 'Passkey added' }).waitFor();
    await expect(page.getByRole('table', { name: 'Passkeys' }).textContent()).resolves.toContain('Ada’s laptop');
    await screenshotOf(page, 'dashboard', 'account-passkeys');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(adminPerson.email);
    await page.getByLabel('Password', { exact: true }).fill(adminPerson.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: 'My account' }).click();
    await expect(page.locator('.facts').first().textContent()).resolves.toContain('your password and a passkey');
    expect(adminPerson.watched.policyViolations).toEqual([]);
    expect(adminPerson.watched.pageErrors).toEqual([]);
  });

  test('when an externalId holds markup, then the transactions page shows it as text and nothing runs; the story shows the quote and status changes and the sandbox approval; the admin rotates the client secret with both valid until the old is revoked and the webhook secret shown once; the events list the approval; axe-core finds no serious violation on any page', async () => {
    if (adminPerson === undefined) throw new Error('the first test signs the admin in');
    const { page } = adminPerson.watched;
    await page.goto(`${stack.dashboard.baseUrl}/transactions?kind=collections`);
    const table = page.getByRole('table', { name: 'Collections' });
    await table.waitFor();
    expect(await table.getByRole('cell', { name: hostileExternalId, exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => (globalThis as { __injected?: unknown }).__injected)).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
    await screenshotOf(page, 'dashboard', 'transactions');
    // Support's search: the customer's phone as they would type it lists their payments (the phone filter of the API's list).
    await page.getByLabel(/^Find by referenceId/).fill(payerPhone);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    for (let waited = 0; waited < 50 && (await page.locator('#filter-phone').inputValue()) !== payerPhone; waited += 1) await page.waitForTimeout(100);
    expect(await page.locator('#filter-phone').inputValue()).toBe(payerPhone);
    await table.getByRole('cell', { name: hostileExternalId, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    await screenshotOf(page, 'dashboard', 'transactions-by-phone');
    // The transaction's story: its facts, its quote, its status changes, its refunds and each webhook sent about it.
    await page.getByRole('link', { name: /^PKC-/ }).first().click();
    await page.locator('dl.facts').first().waitFor();
    const collectionId = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
    await expect(page.locator('dl[aria-label="Quote"]').textContent()).resolves.toMatch(/Amount\s*USD 5\.00.*Fee.*paid by the user/);
    const changes = page.getByRole('table', { name: 'Status changes' });
    await expect(changes.textContent()).resolves.toContain('requested, waiting for the user’s approval');
    await page.getByRole('heading', { level: 2, name: 'Webhooks sent about it' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Refunds' }).waitFor();
    // In the sandbox the admin (as a developer may) approves the pending collection as its user would: the story gains its completion.
    await page.getByRole('button', { name: 'Approve as the user (sandbox)' }).click();
    await changes.getByRole('cell', { name: 'completed', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve as the user (sandbox)' }).count()).toBe(0);
    expect(await page.locator('dl.facts').first().textContent()).toContain(hostileExternalId);
    await screenshotOf(page, 'dashboard', 'transaction-detail');
    expect(adminPerson.watched.dialogs).toEqual([]);
    expect(adminPerson.watched.policyViolations).toEqual([]);

    // The admin rotates the client secret without downtime: both get tokens until the previous one is revoked.
    await page.getByRole('link', { name: 'Developers' }).click();
    await page.getByRole('button', { name: 'Add a second secret' }).click();
    const shownOnce = page.getByRole('status').filter({ hasText: 'shown only now' });
    const second = ((await shownOnce.locator('code').textContent()) ?? '').trim();
    expect(second).toMatch(/^pwsk_/);
    await screenshotOf(page, 'dashboard', 'developers-second-secret');
    const tokenWith = async (clientSecret: string): Promise<number> => (await stack.client.post('/partner/auth/token', { client_id: partner.clientId, client_secret: clientSecret })).status;
    expect([await tokenWith(partner.clientSecret), await tokenWith(second)]).toEqual([200, 200]);
    await page.getByRole('button', { name: 'Revoke the previous secret' }).click();
    await page.getByRole('status').filter({ hasText: 'previous secret is revoked' }).waitFor();
    expect([await tokenWith(partner.clientSecret), await tokenWith(second)]).toEqual([401, 200]);
    // The admin rotates the webhook secret: the new one is shown once, and the settings say when.
    await page.getByRole('button', { name: 'Rotate the webhook secret' }).click();
    const webhookSecret = ((await page.getByRole('status').filter({ hasText: 'new webhook secret, shown only now' }).locator('code').textContent()) ?? '').trim();
    expect(webhookSecret.length).toBeGreaterThan(20);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Developers' }).waitFor();
    await expect(page.locator('dl[aria-label="Webhook settings"]').textContent()).resolves.not.toContain('never');
    const reloaded = await page.content();
    expect([reloaded.includes(second), reloaded.includes(webhookSecret)]).toEqual([false, false]);
    // The events: the approved collection's completion, found with the API's filter.
    await page.getByLabel('Event', { exact: true }).selectOption('collection.completed');
    await page.getByRole('button', { name: 'Show events' }).click();
    await page.getByRole('table', { name: 'Events' }).getByRole('link', { name: collectionId }).waitFor();

    // The admin registers the team's receiver and sends a test webhook; the page follows it to its answer.
    const endpoint = await startWebhookReceiver();
    try {
      await page.getByRole('textbox', { name: 'Webhook URL' }).fill(endpoint.url);
      await page.getByRole('button', { name: 'Save the webhook URL' }).click();
      await page.getByRole('status').filter({ hasText: 'webhook URL is saved' }).waitFor();
      // The webhook service learns the URL from auth's partner event a moment later: a test asked before that is refused (409), so ask again.
      for (let tries = 0; tries < 20; tries += 1) {
        await page.getByRole('button', { name: 'Send a test webhook' }).click();
        const outcome = page.getByRole('status').filter({ hasText: /^Test PKT-/ }).or(page.getByRole('alert'));
        await outcome.first().waitFor();
        if ((await page.getByRole('status').filter({ hasText: /^Test PKT-/ }).count()) > 0) break;
        await page.waitForTimeout(500);
      }
      await page.getByRole('status').filter({ hasText: /succeeded: your receiver answered HTTP 200/ }).waitFor({ timeout: 20_000 });
      expect(endpoint.received.some((request) => request.body.includes('"event":"webhook.test"'))).toBe(true);
      await screenshotOf(page, 'dashboard', 'developers-webhooks');
    } finally {
      await endpoint.close();
    }

    // axe-core needs its script injected, which the strict CSP refuses: a second context of the same session, with bypassCSP.
    const audited = await watchedPage(browser, { bypassCSP: true, storageState: await adminPerson.watched.context.storageState() });
    const paths = ['/', '/transactions?kind=collections', `/transactions/${collectionId}`, '/transactions?kind=deliveries', '/statements', '/bulk-payouts', '/developers', '/team', '/audit', '/account', '/sign-in', '/invitation'];
    for (const where of paths) {
      await audited.page.goto(`${stack.dashboard.baseUrl}${where}`);
      await audited.page.getByRole('heading', { level: 1 }).first().waitFor();
      await audited.page.waitForLoadState('networkidle');
      expect([where, await seriousAxeViolations(audited.page)]).toEqual([where, []]);
    }
    await audited.context.close();
    await adminPerson.watched.context.close();
  });
});

/** The second column (the externalId) of each page of a transactions table, walking "Next page" from the first page to the last. */
async function walkKeysetPages(page: Page, url: string, table: string): Promise<string[][]> {
  await page.goto(url);
  await page.getByRole('table', { name: table }).waitFor();
  const walked: string[][] = [await secondColumnOf(page, table)];
  // Bounded: a pager that never ends fails the test instead of looping.
  for (let turns = 0; turns < 10; turns += 1) {
    const next = page.getByRole('button', { name: 'Next page' });
    // The shared pager (libs/console-web paging) keeps both buttons once there is a second page: the last page's "Next page" is disabled.
    if (await next.isDisabled()) return walked;
    await next.click();
    walked.push(await secondColumnOnceChanged(page, table, walked[walked.length - 1] ?? []));
  }
  throw new Error(`the ${table} pager still offered a next page after 10 pages`);
}

async function secondColumnOf(page: Page, table: string): Promise<string[]> {
  return page.getByRole('table', { name: table }).locator('tbody tr td:nth-child(2)').allTextContents();
}

/** The table's second column once it no longer holds the page shown before the click. */
async function secondColumnOnceChanged(page: Page, table: string, before: string[]): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const shown = await secondColumnOf(page, table);
    if (shown.join('\n') !== before.join('\n')) return shown;
    await page.waitForTimeout(100);
  }
  throw new Error(`the ${table} table still shows the same page 15 s after the click`);
}
