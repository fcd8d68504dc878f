import type { PublicOperation } from './operation-parts';

/** The reference page and the Postman collection (GET /docs, GET /postman.json), served by the gateway itself beside GET /openapi.json. */
export const contractDocumentOperations: readonly PublicOperation[] = [];
