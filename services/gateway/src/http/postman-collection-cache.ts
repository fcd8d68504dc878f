import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { postmanCollectionText } from './postman-collection';

/**
 * The Postman collection made at build time (`npm run build` runs writePostmanCollectionCache),
 * so that a gateway starts without loading the converter and converting, about a second and a
 * half of every start: the file holds the collection and the SHA-256 of the document it was
 * converted from. The gateway uses it only when that digest is the digest of the document it
 * serves; otherwise (no file, an unreadable one, a document changed since the build) it converts
 * at boot as before. The conversion is deterministic, so both ways give the same bytes.
 */
export const postmanCollectionCacheFile = path.join(__dirname, '..', 'postman-collection.cache.json');

interface PostmanCollectionCache {
  documentSha256: string;
  collectionText: string;
}

function digestOf(documentText: string): string {
  return createHash('sha256').update(documentText).digest('hex');
}

/** The cached collection of exactly this document, or undefined. */
export function cachedPostmanCollectionText(documentText: string, file = postmanCollectionCacheFile): string | undefined {
  let cache: Partial<PostmanCollectionCache>;
  try {
    cache = JSON.parse(readFileSync(file, 'utf8')) as Partial<PostmanCollectionCache>;
  } catch {
    return undefined;
  }
  return cache.documentSha256 === digestOf(documentText) && typeof cache.collectionText === 'string' ? cache.collectionText : undefined;
}

/** Converts the document and writes the cache file for it. */
export function writePostmanCollectionCache(documentText: string, file = postmanCollectionCacheFile): void {
  const cache: PostmanCollectionCache = { documentSha256: digestOf(documentText), collectionText: postmanCollectionText(documentText) };
  writeFileSync(file, `${JSON.stringify(cache)}\n`);
}

/** The collection the gateway serves: the build's when it is of this document, else converted now. */
export function postmanCollectionFor(documentText: string): string {
  return cachedPostmanCollectionText(documentText) ?? postmanCollectionText(documentText);
}
