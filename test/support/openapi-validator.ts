import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { generateOpenApiDocument } from '@pwa/contracts';

/**
 * Checks answers of the public API against the OpenAPI document (libs/contracts, generated from
 * the zod schemas): the status must be one the operation declares, and the body must validate
 * against that response's schema (envelope, fields, types, formats, patterns, closed objects,
 * at most 2 decimals where `x-decimal-places` says so). Requests to paths or methods the document
 * does not have, and answers that are not JSON, are not checked.
 */

export interface AnswerToValidate {
  method: string;
  /** The request path as sent, with the /api/v1 prefix and any query string. */
  path: string;
  status: number;
  contentType: string | undefined;
  /** The body text as received. */
  text: string;
}

/** A webhook delivery as the partner's receiver got it: headers (lower-case names, as node:http gives them) and the raw body. */
export interface WebhookToValidate {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
}

/** A webhook delivery the document does not allow: which webhook and what was found. */
export class OpenApiWebhookMismatch extends Error {
  constructor(
    readonly webhook: string,
    readonly problems: readonly string[],
  ) {
    super(`a ${webhook} webhook delivery does not match docs/openapi.json:\n  ${problems.join('\n  ')}`);
    this.name = 'OpenApiWebhookMismatch';
  }
}

export interface ValidatedAnswer {
  operationId: string;
  /** The response key the status matched ("200", "4XX", "default"). */
  responseKey: string;
}

/** An answer the document does not allow: which operation, which status and what ajv found. */
export class OpenApiAnswerMismatch extends Error {
  constructor(
    readonly operationId: string,
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly problems: readonly string[],
  ) {
    super(`${method} ${path} (${operationId}) answered ${status}, which docs/openapi.json does not allow:\n  ${problems.join('\n  ')}`);
    this.name = 'OpenApiAnswerMismatch';
  }
}

const basePath = '/api/v1';
const componentsId = 'https://partner-wallet-api/openapi/components';
/** The gateway's rule for a path parameter segment (services/gateway/src/domain/routes.ts): anything else is another path. */
const parameterSegment = /^[A-Za-z0-9_~+%-][A-Za-z0-9._~+%-]*$/;

type JsonObject = Record<string, unknown>;

interface DocumentOperation {
  operationId: string;
  method: string;
  segments: readonly string[];
  responses: Readonly<Record<string, JsonObject>>;
}

export class OpenApiAnswerValidator {
  private readonly ajv: Ajv2020;
  private readonly operations: DocumentOperation[];
  private readonly webhooks: Readonly<Record<string, DocumentWebhook>>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: JsonObject) {
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addKeyword({ keyword: 'example' });
    this.ajv.addKeyword({
      keyword: 'x-decimal-places',
      type: 'number',
      schemaType: 'number',
      error: { message: ({ schema }) => `must have at most ${String(schema)} decimal places` },
      validate: (places: number, value: number) => decimalPlacesOf(value) <= places,
    });
    const components = (document.components as JsonObject | undefined)?.schemas ?? {};
    this.ajv.addSchema({ $id: componentsId, $defs: withComponentRefs(components) });
    this.operations = operationsOf(document);
    this.webhooks = webhooksOf(document);
  }

  /**
   * Checks one webhook delivery as a partner's receiver gets it against the document's `webhooks`:
   * the event type must be one the document has, the body must validate against that webhook's
   * schema and every header the document declares must be there and valid. Throws
   * OpenApiWebhookMismatch; answers the webhook's name.
   */
  validateWebhook(delivery: WebhookToValidate): string {
    let body: unknown;
    try {
      body = JSON.parse(delivery.body);
    } catch {
      throw new OpenApiWebhookMismatch('(unreadable)', ['the body is not valid JSON']);
    }
    const eventType = typeof body === 'object' && body !== null ? (body as JsonObject).event : undefined;
    const webhook = typeof eventType === 'string' ? this.webhooks[eventType] : undefined;
    if (!webhook) throw new OpenApiWebhookMismatch(String(eventType), [`the event type is not one of the document's webhooks: ${Object.keys(this.webhooks).join(', ')}`]);
    const problems: string[] = [];
    const contentType = headerValue(delivery.headers, 'content-type');
    if (!isJson(contentType)) problems.push(`Content-Type ${String(contentType)} is not JSON`);
    for (const header of webhook.headers) {
      const value = headerValue(delivery.headers, header.name.toLowerCase());
      if (value === undefined) {
        if (header.required) problems.push(`header ${header.name} is missing`);
        continue;
      }
      const validateHeader = this.compileOnce(`webhook ${webhook.name} header ${header.name}`, header.schema);
      if (!validateHeader(value)) problems.push(...describe(validateHeader.errors ?? []).map((problem) => problem.replace(/^body/, `header ${header.name}`)));
    }
    const validateBody = this.compileOnce(`webhook ${webhook.name} body`, webhook.bodySchema);
    if (!validateBody(body)) problems.push(...describe(validateBody.errors ?? []));
    if (problems.length > 0) throw new OpenApiWebhookMismatch(webhook.name, problems);
    return webhook.name;
  }

  private compileOnce(cacheKey: string, schema: unknown): ValidateFunction {
    const cached = this.compiled.get(cacheKey);
    if (cached) return cached;
    const validate = this.ajv.compile(withComponentRefs(schema) as JsonObject);
    this.compiled.set(cacheKey, validate);
    return validate;
  }

  /** Undefined when the answer is not for an operation of the document or is not JSON; throws OpenApiAnswerMismatch when it does not validate. */
  validate(answer: AnswerToValidate): ValidatedAnswer | undefined {
    const operation = this.operationFor(answer.method, answer.path);
    if (!operation || !isJson(answer.contentType) || answer.text === '') return undefined;
    const fail = (problems: string[]): never => {
      throw new OpenApiAnswerMismatch(operation.operationId, answer.method.toUpperCase(), answer.path, answer.status, problems);
    };
    const responseKey = responseKeyFor(operation.responses, answer.status);
    if (responseKey === undefined) fail([`status ${answer.status} is not declared; declared: ${Object.keys(operation.responses).join(', ')}`]);
    const key = responseKey as string;
    const validateBody = this.validatorFor(operation, key);
    if (!validateBody) fail([`response ${key} declares no application/json schema`]);
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      fail(['the body is not valid JSON']);
    }
    if (!(validateBody as ValidateFunction)(body)) fail(describe((validateBody as ValidateFunction).errors ?? []));
    return { operationId: operation.operationId, responseKey: key };
  }

  /** The operation a request reaches, matched like the gateway: literal segments win over parameters. */
  operationFor(method: string, path: string): DocumentOperation | undefined {
    const rawPath = path.split('?')[0] ?? '';
    if (!rawPath.startsWith(`${basePath}/`)) return undefined;
    const segments = rawPath.slice(basePath.length).split('/').slice(1);
    let best: { operation: DocumentOperation; literals: number } | undefined;
    for (const operation of this.operations) {
      if (operation.method !== method.toLowerCase()) continue;
      const literals = literalMatchCount(operation.segments, segments);
      if (literals !== undefined && (best === undefined || literals > best.literals)) best = { operation, literals };
    }
    return best?.operation;
  }

  private validatorFor(operation: DocumentOperation, responseKey: string): ValidateFunction | undefined {
    const content = operation.responses[responseKey]?.content as JsonObject | undefined;
    const schema = (content?.['application/json'] as JsonObject | undefined)?.schema;
    if (schema === undefined) return undefined;
    return this.compileOnce(`${operation.operationId} ${responseKey}`, schema);
  }
}

