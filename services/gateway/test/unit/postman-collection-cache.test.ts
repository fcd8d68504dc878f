import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openApiDocumentText } from '@pwa/contracts';
import { postmanCollectionText } from '../../src/http/postman-collection';
import { cachedPostmanCollectionText, writePostmanCollectionCache } from '../../src/http/postman-collection-cache';

/**
 * The build's Postman collection is served only when it was converted from the very document the
 * gateway serves; any other file (none, unreadable, another document's) means converting at boot.
 */
describe('the Postman collection made at build time', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pwa-postman-cache-'));
  const file = path.join(directory, 'postman-collection.cache.json');
  const documentText = openApiDocumentText();

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test('when the cache was written for this document, then it gives the bytes a conversion at boot gives', () => {
    writePostmanCollectionCache(documentText, file);
    expect(cachedPostmanCollectionText(documentText, file)).toBe(postmanCollectionText(documentText));
  });

  test('when the document changed since the build, then the cache is not used', () => {
    writePostmanCollectionCache(documentText, file);
    const changed = documentText.replace('"openapi"', ' "openapi"');
    expect(changed).not.toBe(documentText);
    expect(cachedPostmanCollectionText(changed, file)).toBeUndefined();
  });

  test('when there is no cache file, or it does not parse, or it lacks the collection, then nothing is read from it', () => {
    expect(cachedPostmanCollectionText(documentText, path.join(directory, 'missing.json'))).toBeUndefined();
    writeFileSync(file, '{ not json');
    expect(cachedPostmanCollectionText(documentText, file)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ documentSha256: createHash('sha256').update(documentText).digest('hex') }));
    expect(cachedPostmanCollectionText(documentText, file)).toBeUndefined();
  });
});
