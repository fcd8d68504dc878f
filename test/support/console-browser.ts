import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * What the consoles' browser tests share (the back-office's and the partner dashboard's): Chromium
 * trusting the stack's certificate (never ignoreHTTPSErrors), a page that records every CSP or
 * Trusted Types violation, page error and dialog, the axe-core pass, and screenshots kept as
 * artifacts under artifacts/screenshots/<console>.
 */
export function launchConsoleChromium(chromiumArgs: readonly string[]): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...chromiumArgs, '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
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

const artifactsDirectory = path.join(__dirname, '..', '..', 'artifacts', 'screenshots');

export async function screenshotOf(page: Page, console: string, name: string): Promise<void> {
  const directory = path.join(artifactsDirectory, console);
  fs.mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: path.join(directory, `${name}.png`), fullPage: true });
}
