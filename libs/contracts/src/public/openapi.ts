import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { allPkcCodes, errorCatalogue, httpStatusOf, type PkcCode } from '@pwa/errors';
import { collectionStatusExample } from './collections';
import { disbursementStatusExample } from './disbursements';
import { errorEnvelopeSchema, errorExample, successEnvelopeSchema } from './envelopes';
import { publicOperations, type PublicOperation, type PublicOperationId, type PublicTag } from './operations';
import { collectionQuoteExample, disbursementQuoteExample } from './quotes';
import { webhookEventTypes, type WebhookEventType } from './webhook-deliveries';
import { webhookHeadersSchema, webhookNameOf, webhookPayloadExamples, webhookPayloadSchemas } from './webhook-events';

/** The document's version: the API's (v1), and its revision. */
export const openApiDocumentVersion = '1.0.0';

/** Where the gateway serves the document, and the reference page and the Postman collection it serves beside the document, from it. */
export { apiReferencePagePath, openApiDocumentPath, postmanCollectionPath, postmanCollectionSchemaUrl } from './contract-document-operations';

/** "/partner/v1/collection/:referenceId" (the gateway's route table) → "/partner/v1/collection/{referenceId}" (OpenAPI). */
export function openApiPathOf(pathTemplate: string): string {
  return pathTemplate.replace(/:([A-Za-z]+)/g, '{$1}');
}

const tagDescriptions: Readonly<Record<PublicTag, string>> = {
  Authentication: 'OAuth 2.0 client credentials: exchange your client ID and secret for a bearer token.',
  Accounts: 'Wallet users and your own balance.',
  Quotes: 'The first step of a collection or a disbursement: every check runs, nothing moves.',
  Collections: 'Ask a wallet user to pay; they approve or decline in the app within 10 minutes.',
  Refunds: 'Give money back on a completed collection, in whole or in part; a refund has no fee.',
  Disbursements: 'Send money to a wallet user; their wallet is credited at once.',
  'Webhook deliveries': 'Your webhook delivery log and redelivery (additions to the spec).',
  Sandbox: 'Sandbox-only simulation of the user’s answer to a collection (`x-sandbox-only: true`; production answers 404 PKC_6002).',
  Statements: 'Your account’s movements from the ledger, with opening and closing balances, as JSON or CSV.',
  Events: 'Every event sent, or to be sent, to your webhook in the last 30 days, whether or not delivery succeeded.',
  Contract: 'This machine-readable contract, its reference page and a Postman collection.',
};

const webhookDescriptions: Readonly<Record<WebhookEventType, string>> = {
  'collection.completed': 'The user approved and the money moved.',
  'collection.declined': 'The user declined; no money moved.',
  'collection.expired': '10 minutes passed without an answer; no money moved.',
  'collection.failed': 'The user approved but the payment could not be made; no money moved (addition to the spec).',
  'collection.cancelled': 'You cancelled the pending collection; no money moved (addition to the spec).',
  'disbursement.completed': 'The money reached the user.',
  'disbursement.failed': 'A transfer attempt ended without moving money; its externalId is free again (addition to the spec).',
  'disbursement.reversed':
    'The operator reversed a completed disbursement: the amount went back from the user’s wallet to your balance (the fee is not returned). status stays completed; reversal says by which transaction, how much and when. Sent at most once per disbursement (addition to the spec).',
  'refund.completed': 'The refund moved the money back to the user; collectionReferenceId names the refunded collection (addition to the spec).',
  'refund.failed': 'A refund that was processing ended without moving money; its amount can be refunded again and its externalId is free (addition to the spec).',
  'bulk.completed': 'The last item of a bulk payout became final: status completed (every item paid) or completed_with_failures, with the counts and totals. Each item also has its own disbursement.completed or disbursement.failed (addition to the spec).',
  'webhook.test': 'Sent only when you ask for it (POST /webhooks/test or the dashboard’s button) to check your receiver: signed and retried like any other, it names no transaction and moves no money (addition to the spec).',
};

