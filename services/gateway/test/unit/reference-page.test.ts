import { openApiDocumentText } from '@pwa/contracts';
import { referencePageHtml, referenceSummaryId, type SummarisedDocument } from '../../src/http/reference-page';

/**
 * The reference page's HTML as the gateway serves it, read as text: no script runs, as for a
 * browser still loading Redoc's bundle on a slow connection, or without JavaScript. The summary
 * made from the document must already list what the document holds.
 */
const document = JSON.parse(openApiDocumentText()) as SummarisedDocument & { paths: Record<string, Record<string, { operationId: string; summary: string }>> };

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The summary's list items: method, path or event, and the text after them. */
function listedOf(html: string): { method: string; path: string; text: string }[] {
  return [...html.matchAll(/<li><code>([A-Z]+)<\/code> <code>([^<]*)<\/code> ([^<]*)<\/li>/g)].map((match) => ({
    method: match[1] ?? '',
    path: unescapeHtml(match[2] ?? ''),
    text: unescapeHtml(match[3] ?? ''),
  }));
}

describe('the API reference page’s HTML', () => {
  const html = referencePageHtml(document);
  const summary = html.slice(html.indexOf(`<main id="${referenceSummaryId}">`), html.indexOf('</main>') + '</main>'.length);

  test('when the page is made from the served document, then its summary lists every operation with its method, path and summary, before any script runs', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, summary: operation.summary })));

    const listed = listedOf(summary).filter((entry) => entry.path.startsWith('/'));

    expect(operations.length).toBeGreaterThan(25);
    expect(listed.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(operations.map(({ method, path }) => `${method} ${path}`).sort());
    for (const operation of operations) {
      expect(listed.find((entry) => entry.method === operation.method && entry.path === operation.path)?.text).toMatch(new RegExp(`^${operation.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(sandbox only\\))?$`));
    }
  });

  test('when the page is made, then the summary names the title and version, every base URL of the document, and every webhook', () => {
    const webhookNames = Object.keys(document.webhooks ?? {});

    expect(summary).toContain(`<h1>${document.info.title} ${document.info.version}</h1>`);
    for (const server of document.servers ?? []) expect(summary).toContain(`<li><code>${server.url}</code>: `);
    expect((document.servers ?? []).map((server) => server.description).join(' ')).toMatch(/Sandbox.*Production/);
    expect(listedOf(summary).filter((entry) => !entry.path.startsWith('/')).map((entry) => entry.path)).toEqual(webhookNames);
    expect(webhookNames.length).toBeGreaterThan(10);
  });

  test('when the page is made, then the summary is inside the element Redoc renders into, before Redoc’s script, and the page has no inline script or style', () => {
    const redocStart = html.indexOf('<redoc spec-url="openapi.json"');
    const redocEnd = html.indexOf('</redoc>');

    expect(redocStart).toBeGreaterThan(-1);
    expect(html.indexOf(summary)).toBeGreaterThan(redocStart);
    expect(html.indexOf(summary) + summary.length).toBeLessThan(redocEnd);
    expect(redocEnd).toBeLessThan(html.indexOf('<script src="docs/redoc.standalone.js"></script>'));
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|style=/);
  });

  test('when the document’s texts hold HTML, then the summary shows them as text', () => {
    const crafted: SummarisedDocument = {
      info: { title: 'A & B <API>', version: '1' },
      servers: [{ url: '/api/v1', description: '<img src=x onerror=alert(1)>' }],
      paths: { '/things/{id}': { get: { summary: '<script>alert(1)</script>', tags: ['T'] } } },
    };

    const page = referencePageHtml(crafted);

    expect(page).toContain('<title>A &amp; B &lt;API&gt; reference</title>');
    expect(page).toContain('<li><code>GET</code> <code>/things/{id}</code> &lt;script&gt;alert(1)&lt;/script&gt;</li>');
    expect(page).not.toContain('<img');
    expect(page.match(/<script/g)).toHaveLength(1);
  });
});
