import { readFileSync } from 'node:fs';

/**
 * GET /api/v1/docs: the API reference page. A small HTML page whose Redoc (the standalone bundle of
 * the `redoc` package, a runtime dependency of the gateway, served beside the page) renders the
 * document the gateway serves at /api/v1/openapi.json in the reader's browser. Every URL in it is
 * relative to the page, so it works under any host and behind a proxy; it loads nothing from
 * elsewhere, and its Content-Security-Policy forbids it to.
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

/** The page: served at /api/v1/docs, so "openapi.json" and "docs/…" resolve beside it under /api/v1/. */
export function referencePageHtml(documentTitle: string): string {
  const title = `${escapeHtml(documentTitle)} reference`;
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
    '<noscript>This page needs JavaScript to render the API reference; the OpenAPI document itself is at <a href="openapi.json">openapi.json</a>, a Postman collection at <a href="postman.json">postman.json</a>.</noscript>',
    '<redoc spec-url="openapi.json" required-props-first="true" expand-responses="200,202"></redoc>',
    `<script src="docs/${redocBundleName}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
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
