import { createHash } from 'node:crypto';
import type { Options, convertV2 as ConvertV2 } from 'openapi-to-postmanv2';
import { publicApi } from '@pwa/contracts';

/**
 * The Postman collection (v2.1) the gateway serves at GET /api/v1/postman.json, converted from the
 * very document it serves by openapi-to-postmanv2, then made fit to import and to cache:
 * - the collection's authorization is OAuth 2.0 client credentials against the token endpoint,
 *   from the variables baseUrl, clientId and clientSecret; the token endpoint itself uses Basic
 *   with the same two variables, and the routes that need no token say so (noauth);
 * - one document always gives the same text (and the same ETag on every replica): every id is
 *   derived from its place in the collection (the converter's are random), and the values the
 *   converter makes up where the document has no example (its schema faker) come from a seeded
 *   generator;
 * - folders without a request (the converter keeps one for the webhooks), and the empty body of a
 *   request without one, are dropped.
 */

/** Where a partner starts: the local sandbox of `npm start`; they set their environment's base URL. */
export const defaultPostmanBaseUrl = 'https://localhost:8443/api/v1';

const conversionOptions: Options = {
  folderStrategy: 'Tags',
  requestNameSource: 'Fallback',
  parametersResolution: 'Example',
  enableOptionalParameters: false,
  includeWebhooks: false,
  includeAuthInfoInExample: false,
  alwaysInheritAuthentication: true,
};

type JsonObject = Record<string, unknown>;

/** The converter's schema faker (json-schema-faker, bundled in the package): it keeps its own random function, and makes dates from the clock. */
interface SchemaFaker {
  option: (options: { random: () => number }) => void;
  random: { date: () => Date };
}

/**
 * The converter and its faker, loaded on the first conversion only: the package takes most of a
 * second to load, and a gateway started from a build that holds the collection already
 * (postman-collection-cache.ts) never converts.
 */
let converter: { convertV2: typeof ConvertV2; schemaFaker: SchemaFaker } | undefined;
function loadConverter(): { convertV2: typeof ConvertV2; schemaFaker: SchemaFaker } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  converter ??= {
    convertV2: (require('openapi-to-postmanv2') as { convertV2: typeof ConvertV2 }).convertV2,
    schemaFaker: require('openapi-to-postmanv2/assets/json-schema-faker.js') as SchemaFaker,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return converter;
}

/** Made-up dates fall in the year before this instant, not before the clock's. */
const madeUpDatesBeforeMs = Date.UTC(2026, 0, 1);
const yearMs = 365 * 24 * 3_600_000;

interface PostmanRequest extends JsonObject {
  name: string;
  request: JsonObject & { method: string; url: JsonObject & { path?: string[] }; auth?: JsonObject };
}

interface PostmanFolder extends JsonObject {
  name: string;
  item: (PostmanFolder | PostmanRequest)[];
}

interface OpenApiOperationObject {
  security?: JsonObject[];
}

const variable = (key: string, value: string, description: string) => ({ key, value, type: 'string', description });

const collectionAuth = {
  type: 'oauth2',
  oauth2: [
    { key: 'grant_type', value: 'client_credentials', type: 'string' },
    { key: 'accessTokenUrl', value: '{{baseUrl}}/partner/auth/token', type: 'string' },
    { key: 'clientId', value: '{{clientId}}', type: 'string' },
    { key: 'clientSecret', value: '{{clientSecret}}', type: 'string' },
    // Sent as HTTP Basic (client_secret_basic), the method the token endpoint describes first.
    { key: 'client_authentication', value: 'header', type: 'string' },
    { key: 'addTokenTo', value: 'header', type: 'string' },
    { key: 'tokenName', value: 'Partner Wallet API', type: 'string' },
  ],
};

const basicWithClientCredentials = {
  type: 'basic',
  basic: [
    { key: 'username', value: '{{clientId}}', type: 'string' },
    { key: 'password', value: '{{clientSecret}}', type: 'string' },
  ],
};

