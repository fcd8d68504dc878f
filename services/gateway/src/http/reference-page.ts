import { readFileSync } from 'node:fs';

/**
 * GET /api/v1/docs: the API reference page. A small HTML page whose Redoc (the standalone bundle of
 * the `redoc` package, a runtime dependency of the gateway, served beside the page) renders the
 * document the gateway serves at /api/v1/openapi.json in the reader's browser. Every URL in it is
 * relative to the page, so it works under any host and behind a proxy; it loads nothing from
 * elsewhere, and its Content-Security-Policy forbids it to.
 *
 * Redoc's bundle is about a megabyte: on a slow connection the page would be blank, then a
 * spinner, for seconds. So the page carries a summary of the document made here, on the server
 * (title, base URLs, every operation's method, path and summary, the webhooks), inside the
 * <redoc> element: the first paint, and what a reader without JavaScript gets. Redoc clears the
 * element when it starts and renders the full reference in its place.
 */

/** Where the page's script and its licence notice are served, below the page's own path. */
export const redocBundleName = 'redoc.standalone.js';
export const redocLicenceName = 'redoc.standalone.js.LICENSE.txt';

/**
 * Redoc 2.5.4's inline styles, by SHA-256: styled-components inserts empty <style> elements and
 * fills them through the CSSOM (which the policy does not govern), and one fixed stylesheet.
 * A new Redoc may need others: the browser test (test/e2e/api-reference-page.test.ts) fails on
 * any policy violation and its message names the hash the browser asks for.
 */
const redocInlineStyleHashes = ["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='", "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='"];

/**
 * Only this origin's script, no inline or evaluated script; no inline style but Redoc's own (by
 * hash); the document fetched from this origin; the search index in a worker Redoc makes from a
 * blob; no frames, forms, plugins or base URL; never framed by another site.
 */
export const referencePageContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${redocInlineStyleHashes.join(' ')}`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The parts of the OpenAPI document the summary shows (the document as the gateway serves it). */
export interface SummarisedDocument {
  info: { title: string; version: string };
  servers?: readonly { url: string; description?: string }[];
  tags?: readonly { name: string }[];
  paths: Readonly<Record<string, Readonly<Record<string, SummarisedOperation>>>>;
  webhooks?: Readonly<Record<string, Readonly<Record<string, SummarisedOperation>>>>;
}

interface SummarisedOperation {
  summary?: string;
  tags?: readonly string[];
  'x-sandbox-only'?: boolean;
}

/** The id of the summary's element, which Redoc replaces. */
export const referenceSummaryId = 'reference-summary';

/** The page: served at /api/v1/docs, so "openapi.json" and "docs/…" resolve beside it under /api/v1/. */
export function referencePageHtml(document: SummarisedDocument): string {
  const title = `${escapeHtml(document.info.title)} reference`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    '<link rel="icon" href="data:,">',
    '</head>',
    '<body>',
    '<redoc spec-url="openapi.json" required-props-first="true" expand-responses="200,202">',
    ...summaryHtml(document),
    '</redoc>',
    `<script src="docs/${redocBundleName}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Title, base URLs, operations by tag (in the document's tag order), webhooks: plain HTML, no script or style. */
function summaryHtml(document: SummarisedDocument): string[] {
  const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
  const tagOrder = [...(document.tags ?? []).map((tag) => tag.name), ...operations.map(({ operation }) => operation.tags?.[0] ?? 'Other')];
  const tags = [...new Set(tagOrder)].filter((tag) => operations.some(({ operation }) => (operation.tags?.[0] ?? 'Other') === tag));
  const webhooks = Object.entries(document.webhooks ?? {}).flatMap(([name, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path: name, operation })));
  const item = ({ method, path, operation }: { method: string; path: string; operation: SummarisedOperation }): string =>
    `<li><code>${escapeHtml(method)}</code> <code>${escapeHtml(path)}</code> ${escapeHtml(operation.summary ?? '')}${operation['x-sandbox-only'] === true ? ' (sandbox only)' : ''}</li>`;
  return [
    `<main id="${referenceSummaryId}">`,
    `<h1>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}</h1>`,
    '<p>The interactive reference is loading (it needs JavaScript). Meanwhile, the operations below; the whole contract is the OpenAPI document, <a href="openapi.json">openapi.json</a>, and a Postman collection is at <a href="postman.json">postman.json</a>.</p>',
    '<h2>Base URLs</h2>',
    '<ul>',
    ...(document.servers ?? []).map((server) => `<li><code>${escapeHtml(server.url)}</code>: ${escapeHtml(server.description ?? '')}</li>`),
    '</ul>',
    '<h2>Operations</h2>',
    ...tags.flatMap((tag) => [`<h3>${escapeHtml(tag)}</h3>`, '<ul>', ...operations.filter(({ operation }) => (operation.tags?.[0] ?? 'Other') === tag).map(item), '</ul>']),
    ...(webhooks.length === 0 ? [] : ['<h2>Webhooks</h2>', '<p>Requests the API sends to your webhook URL.</p>', '<ul>', ...webhooks.map(item), '</ul>']),
    '</main>',
  ];
}

/** The one address outside the gateway the bundle would load: the Redocly logo beside "API docs by Redocly" in the sidebar. */
const outsideLogoUrl = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/**
 * The bundle and its licence notice, read once at boot from the installed `redoc` package. The
 * logo's address becomes "data:," (an image that fails to load, which Redoc then hides), so the
 * page asks nothing of another host; if this Redoc has no such address, or several, boot fails
 * here rather than the page quietly loading from elsewhere.
 */
export function readRedocBundle(): { script: string; licence: string } {
  const scriptPath = require.resolve(`redoc/bundles/${redocBundleName}`);
  const original = readFileSync(scriptPath, 'utf8');
  const occurrences = original.split(outsideLogoUrl).length - 1;
  if (occurrences !== 1) throw new Error(`redoc's bundle names ${outsideLogoUrl} ${occurrences} times, not once: check the reference page for requests to other hosts`);
  return { script: original.replace(outsideLogoUrl, 'data:,'), licence: readFileSync(`${scriptPath}.LICENSE.txt`, 'utf8') };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