const signatureScheme = [
  'Each delivery is a POST of the compact JSON body to your registered URL, signed twice with your webhook secret (`whsec_` + base64, shown once):',
  '',
  '- `X-Service-Signature` (the specification’s): `sha256=` + lowercase hex HMAC-SHA256 of the **raw body**, keyed with the whole secret string (`whsec_` included) as UTF-8 bytes. During a secret rotation it is made with the new secret only.',
  '- `webhook-signature` ([Standard Webhooks](https://www.standardwebhooks.com/), recommended): `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`; during a rotation one `v1,…` per valid secret, separated by spaces. Reject a `webhook-timestamp` more than 5 minutes from your clock.',
  '',
  'Verify before parsing, over the bytes received, with a constant-time comparison. Answer any 2xx within 10 seconds; anything else is retried 3 times (about 10 s, 1 min and 5 min later). Delivery is at least once: deduplicate on `webhook-id`.',
].join('\n');

/**
 * The hosts the document's `servers` show for the two environments. They are placeholders under
 * the reserved .example domain: each operator gives its partners the real ones, with the credentials.
 */
const sandboxHostPlaceholder = 'api.sandbox.partner-wallet.example';
const productionHostPlaceholder = 'api.production.partner-wallet.example';

function documentDescription(): string {
  const catalogueRows = allPkcCodes.map((code) => `| ${code} | ${httpStatusOf(code)} | ${errorCatalogue[code].message} |`);
  return [
    'The Partner Wallet API: approved partner platforms collect payments from mobile-wallet users and send money to them, in LRD and USD, over HTTPS with OAuth 2.0 client credentials.',
    '',
    'This document describes every operation, its fields, answers and error codes, and the webhooks; the partner guide your operator gives you explains the behaviour behind them, with examples.',
    '',
    '**Environments and base URLs.** There are two environments, each with its own base URL and its own credentials (credentials and tokens of one are refused by the other):',
    '',
    '- **Sandbox**: the same API with test users, simulated approvals (the `Sandbox` operations) and no real money, for building and testing your integration.',
    '- **Production**: real users and real money.',
    '',
    'Your operator gives you each environment’s base URL with its credentials, for example `https://' + sandboxHostPlaceholder + '/api/v1`. Every base URL ends in `/api/v1`, and every path below is relative to it: the token endpoint is `{base_url}/partner/auth/token`, a quote `{base_url}/partner/v1/collection/quote`. Only HTTPS is accepted. Each environment serves this document at `{base_url}/openapi.json` and this page at `{base_url}/docs`: the first of `servers` is the environment you are reading it on.',
    '',
    '**Envelopes.** A success is `{"success": true, "data": {…}}` (the token endpoint answers the bare token object); an error is `{"success": false, "code": "PKC_…", "message": "…"}`, sometimes with the fields named in the operation. Act on `code`; `message` is for people and may change.',
    '',
    '**Amounts** are JSON numbers in major units with at most 2 decimal places (`x-decimal-places: 2`), never strings; more decimals are refused (PKC_2002), never rounded. **Phones** are Liberian mobile numbers, `0…` or `+231…` on input, always `+231…` in answers. **Times** are ISO 8601 in UTC.',
    '',
    '**Errors.** Each operation lists the codes it can answer (`x-error-codes`, and per response by HTTP status). The status of a code never changes. The catalogue (also as `x-error-catalogue`):',
    '',
    '| Code | HTTP | Meaning |',
    '|---|---|---|',
    ...catalogueRows,
    '',
    '**Rate limits.** 60 requests per minute per partner by default, across every endpoint but the token endpoint; answers carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`, and a 429 `Retry-After`.',
    '',
    '**Webhooks** (the `webhooks` section). ' + signatureScheme,
  ].join('\n');
}

function registerComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'partnerOAuth', {
    type: 'oauth2',
    description: 'OAuth 2.0 client credentials: get a token at the token endpoint, then send `Authorization: Bearer <access_token>` on every other call. Tokens live 3600 seconds.',
    flows: { clientCredentials: { tokenUrl: '/api/v1/partner/auth/token', scopes: {} } },
  });
  registry.registerComponent('securitySchemes', 'bearerToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of the token endpoint (an ES256-signed JWT; treat it as opaque).',
  });
  registry.registerComponent('securitySchemes', 'clientSecretBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'client_secret_basic: base64 of the form-encoded client ID, ":" and the form-encoded client secret (RFC 6749 §2.3.1).',
  });
  // One shared example body per code that some operation answers with its catalogue message.
  const sharedExampleCodes = new Set(publicOperations.flatMap((operation) => operation.errorCodes.filter((code) => operation.errorExamples?.[code] === undefined)));
  for (const code of allPkcCodes.filter((candidate) => sharedExampleCodes.has(candidate))) {
    registry.registerComponent('examples', code, { summary: errorCatalogue[code].message, value: errorExample(code) });
  }
  // Each header with an example, so that tools filling in answers (the Postman collection's) need not make one up.
  registry.registerComponent('headers', 'X-Request-Id', { description: 'The request’s id: quote it when you contact the operator.', schema: { type: 'string' }, example: '3f0c1d2e-8a51-4c0e-9d43-0b5c2f7e3f3f' });
  registry.registerComponent('headers', 'RateLimit-Limit', { description: 'Requests allowed per 60-second window.', schema: { type: 'integer' }, example: 60 });
  registry.registerComponent('headers', 'RateLimit-Remaining', { description: 'Requests left in the current window.', schema: { type: 'integer' }, example: 59 });
  registry.registerComponent('headers', 'RateLimit-Reset', { description: 'Seconds until the oldest counted request leaves the window.', schema: { type: 'integer' }, example: 60 });
  registry.registerComponent('headers', 'Retry-After', { description: 'Seconds to wait before retrying.', schema: { type: 'integer' }, example: 12 });
  registry.registerComponent('headers', 'Cache-Control', { description: 'no-store: never cache a token.', schema: { type: 'string', enum: ['no-store'] }, example: 'no-store' });
  registry.registerComponent('headers', 'WWW-Authenticate', {
    description: 'The challenge of every 401: `Basic realm="partner-wallet-api"` on the token endpoint, `Bearer realm="partner-wallet-api"` (with an RFC 6750 error where one applies) elsewhere.',
    schema: { type: 'string' },
    example: 'Bearer realm="partner-wallet-api", error="invalid_token"',
  });
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function securityOf(operation: PublicOperation): RouteConfig['security'] {
  switch (operation.authentication) {
    case 'none':
      return [];
    case 'client-credentials':
      return [{ clientSecretBasic: [] }, {}];
    case 'bearer':
      return [{ partnerOAuth: [] }, { bearerToken: [] }];
  }
}

function headersOf(operation: PublicOperation, status: number): Record<string, { $ref: string }> {
  const headers: Record<string, { $ref: string }> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (operation.authentication === 'bearer' && status !== 401 && status !== 403) {
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) headers[name] = headerRef(name);
  }
  if (status === 429) headers['Retry-After'] = headerRef('Retry-After');
  if (status === 401) headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
  return headers;
}

/** One response per HTTP status of the operation's codes, each code described from the catalogue, with an example per code. */
function errorResponsesOf(operation: PublicOperation): Record<string, ResponseConfig> {
  const byStatus = new Map<number, PkcCode[]>();
  for (const code of operation.errorCodes) byStatus.set(httpStatusOf(code), [...(byStatus.get(httpStatusOf(code)) ?? []), code]);
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, codes] of [...byStatus.entries()].sort(([left], [right]) => left - right)) {
    responses[String(status)] = {
      description: codes.map((code) => `${code}: ${errorCatalogue[code].message}`).join('; '),
      headers: headersOf(operation, status),
      content: {
        'application/json': {
          schema: errorEnvelopeSchema(codes, operation.errorFields),
          examples: Object.fromEntries(
            codes.map((code) => {
              const special = operation.errorExamples?.[code];
              return [code, special === undefined ? { $ref: `#/components/examples/${code}` } : { summary: errorCatalogue[code].message, value: special }];
            }),
          ),
        },
      },
    };
  }
  return responses;
}