/** Converts the document (as served) to the collection's JSON text: deterministic, 2-space JSON and a final newline. */
export function postmanCollectionText(documentText: string): string {
  const document = JSON.parse(documentText) as { info: { title: string; description?: string; version: string }; paths: Record<string, Record<string, OpenApiOperationObject>> };
  const converted = convert(documentText);
  const folders = (converted.item as PostmanFolder[]).filter((folder) => requestsIn(folder).length > 0);
  for (const folder of folders) {
    for (const request of requestsIn(folder)) {
      authorize(request, operationOf(document.paths, request));
      // The converter gives a request without a body an empty one; Postman needs none.
      if (isEmptyObject(request.request.body)) delete request.request.body;
    }
  }
  const collection = {
    info: {
      _postman_id: stableId('collection'),
      name: document.info.title,
      description: { content: document.info.description ?? '', type: 'text/markdown' },
      version: document.info.version,
      schema: publicApi.postmanCollectionSchemaUrl,
    },
    auth: collectionAuth,
    variable: [
      variable('baseUrl', defaultPostmanBaseUrl, 'The base URL of your environment, ending in /api/v1 (the operator gives you the sandbox and production ones).'),
      variable('clientId', '', 'Your client ID.'),
      variable('clientSecret', '', 'Your client secret (keep it in Postman’s current value, not in a shared collection).'),
    ],
    item: folders,
  };
  replaceIds(collection.item, 'item');
  return `${JSON.stringify(collection, null, 2)}\n`;
}

/**
 * openapi-to-postmanv2 answers through its callback before convertV2 returns, and its schema faker
 * (its `random` option, its clock-based dates) and the pattern generator inside it (Math.random)
 * make up values: for that one synchronous call all draw from one generator with a fixed seed,
 * then the real ones again. Should a later version answer asynchronously, the conversion fails loudly rather than
 * becoming random.
 */
function convert(documentText: string): JsonObject {
  const { convertV2, schemaFaker } = loadConverter();
  const realRandom = Math.random;
  const realDate = schemaFaker.random.date;
  let answer: { error: string } | { collection: JsonObject } | undefined;
  const random = seededRandom(0x5eed_c011);
  Math.random = random;
  schemaFaker.option({ random });
  schemaFaker.random.date = () => new Date(madeUpDatesBeforeMs - Math.floor(random() * yearMs));
  try {
    convertV2({ type: 'string', data: documentText }, conversionOptions, (error, result) => {
      const collection = result?.output?.[0]?.data;
      answer = error !== null || result?.result !== true || collection === undefined ? { error: error?.message ?? result?.reason ?? 'no output' } : { collection: collection as JsonObject };
    });
  } finally {
    Math.random = realRandom;
    schemaFaker.option({ random: realRandom });
    schemaFaker.random.date = realDate;
  }
  if (answer === undefined) throw new Error('openapi-to-postmanv2 did not answer synchronously: the collection could not be made deterministic');
  if ('error' in answer) throw new Error(`the OpenAPI document could not be converted to a Postman collection: ${answer.error}`);
  return answer.collection;
}

/** mulberry32: a small 32-bit generator, uniform enough for made-up example values. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function requestsIn(entry: PostmanFolder | PostmanRequest): PostmanRequest[] {
  if ('request' in entry) return [entry as PostmanRequest];
  return entry.item.flatMap(requestsIn);
}

/** The document's operation a request was made from: its method and its path ("partner/v1/account/:phone" → "/partner/v1/account/{phone}"). */
function operationOf(paths: Record<string, Record<string, OpenApiOperationObject>>, request: PostmanRequest): OpenApiOperationObject {
  const pathName = `/${(request.request.url.path ?? []).map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;
  const operation = paths[pathName]?.[request.request.method.toLowerCase()];
  if (operation === undefined) throw new Error(`the Postman request ${request.request.method} ${pathName} matches no operation of the document`);
  return operation;
}

/** Bearer routes inherit the collection's OAuth 2.0; the token endpoint takes Basic; open routes none. */
function authorize(request: PostmanRequest, operation: OpenApiOperationObject): void {
  const security = operation.security ?? [];
  const schemes = security.flatMap((requirement) => Object.keys(requirement));
  delete request.request.auth;
  if (schemes.includes('partnerOAuth')) return;
  request.request.auth = schemes.includes('clientSecretBasic') ? basicWithClientCredentials : { type: 'noauth' };
}

/** Every `id` in the tree (requests, their example responses) becomes a UUID-shaped hash of where it is. */
function replaceIds(value: unknown, place: string): void {
  if (Array.isArray(value)) {
    value.forEach((entry, index) => replaceIds(entry, `${place}/${index}`));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entry = value as JsonObject;
  for (const [key, child] of Object.entries(entry)) {
    if (key === 'id' && typeof child === 'string') entry[key] = stableId(place);
    else replaceIds(child, `${place}/${key}`);
  }
}

function stableId(place: string): string {
  const hex = createHash('sha256').update(`postman:${place}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
