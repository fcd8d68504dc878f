import { z } from 'zod';
import { codes, operationFamily } from './operation-parts';

/** Where the gateway serves the document, below the base URL. */
export const openApiDocumentPath = '/openapi.json';

/** Where the gateway serves the reference page and the Postman collection, below the base URL, beside /openapi.json. */
export const apiReferencePagePath = '/docs';
export const postmanCollectionPath = '/postman.json';

/** The schema URL of every Postman collection v2.1 (its `info.schema`). */
export const postmanCollectionSchemaUrl = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** The transport and the per-address limit: nothing else can go wrong without a token or a body. */
const contractDocumentCodes = codes(['PKC_2008', 'PKC_6005', 'PKC_7001', 'PKC_7002', 'PKC_7003']);

const postmanCollectionSchema = z
  .looseObject({
    info: z.looseObject({ name: z.string(), schema: z.literal(postmanCollectionSchemaUrl) }),
    auth: z.looseObject({ type: z.literal('oauth2') }),
    variable: z.array(z.looseObject({ key: z.string(), value: z.string() })),
    item: z.array(z.looseObject({ name: z.string() })),
  })
  .meta({ description: 'A Postman collection (format v2.1): one folder per tag, one request per operation.' });

/**
 * The contract in its three forms (GET /openapi.json, GET /docs, GET /postman.json): the gateway
 * serves them itself, without a token, and forwards them nowhere.
 */
export const contractDocumentOperations = operationFamily([
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    pathTemplate: openApiDocumentPath,
    tag: 'Contract',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from the schemas the services validate with. No token needed; limited per source address like the token endpoint.',
    authentication: 'none',
    permission: null,
    sandboxOnly: false,
    success: { status: 200, description: 'The OpenAPI document.', schema: z.looseObject({ openapi: z.string() }), enveloped: false, examples: {} },
    errorCodes: contractDocumentCodes,
  },
  {
    operationId: 'getApiReferencePage',
    method: 'GET',
    pathTemplate: apiReferencePagePath,
    tag: 'Contract',
    summary: 'API reference page',
    description:
      'This document as a web page for people (rendered in the browser by Redoc, whose script the gateway serves itself: the page loads nothing from elsewhere). No token needed; limited per source address like the document.',
    authentication: 'none',
    permission: null,
    sandboxOnly: false,
    success: {
      status: 200,
      description: 'The reference page.',
      schema: z.string(),
      enveloped: false,
      examples: {},
      json: false,
      otherMediaTypes: {
        'text/html': {
          schema: z.string(),
          description: 'An HTML page that renders the document served at GET /openapi.json.',
          example: '<!DOCTYPE html>\n<html lang="en">…<redoc spec-url="openapi.json"></redoc>…</html>\n',
        },
      },
    },
    errorCodes: contractDocumentCodes,
  },
  {
    operationId: 'getPostmanCollection',
    method: 'GET',
    pathTemplate: postmanCollectionPath,
    tag: 'Contract',
    summary: 'Postman collection',
    description: [
      'Every operation of this document as a request of a Postman collection (format v2.1), for Postman’s Import. Set the collection variables `baseUrl` (ending in `/api/v1`), `clientId` and `clientSecret`; the collection’s OAuth 2.0 client-credentials authorization gets the token.',
      'No token needed; limited per source address like the document.',
    ].join('\n\n'),
    authentication: 'none',
    permission: null,
    sandboxOnly: false,
    success: { status: 200, description: 'The Postman collection.', schema: postmanCollectionSchema, enveloped: false, examples: {} },
    errorCodes: contractDocumentCodes,
  },
]);
