import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import { consoleSecurityHeaders } from './security-headers';

/**
 * The console's pages: Vite's content-hashed assets (cacheable, immutable) and, for every other GET
 * outside /api, its index.html (the page routes in the browser). Every answer carries the console's
 * strict headers. Without a build the pages answer 404 and the API still works.
 */
export function mountConsolePages(app: Express, directory: string): void {
  const pageHeaders = consoleSecurityHeaders();
  const assetHeaders = consoleSecurityHeaders({ cacheable: true });
  const indexFile = path.join(directory, 'index.html');
  app.use(
    '/assets',
    express.static(path.join(directory, 'assets'), {
      fallthrough: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(assetHeaders)) res.setHeader(name, value);
      },
    }),
  );
  app.get(/^\/(?!api\/|api$|healthz$|readyz$|metrics$).*/, (_req, res) => {
    for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value);
    if (!fs.existsSync(indexFile)) {
      res.status(404).type('text/plain').send('The console is not built: npm run build');
      return;
    }
    res.type('html').sendFile(indexFile);
  });
}