let shared: OpenApiAnswerValidator | undefined;

/** The validator of the document generated from libs/contracts (built once per test file). */
export function openApiAnswerValidator(): OpenApiAnswerValidator {
  shared ??= new OpenApiAnswerValidator(generateOpenApiDocument());
  return shared;
}

interface DocumentWebhook {
  name: string;
  headers: readonly { name: string; required: boolean; schema: unknown }[];
  bodySchema: unknown;
}

function webhooksOf(document: JsonObject): Record<string, DocumentWebhook> {
  const webhooks: Record<string, DocumentWebhook> = {};
  for (const [name, item] of Object.entries((document.webhooks ?? {}) as Record<string, JsonObject>)) {
    const post = item.post as JsonObject | undefined;
    if (!post) continue;
    const parameters = (post.parameters ?? []) as JsonObject[];
    const content = ((post.requestBody as JsonObject | undefined)?.content ?? {}) as JsonObject;
    webhooks[name] = {
      name,
      headers: parameters.filter((parameter) => parameter.in === 'header').map((parameter) => ({ name: String(parameter.name), required: parameter.required === true, schema: parameter.schema })),
      bodySchema: (content['application/json'] as JsonObject | undefined)?.schema,
    };
  }
  return webhooks;
}

function headerValue(headers: WebhookToValidate['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function operationsOf(document: JsonObject): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, JsonObject>)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      operations.push({
        operationId: String(operation.operationId),
        method,
        segments: path.split('/').slice(1),
        responses: (operation.responses ?? {}) as Record<string, JsonObject>,
      });
    }
  }
  return operations;
}

function literalMatchCount(template: readonly string[], segments: readonly string[]): number | undefined {
  if (template.length !== segments.length) return undefined;
  let literals = 0;
  for (const [index, part] of template.entries()) {
    const segment = segments[index] ?? '';
    if (part.startsWith('{')) {
      if (!parameterSegment.test(segment)) return undefined;
    } else if (part === segment) {
      literals += 1;
    } else {
      return undefined;
    }
  }
  return literals;
}

/** The exact status, else its range ("4XX"), else "default". */
function responseKeyFor(responses: Readonly<Record<string, unknown>>, status: number): string | undefined {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in responses);
}

function isJson(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** "#/components/schemas/X" → the $defs of the components schema ajv knows, everywhere in a schema. */
function withComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withComponentRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')
        ? `${componentsId}#/$defs/${inner.slice('#/components/schemas/'.length)}`
        : withComponentRefs(inner),
    ]),
  );
}

/**
 * The decimals of a number as JSON wrote it. JSON.stringify writes the shortest text that reads
 * back as the same double, and String() gives that text, so 25.76 has 2 and an amount computed as
 * 0.1 + 0.2 (written 0.30000000000000004) has 17.
 */
export function decimalPlacesOf(value: number): number {
  const match = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/i.exec(String(value));
  if (!match) return Number.POSITIVE_INFINITY;
  return Math.max(0, (match[1]?.length ?? 0) - Number(match[2] ?? 0));
}

function describe(errors: readonly ErrorObject[]): string[] {
  return errors.map((error) => {
    const where = error.instancePath === '' ? 'body' : `body${error.instancePath.replace(/\//g, '.')}`;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
        : error.keyword === 'enum'
          ? ` (${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)})`
          : '';
    return `${where} ${error.message ?? error.keyword}${extra}`;
  });
}
