import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchConsoleChromium, screenshotOf } from '../../../../test/support/console-browser';
import type { BackofficeStack, SeededOperator } from '../../../../test/support/stack';

export { watchedPage, seriousAxeViolations, type WatchedPage, type AxeViolation } from '../../../../test/support/console-browser';
export { base32Bytes } from '../../../../test/support/totp-person';

/**
 * What the back-office console's browser tests share beyond test/support/console-browser.ts: the
 * built console, Chromium for the stack, and sign-in through the page itself.
 */
export const consoleIndexFile = path.join(__dirname, '..', '..', 'dist', 'console', 'index.html');

export function requireBuiltConsole(): void {
  if (!fs.existsSync(consoleIndexFile)) throw new Error(`The console is not built (${consoleIndexFile} is missing): run npm run build`);
}

export function launchChromium(stack: BackofficeStack): Promise<Browser> {
  return launchConsoleChromium(stack.backoffice.chromiumArgs);
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

export function screenshot(page: Page, name: string): Promise<void> {
  return screenshotOf(page, 'backoffice', name);
}
