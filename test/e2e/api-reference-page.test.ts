import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { z } from 'zod';
import { startStack, type Stack } from '../support/stack';

/**
 * The API reference page (GET /api/v1/docs) in a real headless browser, Debian's chromium (the
 * preflight installs it), against the stack's gateway over HTTPS; and the Postman collection
 * (GET /api/v1/postman.json) as a partner's Postman would import it. Both must hold every
 * operation of the document the same gateway serves.
 */
const chromiumPath = '/usr/bin/chromium';

type JsonObject = Record<string, any>;

interface DocumentedOperation {
  operationId: string;
  summary: string;
  method: string;
  path: string;
  /** How Redoc heads it: the summary, and a "Webhook" badge after a webhook's. */
  heading: string;
}

function operationsOf(document: JsonObject): DocumentedOperation[] {
  return Object.entries(document.paths as JsonObject).flatMap(([pathName, item]) =>
    Object.entries(item as JsonObject).map(([method, operation]) => ({
      operationId: String((operation as JsonObject).operationId),
      summary: String((operation as JsonObject).summary),
      method: method.toUpperCase(),
      path: pathName,
      heading: String((operation as JsonObject).summary),
    })),
  );
}

/** The document's `webhooks`, each a POST the API sends. */
function webhooksOf(document: JsonObject): DocumentedOperation[] {
  return Object.entries(document.webhooks as JsonObject).map(([name, item]) => ({
    operationId: String((item as JsonObject).post.operationId),
    summary: String((item as JsonObject).post.summary),
    method: 'POST',
    path: name,
    heading: `${String((item as JsonObject).post.summary)} Webhook`,
  }));
}