/**
 * The content of the success response: JSON (enveloped or bare) unless the operation says it is
 * not JSON at all, then one entry per other media type; each of those described in the response.
 */
function successResponseOf(operation: PublicOperation): ResponseConfig {
  const { success } = operation;
  const others = Object.entries(success.otherMediaTypes ?? {});
  const json = success.json ?? true;
  if (!json && (success.enveloped || others.length === 0 || Object.keys(success.examples).length > 0)) {
    throw new Error(`${operation.operationId}: an answer that is not JSON is not enveloped, has no JSON examples and names at least one other media type`);
  }
  const jsonContent = {
    'application/json': {
      schema: success.enveloped ? successEnvelopeSchema(success.schema) : success.schema,
      ...(Object.keys(success.examples).length === 0
        ? {}
        : { examples: Object.fromEntries(Object.entries(success.examples).map(([name, { summary, value }]) => [name, { summary, value: success.enveloped ? { success: true, data: value } : value }])) }),
    },
  };
  const otherContent = Object.fromEntries(others.map(([mediaType, { schema, example }]) => [mediaType, { schema, ...(example === undefined ? {} : { example }) }]));
  const described = others.filter(([, { description }]) => description !== undefined).map(([mediaType, { description }]) => `\`${mediaType}\`: ${description ?? ''}`);
  return {
    description: [success.description, ...described].join('\n\n'),
    headers: operation.authentication === 'client-credentials' ? { ...headersOf(operation, success.status), 'Cache-Control': { $ref: '#/components/headers/Cache-Control' } } : headersOf(operation, success.status),
    content: { ...(json ? jsonContent : {}), ...otherContent },
  };
}

/** The second success status of an operation that has one: the same JSON body, its own description and examples. */
function alsoAnsweredResponseOf(operation: PublicOperation): Record<string, ResponseConfig> {
  const also = operation.success.alsoAnswered;
  if (also === undefined) return {};
  if (also.status === operation.success.status || (operation.success.json ?? true) === false) throw new Error(`${operation.operationId}: alsoAnswered is another status of a JSON answer`);
  const schema = operation.success.enveloped ? successEnvelopeSchema(operation.success.schema) : operation.success.schema;
  const examples = Object.fromEntries(Object.entries(also.examples).map(([name, { summary, value }]) => [name, { summary, value: operation.success.enveloped ? { success: true, data: value } : value }]));
  return {
    [String(also.status)]: {
      description: also.description,
      headers: headersOf(operation, also.status),
      content: { 'application/json': { schema, ...(Object.keys(examples).length === 0 ? {} : { examples }) } },
    },
  };
}

/**
 * Request body examples of operations that share their body's schema with another: the confirm
 * body's own example is a collection's (its quote, order-1001), so the transfer shows a payout's
 * (the disbursement quote's quoteId, payout-2002), as the partner guide does.
 */
const requestBodyExamples: Partial<Record<PublicOperationId, { summary: string; value: Record<string, unknown> }>> = {
  requestCollection: { summary: 'Confirm the collection quote', value: { quoteId: collectionQuoteExample.quoteId, externalId: collectionStatusExample.externalId, note: 'Invoice 1001' } },
  transferDisbursement: { summary: 'Confirm the disbursement quote', value: { quoteId: disbursementQuoteExample.quoteId, externalId: disbursementStatusExample.externalId, note: 'June payout' } },
};

/** The operation's own request example for a media type, as the `examples` of its body's content (none for most). */
function bodyExamplesOf(operation: PublicOperation, mediaType: string): { examples?: Record<string, { summary: string; value: Record<string, unknown> }> } {
  const example = requestBodyExamples[operation.operationId as PublicOperationId];
  return example === undefined || mediaType !== 'application/json' ? {} : { examples: { [operation.operationId]: example } };
}

