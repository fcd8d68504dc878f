import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { BackofficeStack, SeededOperator } from '../../../../test/support/stack';

/**
 * What the console's browser tests share: Chromium trusting the stack's certificate (never
 * ignoreHTTPSErrors), a page that records every CSP or Trusted Types violation and every dialog,
 * sign-in through the page itself, and the axe-core pass.
 */
export const consoleIndexFile = path.join(__dirname, '..', '..', 'dist', 'console', 'index.html');
export const screenshotDirectory = path.join(__dirname, '..', '..', '..', '..', 'artifacts', 'screenshots', 'backoffice');

export function requireBuiltConsole(): void {
  if (!fs.existsSync(consoleIndexFile)) throw new Error(`The console is not built (${consoleIndexFile} is missing): run npm run build`);
}

export function launchChromium(stack: BackofficeStack): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...stack.backoffice.chromiumArgs, '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console messages that report a refused script, style or Trusted Types sink. */
  policyViolations: string[];
  dialogs: string[];
  pageErrors: string[];
}

export async function watchedPage(browser: Browser, options: { bypassCSP?: boolean; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const watched: WatchedPage = { page, context, policyViolations: [], dialogs: [], pageErrors: [] };
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Trusted Type|TrustedHTML|TrustedScript/i.test(text)) watched.policyViolations.push(text);
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return watched;
}

/** Signs in through the sign-in page: e-mail and password, then a fresh TOTP code typed in. */
export async function signInThroughThePage(page: Page, baseUrl: string, operator: SeededOperator): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('E-mail address').fill(operator.email);
  await page.getByLabel('Password', { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code from your authenticator app').fill(await operator.nextTotpCode());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is. Injecting axe's script needs a
 * context launched with bypassCSP (the console's CSP rightly refuses an injected script); the
 * pages themselves are checked for CSP violations in contexts without it.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => ({ target: node.target })) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotDirectory, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDirectory, `${name}.png`), fullPage: true });
}

/** The bytes of a base32 (RFC 4648) TOTP secret as the set-up page shows it. */
export function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const character of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(character);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}
