import type { Browser } from 'playwright-core';
import { onboardPartner } from '../../../../test/support/partners';
import { startBackofficeStack, type BackofficeStack, type SeededOperator } from '../../../../test/support/stack';
import { launchChromium, requireBuiltConsole, screenshot, signInThroughThePage, watchedPage } from './console-browser';

/**
 * Four eyes through the pages: a maker asks for a funding in one browser, the maker's own approval
 * is refused (CON_3002, shown as the API said it), a checker approves in another browser, and the
 * partner's balance moves exactly once, to the cent.
 */
/**
 * Each test signs people in with TOTP codes never used before: a person's second sign-in waits for
 * the authenticator's next 30-second step, so a test holds up to two such waits beside its pages.
 */
const signInsTimeoutMs = 150_000;

describe('the back-office console: a funding with four eyes in the browser', () => {
  let stack: BackofficeStack;
  let browser: Browser;
  let reader: SeededOperator;
  let partnerId: string;
  // A person's authenticator gives one new code at once and the next one a TOTP step (30 s) later:
  // each test signs in its own maker and checker in the pages, and the API reads go through one
  // kept session of a reader.
  // The maker also holds the checker role, so the page offers the approval that the API must refuse.
  const newMaker = (): Promise<SeededOperator> => stack.backoffice.seedOperator({ name: 'Mara Maker', roles: ['maker', 'checker'] });
  const newChecker = (): Promise<SeededOperator> => stack.backoffice.seedOperator({ name: 'Chidi Checker', roles: ['checker'] });

  beforeAll(async () => {
    requireBuiltConsole();
    stack = await startBackofficeStack();
    browser = await launchChromium(stack);
    reader = await stack.backoffice.seedOperator({ name: 'Rui Reader', roles: ['checker'] });
    partnerId = (await onboardPartner(stack)).partnerId;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('when a maker requests 1,234.56 USD and another person approves it in the page, then the balance moves by exactly 123456 minor units, once', async () => {
    const maker = await newMaker();
    const checker = await newChecker();
    const api = await stack.backoffice.sessionOf(reader);
    const before = await api.get(`/api/v1/partners/${partnerId}/balances`);
    expect(before.status).toBe(200);
    const usdBefore = BigInt(before.body.data.balances.find((balance: { currency: string }) => balance.currency === 'USD')?.balanceMinor ?? '0');

    // The maker, in one browser: three decimals are refused by the page, two are requested exactly.
    const makerPage = await watchedPage(browser);
    await signInThroughThePage(makerPage.page, stack.backoffice.baseUrl, maker);
    await makerPage.page.goto(`${stack.backoffice.baseUrl}/approvals/new?partnerId=${partnerId}`);
    await makerPage.page.getByLabel('Currency').selectOption('USD');
    await makerPage.page.getByLabel('Amount').fill('1234.565');
    await makerPage.page.getByLabel('Reason').fill('Float top-up, bank slip 4471');
    await makerPage.page.getByRole('button', { name: 'Review' }).click();
    await expect(makerPage.page.getByRole('alert').textContent()).resolves.toContain('At most two decimals');
    await makerPage.page.getByLabel('Amount').fill('1,234.56');
    await makerPage.page.getByRole('button', { name: 'Review' }).click();
    await expect(makerPage.page.locator('.lead').textContent()).resolves.toBe(`Credit USD 1,234.56 to partner ${partnerId}`);
    await expect(makerPage.page.locator('.facts').textContent()).resolves.toContain('USD 1,234.56 (123456 minor units)');
    await screenshot(makerPage.page, 'new-request-review');
    await makerPage.page.getByRole('button', { name: 'Submit for approval' }).click();
    await makerPage.page.getByRole('status').filter({ hasText: 'Requested: Credit USD 1,234.56' }).waitFor();

    // The maker's own approval: offered (the maker is also a checker) and refused by the API.
    await makerPage.page.getByRole('link', { name: 'Approvals', exact: true }).click();
    const ownCard = makerPage.page.locator('article', { hasText: `Credit USD 1,234.56 to partner ${partnerId}` });
    await ownCard.getByText('(you)').waitFor();
    await ownCard.getByRole('button', { name: 'Approve', exact: true }).click();
    await ownCard.getByRole('button', { name: 'Yes, approve' }).click();
    await expect(ownCard.getByRole('alert').textContent()).resolves.toContain('CON_3002');
    const unchanged = await api.get(`/api/v1/partners/${partnerId}/balances`);
    expect(unchanged.body.data.balances).toEqual(before.body.data.balances);

    // The checker, in another browser, sees exactly what will run and approves it.
    const checkerPage = await watchedPage(browser);
    await signInThroughThePage(checkerPage.page, stack.backoffice.baseUrl, checker);
    const card = checkerPage.page.locator('article', { hasText: `Credit USD 1,234.56 to partner ${partnerId}` });
    await expect(card.textContent()).resolves.toContain('Float top-up, bank slip 4471');
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(card.getByRole('group', { name: 'Confirm approve' }).textContent()).resolves.toContain(`Approve and run now: Credit USD 1,234.56 to partner ${partnerId}.`);
    await screenshot(checkerPage.page, 'approval-confirmation');
    await card.getByRole('button', { name: 'Yes, approve' }).click();
    await checkerPage.page.getByRole('status').filter({ hasText: 'is now executed' }).waitFor();

    const after = await api.get(`/api/v1/partners/${partnerId}/balances`);
    const usdAfter = BigInt(after.body.data.balances.find((balance: { currency: string }) => balance.currency === 'USD').balanceMinor);
    expect(usdAfter - usdBefore).toBe(123456n);

    // The partner's page shows the balance to the cent; the executed tab holds the request, and nothing more moved.
    await checkerPage.page.goto(`${stack.backoffice.baseUrl}/partners/${partnerId}`);
    await expect(checkerPage.page.getByTestId('balance-USD').textContent()).resolves.toBe(`USD ${(usdAfter / 100n).toLocaleString('en-US')}.${(usdAfter % 100n).toString().padStart(2, '0')}`);
    const executed = await api.get('/api/v1/approval-requests?status=executed');
    expect(executed.body.data.requests.map((request: { parameters: unknown }) => request.parameters)).toEqual([{ currency: 'USD', amountMinor: '123456' }]);
    const again = await api.post(`/api/v1/approval-requests/${executed.body.data.requests[0].requestId}/approve`, {});
    expect(again.body.code).toBe('CON_4002');
    const finally_ = await api.get(`/api/v1/partners/${partnerId}/balances`);
    expect(finally_.body.data.balances).toEqual(after.body.data.balances);

    // The ledger still balances after the funding, as the transactions page's check shows.
    await checkerPage.page.getByRole('link', { name: 'Transactions' }).click();
    await checkerPage.page.getByRole('button', { name: 'Check the ledger' }).click();
    await checkerPage.page.getByRole('status').filter({ hasText: 'The ledger balances' }).waitFor();

    for (const each of [makerPage, checkerPage]) {
      expect(each.policyViolations).toEqual([]);
      expect(each.pageErrors).toEqual([]);
      await each.context.close();
    }
  }, signInsTimeoutMs);
  it('when the maker onboards a partner and asks for a tier limit in the pages, then the secrets show once and the request holds exactly the typed limit in minor units', async () => {
    const maker = await newMaker();
    const makerPage = await watchedPage(browser);
    const { page } = makerPage;
    await signInThroughThePage(page, stack.backoffice.baseUrl, maker);

    await page.getByRole('link', { name: 'Partners', exact: true }).click();
    const name = `Console partner ${Date.now()}`;
    await page.getByLabel('Partner name').fill(name);
    await page.getByRole('button', { name: 'Onboard', exact: true }).click();
    const shownOnce = page.locator('.once');
    await expect(shownOnce.textContent()).resolves.toContain('Shown only now');
    const clientSecret = (await shownOnce.locator('dd').nth(1).textContent()) ?? '';
    expect(clientSecret.length).toBeGreaterThanOrEqual(20);
    await page.getByRole('link', { name: 'Open the partner' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await expect(page.locator('main').textContent()).resolves.not.toContain(clientSecret);
    const api = await stack.backoffice.sessionOf(reader);
    const found = await api.get(`/api/v1/partners?q=${encodeURIComponent(name)}`);
    expect(found.body.data.partners.map((partner: { name: string }) => partner.name)).toEqual([name]);

    await page.goto(`${stack.backoffice.baseUrl}/approvals/new`);
    await page.getByLabel('Action').selectOption('tier_limit.set');
    await page.getByLabel('Tier').selectOption('Gold');
    await page.getByLabel('Transaction type').selectOption('collection');
    await page.getByLabel('Currency').selectOption('LRD');
    await page.getByLabel('Daily').fill('5,000.25');
    await page.getByLabel('Transactions a day').fill('40');
    await page.getByLabel('Reason').fill('Gold collections need more headroom');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect(page.locator('.lead').textContent()).resolves.toBe('Set the limits of tier Gold collection LRD: daily LRD 5,000.25, transactions a day 40');
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await page.getByRole('status').filter({ hasText: 'Requested: Set the limits of tier Gold collection LRD' }).waitFor();
    const pending = await api.get('/api/v1/approval-requests?status=pending');
    expect(pending.body.data.requests.map((request: { action: string; target: unknown; parameters: unknown }) => ({ action: request.action, target: request.target, parameters: request.parameters }))).toEqual([
      { action: 'tier_limit.set', target: { kind: 'tier_limit', id: 'Gold:collection:LRD' }, parameters: { dailyMinor: '500025', perDayCount: 40 } },
    ]);
    expect(makerPage.policyViolations).toEqual([]);
    expect(makerPage.pageErrors).toEqual([]);
    await makerPage.context.close();
  }, signInsTimeoutMs);

  it('when a maker rotates a partner\'s client secret in the page, then it says what will happen first, shows the new secret once, the new one gets a token and the old one does not, and after a reload the secret is gone', async () => {
    const maker = await newMaker();
    const checker = await newChecker();
    const partner = await onboardPartner(stack);
    const makerPage = await watchedPage(browser);
    const { page } = makerPage;
    await signInThroughThePage(page, stack.backoffice.baseUrl, maker);
    await page.goto(`${stack.backoffice.baseUrl}/partners/${partner.partnerId}`);
    await page.getByRole('button', { name: 'Rotate client secret' }).click();
    const confirmation = page.getByRole('form', { name: 'Confirm the client secret rotation' });
    await expect(confirmation.textContent()).resolves.toContain('The current secret stops working at once');
    await confirmation.getByRole('button', { name: 'Yes, rotate the client secret' }).click();
    const shownOnce = page.getByRole('status').filter({ hasText: 'shown only now' });
    await shownOnce.waitFor();
    const newSecret = ((await shownOnce.locator('code').textContent()) ?? '').trim();
    expect(newSecret).toMatch(/^pwsk_/);
    await screenshot(page, 'partner-secret-rotated');
    const tokenFor = (clientSecret: string) => stack.client.post('/partner/auth/token', { client_id: partner.clientId, client_secret: clientSecret });
    expect((await tokenFor(newSecret)).status).toBe(200);
    expect((await tokenFor(partner.clientSecret)).status).toBe(401);
    // The page lists the rotation by person, and after a reload the secret is nowhere.
    await page.reload();
    const actions = page.getByRole('table', { name: 'Changes by one person' });
    await expect(actions.textContent()).resolves.toContain('partner.client_secret.rotate');
    await expect(actions.textContent()).resolves.toContain('Mara Maker (operator)');
    await expect(page.getByTestId('client-secrets').textContent()).resolves.toMatch(/^one, since /);
    await expect(page.content()).resolves.not.toContain(newSecret);

    // Without downtime: a second secret, shown once, and both get tokens; then the previous one revoked. Each step is offered only when it applies.
    expect(await page.getByRole('button', { name: 'Revoke the previous client secret' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add a second client secret' }).click();
    await page.getByRole('group', { name: 'Confirm the second client secret' }).getByRole('button', { name: 'Yes, add a second secret' }).click();
    const secondShown = page.getByRole('status').filter({ hasText: 'Second client secret, shown only now' });
    await secondShown.waitFor();
    const second = ((await secondShown.locator('code').textContent()) ?? '').trim();
    expect(second).toMatch(/^pwsk_/);
    expect([(await tokenFor(newSecret)).status, (await tokenFor(second)).status]).toEqual([200, 200]);
    await expect(page.getByTestId('client-secrets').textContent()).resolves.toMatch(/^two active/);
    expect(await page.getByRole('button', { name: 'Add a second client secret' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke the previous client secret' }).click();
    await page.getByRole('group', { name: 'Confirm the revocation of the previous client secret' }).getByRole('button', { name: 'Yes, revoke the previous secret' }).click();
    await page.getByRole('status').filter({ hasText: 'The previous client secret is revoked' }).waitFor();
    expect([(await tokenFor(newSecret)).status, (await tokenFor(second)).status]).toEqual([401, 200]);
    await page.reload();
    await expect(page.getByTestId('client-secrets').textContent()).resolves.toMatch(/^one, since /);
    await expect(page.getByRole('table', { name: 'Changes by one person' }).textContent()).resolves.toMatch(/partner\.client_secret\.add_second[\s\S]*partner\.client_secret\.revoke_previous|partner\.client_secret\.revoke_previous[\s\S]*partner\.client_secret\.add_second/);
    await expect(page.content()).resolves.not.toContain(second);

    // A checker sees the partner but no rotation button: the server would refuse it too.
    const checkerPage = await watchedPage(browser);
    await signInThroughThePage(checkerPage.page, stack.backoffice.baseUrl, checker);
    await checkerPage.page.goto(`${stack.backoffice.baseUrl}/partners/${partner.partnerId}`);
    await checkerPage.page.getByRole('heading', { level: 1, name: partner.name }).waitFor();
    expect(await checkerPage.page.getByRole('button', { name: 'Rotate client secret' }).count()).toBe(0);
    for (const each of [makerPage, checkerPage]) {
      expect(each.policyViolations).toEqual([]);
      expect(each.pageErrors).toEqual([]);
      await each.context.close();
    }
  }, signInsTimeoutMs);

  it('when a maker sets a fee schedule with tiers in the form, then a wrong tier is named, the review says the tiers in words, and once a checker approves the schedule quotes with it', async () => {
    const maker = await newMaker();
    const makerPage = await watchedPage(browser);
    const { page } = makerPage;
    await signInThroughThePage(page, stack.backoffice.baseUrl, maker);
    await page.goto(`${stack.backoffice.baseUrl}/approvals/new`);
    await page.getByLabel('Action').selectOption('fee_schedule.set');
    await page.getByLabel('Transaction type').selectOption('disbursement');
    await page.getByLabel('Currency').selectOption('LRD');
    await page.getByLabel('Replace the tiers').check();
    await page.getByRole('button', { name: 'Add a tier' }).click();
    await page.getByLabel('Tier 1: up to').fill('1,000');
    await page.getByLabel('Tier 1: flat fee').fill('5');
    await page.getByLabel('Tier 1: percentage').fill('1.255');
    await page.getByLabel('Tier 2: flat fee').fill('10.50');
    await page.getByLabel('Tier 2: percentage').fill('0.5');
    await page.getByLabel('Reason').fill('New LRD price list from the 1st');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Tier 1, percentage');
    await page.getByLabel('Tier 1: percentage').fill('1.25');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect(page.locator('.lead').textContent()).resolves.toBe('Set the fee schedule disbursement LRD: fee tiers up to LRD 1,000.00: LRD 5.00 + 1.25 %; above: LRD 10.50 + 0.50 %');
    await screenshot(page, 'new-request-fee-tiers');
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await page.getByRole('status').filter({ hasText: 'Requested: Set the fee schedule disbursement LRD' }).waitFor();

    const api = await stack.backoffice.sessionOf(reader);
    const pending = await api.get('/api/v1/approval-requests?status=pending');
    const request = (pending.body.data.requests as { requestId: string; action: string; parameters: unknown }[]).find((each) => each.action === 'fee_schedule.set');
    expect(request?.parameters).toEqual({
      tiers: [
        { upToMinor: '100000', flatMinor: '500', basisPoints: 125 },
        { upToMinor: null, flatMinor: '1050', basisPoints: 50 },
      ],
    });
    const approved = await api.post(`/api/v1/approval-requests/${request?.requestId ?? ''}/approve`, {});
    expect(approved.body.data).toMatchObject({ status: 'executed' });
    const fees = await stack.quotesOperator(['show-fees', '--type', 'disbursement', '--currency', 'LRD']);
    expect(JSON.stringify(fees)).toContain('"basisPoints":125');
    expect(makerPage.policyViolations).toEqual([]);
    expect(makerPage.pageErrors).toEqual([]);
    await makerPage.context.close();
  }, signInsTimeoutMs);
});
