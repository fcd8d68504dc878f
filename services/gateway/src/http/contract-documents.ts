import { createHash } from 'node:crypto';
import { openApiDocumentPath, openApiDocumentText, publicApi } from '@pwa/contracts';
import { publicPathPrefix } from '../domain/routes';
import { postmanCollectionFor } from './postman-collection-cache';
import { readRedocBundle, redocBundleName, redocLicenceName, referencePageContentSecurityPolicy, referencePageHtml, type SummarisedDocument } from './reference-page';

/**
 * What the gateway answers itself, without a token, beside the partner routes: the OpenAPI
 * document, the reference page that renders it (and the page's script), and the Postman
 * collection converted from it (at build time when the build's collection is of this very document:
 * postman-collection-cache.ts). All are made once at boot from the one document, so they agree.
 */
export interface ContractDocument {
  /** The full path, /api/v1/…: also the metrics label. */
  route: string;
  contentType: string;
  body: string;
  /** A strong validator: the body's SHA-256. */
  etag: string;
  /** More answer headers (the page's Content-Security-Policy). */
  headers: Readonly<Record<string, string>>;
}

export const openApiDocumentRoute = `${publicPathPrefix}${openApiDocumentPath}`;
export const referencePageRoute = `${publicPathPrefix}${publicApi.apiReferencePagePath}`;
export const postmanCollectionRoute = `${publicPathPrefix}${publicApi.postmanCollectionPath}`;

const json = 'application/json; charset=utf-8';

export function contractDocuments(): readonly ContractDocument[] {
  const documentText = openApiDocumentText();
  const document = JSON.parse(documentText) as SummarisedDocument;
  const redoc = readRedocBundle();
  const served = (route: string, contentType: string, body: string, headers: Record<string, string> = {}): ContractDocument => ({
    route,
    contentType,
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
    headers,
  });
  return [
    served(openApiDocumentRoute, json, documentText),
    served(referencePageRoute, 'text/html; charset=utf-8', referencePageHtml(document), {
      'Content-Security-Policy': referencePageContentSecurityPolicy,
      'Referrer-Policy': 'no-referrer',
    }),
    served(`${referencePageRoute}/${redocBundleName}`, 'text/javascript; charset=utf-8', redoc.script),
    served(`${referencePageRoute}/${redocLicenceName}`, 'text/plain; charset=utf-8', redoc.licence),
    served(postmanCollectionRoute, json, postmanCollectionFor(documentText)),
  ];
}