/** Chromium trusts the stack's self-signed certificate by its public key alone (and nothing else it would otherwise refuse). */
function spkiHashOf(certificatePem: string): string {
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

// The Postman collection format v2.1 (schema.getpostman.com/json/collection/v2.1.0), the parts an import reads.
const postmanVariable = z.object({ key: z.string(), value: z.string(), type: z.enum(['string', 'boolean', 'any', 'number']).optional(), description: z.unknown().optional() });
const postmanAuth = z.object({
  type: z.enum(['apikey', 'awsv4', 'basic', 'bearer', 'digest', 'edgegrid', 'hawk', 'noauth', 'oauth1', 'oauth2', 'ntlm']),
}).catchall(z.array(z.object({ key: z.string(), value: z.unknown(), type: z.string().optional() })));
const postmanUrl = z.object({
  raw: z.string().optional(),
  host: z.array(z.string()),
  path: z.array(z.string()),
  query: z.array(z.object({ key: z.string().nullable(), value: z.string().nullable(), disabled: z.boolean().optional() }).loose()).optional(),
  variable: z.array(z.object({ key: z.string(), value: z.unknown() }).loose()).optional(),
});
const postmanRequestItem = z.object({
  id: z.string().optional(),
  name: z.string().min(1),
  request: z.object({
    method: z.enum(['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'COPY', 'HEAD', 'OPTIONS', 'LINK', 'UNLINK', 'PURGE', 'LOCK', 'UNLOCK', 'PROPFIND', 'VIEW']),
    url: postmanUrl,
    header: z.array(z.object({ key: z.string(), value: z.string() }).loose()).optional(),
    body: z.object({ mode: z.enum(['raw', 'urlencoded', 'formdata', 'file', 'graphql']).optional() }).loose().nullable().optional(),
    auth: postmanAuth.optional(),
  }).loose(),
  response: z.array(z.object({ name: z.string().optional(), code: z.number().int().optional() }).loose()).optional(),
}).loose();
type PostmanRequestItem = z.infer<typeof postmanRequestItem>;
interface PostmanFolder {
  name: string;
  item: PostmanItem[];
}
type PostmanItem = PostmanRequestItem | PostmanFolder;
const postmanItem: z.ZodType<PostmanItem> = z.lazy(() => z.union([postmanRequestItem, z.object({ name: z.string().min(1), item: z.array(postmanItem) })]));
const postmanCollection = z.object({
  info: z.object({
    _postman_id: z.string().optional(),
    name: z.string().min(1),
    schema: z.literal('https://schema.getpostman.com/json/collection/v2.1.0/collection.json'),
  }).loose(),
  item: z.array(postmanItem),
  auth: postmanAuth,
  variable: z.array(postmanVariable),
}).loose();

function requestsOf(items: readonly PostmanItem[]): PostmanRequestItem[] {
  return items.flatMap((entry) => ('request' in entry ? [entry] : requestsOf(entry.item)));
}

describe('the API reference page and the Postman collection', () => {
  let stack: Stack;
  let browser: Browser | undefined;
  let document: JsonObject;

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(`chromium is not installed at ${chromiumPath}: run \`node scripts/preflight.js --for tests\` (it installs Debian's chromium package), or \`apt-get install -y chromium\``);
    }
    stack = await startStack({ logLevel: 'warn' });
    document = (await stack.client.get('/openapi.json')).body as JsonObject;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  test('when the page is opened in headless chromium, then Redoc lists every operation and webhook of the served document, and nothing was asked of another host or refused by the page’s policy', async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: [`--ignore-certificate-errors-spki-list=${spkiHashOf(stack.certificatePem)}`] });
    const context = await browser.newContext();
    const requested: string[] = [];
    const problems: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // The page lists the webhooks (the events we send) beside the operations.
    const operations = [...operationsOf(document), ...webhooksOf(document)];

    const answer = await page.goto(`${stack.baseUrl}/docs`);
    await page.waitForFunction(
      (ids: string[]) => {
        const page = (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document;
        return ids.every((id) => page.querySelector(`[data-section-id="operation/${id}"]`) !== null);
      },
      operations.map((operation) => operation.operationId),
      { timeout: 30_000 },
    );
    const listed = await page.$$eval('[data-section-id^="operation/"]', (sections) =>
      sections.map((section) => ({ operationId: (section.getAttribute('data-section-id') ?? '').replace('operation/', ''), heading: (section.querySelector('h2')?.textContent ?? '').replace(/\s+/g, ' ').trim() })),
    );

    expect(answer?.status()).toBe(200);
    expect(listed.map((entry) => entry.operationId).sort()).toEqual(operations.map((operation) => operation.operationId).sort());
    for (const operation of operations) {
      expect({ operationId: operation.operationId, heading: listed.find((entry) => entry.operationId === operation.operationId)?.heading }).toEqual({ operationId: operation.operationId, heading: operation.heading });
    }
    const gatewayOrigin = new URL(stack.baseUrl).origin;
    expect(requested.filter((url) => !url.startsWith(`${gatewayOrigin}/`) && !url.startsWith(`blob:${gatewayOrigin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${stack.baseUrl}/docs`, `${stack.baseUrl}/docs/redoc.standalone.js`, `${stack.baseUrl}/openapi.json`]));
    expect(problems).toEqual([]);
  }, 90_000);

  test('when Redoc’s script is slow to arrive, then the first paint is the server-rendered summary of the document (every operation, not a spinner), and Redoc replaces it once the script runs; without JavaScript the summary stays', async () => {
    browser ??= await chromium.launch({ executablePath: chromiumPath, args: [`--ignore-certificate-errors-spki-list=${spkiHashOf(stack.certificatePem)}`] });
    const context = await browser.newContext();
    let releaseScript: () => void = () => undefined;
    const scriptHeld = new Promise<void>((resolve) => {
      releaseScript = resolve;
    });
    await context.route('**/docs/redoc.standalone.js', async (route) => {
      await scriptHeld;
      await route.continue();
    });
    const page = await context.newPage();
    const operations = operationsOf(document);

    await page.goto(`${stack.baseUrl}/docs`, { waitUntil: 'commit' });
    await page.waitForSelector('#reference-summary li', { state: 'visible', timeout: 15_000 });
    const firstPaint = await page.$$eval('#reference-summary li', (items) => items.map((item) => (item.textContent ?? '').replace(/\s+/g, ' ').trim()));
    releaseScript();
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 30_000 });
    const summariesAfterRedoc = await page.locator('#reference-summary').count();

    const withoutScript = await browser.newContext({ javaScriptEnabled: false });
    const staticPage = await withoutScript.newPage();
    await staticPage.goto(`${stack.baseUrl}/docs`);
    const staticItems = await staticPage.locator('#reference-summary li').count();
    await withoutScript.close();
    await context.close();

    for (const operation of operations) expect(firstPaint).toContainEqual(expect.stringContaining(`${operation.method} ${operation.path} ${operation.summary}`));
    expect(summariesAfterRedoc).toBe(0);
    expect(staticItems).toBeGreaterThanOrEqual(operations.length);
  }, 90_000);

  test('when the Postman collection is fetched, then it is a v2.1 collection with OAuth 2.0 client credentials and one request per operation of the served document', async () => {
    const response = await stack.client.get('/postman.json');

    expect(response.status).toBe(200);
    const collection = postmanCollection.parse(response.body);
    const requests = requestsOf(collection.item);
    const operations = operationsOf(document);
    const keyOf = (method: string, segments: readonly string[]) => `${method} /${segments.map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;
    expect(requests.map((request) => keyOf(request.request.method, request.request.url.path)).sort()).toEqual(operations.map((operation) => `${operation.method} ${operation.path}`).sort());
    expect(requests.every((request) => request.request.url.host.join('') === '{{baseUrl}}')).toBe(true);
    expect(collection.variable.map((entry) => entry.key)).toEqual(['baseUrl', 'clientId', 'clientSecret']);
    expect(collection.auth.type).toBe('oauth2');
    expect(Object.fromEntries((collection.auth.oauth2 as { key: string; value: unknown }[]).map((entry) => [entry.key, entry.value]))).toMatchObject({
      grant_type: 'client_credentials',
      accessTokenUrl: '{{baseUrl}}/partner/auth/token',
      clientId: '{{clientId}}',
      clientSecret: '{{clientSecret}}',
    });
  });
});
