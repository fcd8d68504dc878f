import { openApiDocumentText, publicApi, uuidPattern } from '@pwa/contracts';
import { defaultPostmanBaseUrl, postmanCollectionText } from '../../src/http/postman-collection';

/**
 * The Postman collection is converted from the document the gateway serves (openapi-to-postmanv2),
 * once at boot: it must hold every operation, authorize as the API does, and be the same text on
 * every conversion (one ETag on every replica, nothing random).
 */
type JsonObject = Record<string, any>;

const documentText = openApiDocumentText();
const document = JSON.parse(documentText) as JsonObject;
const operations = Object.entries(document.paths as JsonObject).flatMap(([pathName, item]) =>
  Object.entries(item as JsonObject).map(([method, operation]) => ({ method: method.toUpperCase(), path: pathName, operation: operation as JsonObject })),
);

function requestsOf(items: JsonObject[]): JsonObject[] {
  return items.flatMap((entry) => (entry.request === undefined ? requestsOf(entry.item as JsonObject[]) : [entry]));
}

const pathOf = (request: JsonObject) => `/${(request.request.url.path as string[]).map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;

describe('the Postman collection', () => {
  let text: string;
  let collection: JsonObject;

  beforeAll(() => {
    text = postmanCollectionText(documentText);
    collection = JSON.parse(text) as JsonObject;
  });

  test('when the document is converted twice, then both texts are the same (ids derived, nothing random)', () => {
    expect(postmanCollectionText(documentText)).toBe(text);
  });

  test('when it is read, then it is a v2.1 collection named after the document, with OAuth 2.0 client credentials from the baseUrl, clientId and clientSecret variables', () => {
    expect(collection.info).toMatchObject({ name: 'Partner Wallet API', version: document.info.version, schema: publicApi.postmanCollectionSchemaUrl });
    expect(collection.info._postman_id).toMatch(uuidPattern);
    expect(collection.info._postman_id).toBe(collection.info._postman_id.toLowerCase());
    expect(collection.variable.map((entry: JsonObject) => [entry.key, entry.value])).toEqual([
      ['baseUrl', defaultPostmanBaseUrl],
      ['clientId', ''],
      ['clientSecret', ''],
    ]);
    expect(collection.auth.type).toBe('oauth2');
    expect(Object.fromEntries((collection.auth.oauth2 as JsonObject[]).map((entry) => [entry.key, entry.value]))).toMatchObject({
      grant_type: 'client_credentials',
      accessTokenUrl: '{{baseUrl}}/partner/auth/token',
      clientId: '{{clientId}}',
      clientSecret: '{{clientSecret}}',
      client_authentication: 'header',
    });
  });

  test('when its requests are listed, then there is one per operation of the document, named by its summary, on {{baseUrl}}', () => {
    const requests = requestsOf(collection.item as JsonObject[]);

    expect(requests.map((request) => `${request.request.method} ${pathOf(request)}`).sort()).toEqual(operations.map(({ method, path: pathName }) => `${method} ${pathName}`).sort());
    for (const request of requests) {
      const { operation } = operations.find(({ method, path: pathName }) => method === request.request.method && pathName === pathOf(request))!;
      expect({ name: request.name, host: request.request.url.host }).toEqual({ name: operation.summary, host: ['{{baseUrl}}'] });
    }
    expect((collection.item as JsonObject[]).every((folder) => requestsOf([folder]).length > 0)).toBe(true);
    expect(requests.filter((request) => request.request.body !== undefined).map((request) => request.request.body.mode as string)).toEqual(expect.arrayContaining(['raw', 'urlencoded']));
    expect(requests.filter((request) => request.request.method === 'GET').every((request) => request.request.body === undefined)).toBe(true);
  });

  test('when a request needs no bearer token, then it says how it authenticates: Basic with the client credentials at the token endpoint, none for the contract', () => {
    const requests = requestsOf(collection.item as JsonObject[]);
    const authOf = (pathName: string) => requests.find((request) => pathOf(request) === pathName)!.request.auth;

    expect(authOf('/partner/auth/token')).toEqual({
      type: 'basic',
      basic: [
        { key: 'username', value: '{{clientId}}', type: 'string' },
        { key: 'password', value: '{{clientSecret}}', type: 'string' },
      ],
    });
    expect(authOf('/openapi.json')).toEqual({ type: 'noauth' });
    expect(authOf('/docs')).toEqual({ type: 'noauth' });
    expect(authOf('/partner/v1/balance')).toBeUndefined();
  });

  test('when ids are read, then each is unique', () => {
    const ids = text.match(/"(?:id|_postman_id)": "[^"]+"/g) ?? [];
    expect(ids.length).toBeGreaterThan(operations.length);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