function routeOf(operation: PublicOperation): RouteConfig {
  const { success, request } = operation;
  const successResponse = successResponseOf(operation);
  const body = request?.body;
  return {
    method: operation.method === 'GET' ? 'get' : 'post',
    path: openApiPathOf(operation.pathTemplate),
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.permission === null ? operation.description : `${operation.description}\n\nNeeds the \`${operation.permission}\` permission (403 PKC_1008 otherwise).`,
    security: securityOf(operation),
    'x-error-codes': [...operation.errorCodes],
    ...(operation.permission === null ? {} : { 'x-permission': operation.permission }),
    ...(operation.sandboxOnly ? { 'x-sandbox-only': true } : {}),
    request: {
      ...(request?.params ? { params: request.params } : {}),
      ...(request?.query ? { query: request.query } : {}),
      ...(body
        ? { body: { description: body.description, required: body.required, content: Object.fromEntries(body.mediaTypes.map((mediaType) => [mediaType, { schema: body.schema, ...bodyExamplesOf(operation, mediaType) }])) } }
        : {}),
    },
    responses: { [String(success.status)]: successResponse, ...alsoAnsweredResponseOf(operation), ...errorResponsesOf(operation) },
  };
}

function webhookOf(event: WebhookEventType): RouteConfig {
  const name = webhookNameOf(event);
  return {
    method: 'post',
    path: event,
    operationId: `on${name}`,
    tags: ['Webhooks'],
    summary: `${event} event`,
    description: `${webhookDescriptions[event]}\n\n${signatureScheme}`,
    security: [],
    request: {
      headers: webhookHeadersSchema,
      body: {
        description: 'The event, as compact JSON. Verify a signature over these raw bytes first.',
        required: true,
        content: {
          'application/json': {
            schema: webhookPayloadSchemas[event],
            examples: { [event]: { summary: webhookDescriptions[event], value: webhookPayloadExamples[event] } },
          },
        },
      },
    },
    responses: {
      '200': { description: 'Received. Any 2xx within 10 seconds acknowledges the delivery; the body of the answer is ignored.' },
      '4XX': { description: 'A failed attempt (also any 3xx, 5xx, no answer within 10 seconds, a connection or TLS error): retried 3 times, then the delivery is failed.' },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the public API, from the schemas of this folder: every operation of
 * `publicOperations` with its errors from the catalogue, the security schemes, and the webhooks.
 */
export function generateOpenApiDocument(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registerComponents(registry);
  for (const operation of publicOperations) registry.registerPath(routeOf(operation));
  for (const event of webhookEventTypes) registry.registerWebhook(webhookOf(event));
  const document = new OpenApiGeneratorV31(registry.definitions, { sortComponents: 'alphabetically' }).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Partner Wallet API',
      version: openApiDocumentVersion,
      description: documentDescription(),
      contact: { name: 'The operator of your environment' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      { url: '/api/v1', description: 'The environment serving this document (the sandbox or production): its base URL.' },
      {
        url: 'https://{sandboxHost}/api/v1',
        description: 'Sandbox: test users, simulated approvals, no real money; your sandbox credentials.',
        variables: { sandboxHost: { default: sandboxHostPlaceholder, description: 'The sandbox host your operator gave you with your sandbox credentials (this default is a placeholder).' } },
      },
      {
        url: 'https://{productionHost}/api/v1',
        description: 'Production: real money; your production credentials.',
        variables: { productionHost: { default: productionHostPlaceholder, description: 'The production host your operator gave you with your production credentials (this default is a placeholder).' } },
      },
    ],
    tags: [...Object.entries(tagDescriptions).filter(([name]) => publicOperations.some((operation) => operation.tag === name)).map(([name, description]) => ({ name, description })), { name: 'Webhooks', description: 'Events the API sends to your webhook URL.' }],
    'x-error-catalogue': Object.fromEntries(allPkcCodes.map((code) => [code, { httpStatus: httpStatusOf(code), meaning: errorCatalogue[code].message }])),
  });
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}

/** The document as committed in docs/openapi.json and served by the gateway: 2-space JSON and a final newline. */
export function openApiDocumentText(): string {
  return `${JSON.stringify(generateOpenApiDocument(), null, 2)}\n`;
}
