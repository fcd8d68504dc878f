import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { openApiAnswerValidator } from './openapi-validator';

export interface JsonResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface RequestOptions {
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (malformed JSON, form bodies); set the content type in headers. */
  rawBody?: string;
  bearer?: string;
  headers?: Record<string, string>;
}

const requestTimeoutMs = 15_000;

export interface HttpsJsonClientOptions {
  port: number;
  certificatePem: string;
  /**
   * Every JSON answer to an operation of the OpenAPI document (docs/openapi.json, generated from
   * libs/contracts) is validated against it, and a mismatch throws OpenApiAnswerMismatch naming the
   * operation, the status and what does not fit. On by default; off only for a gateway in front of
   * stand-in upstreams, whose answers are not the API's.
   */
  validateAnswers?: boolean;
}

/** A partner's view of the gateway: HTTPS to 127.0.0.1, trusting only the stack's certificate. */
export class HttpsJsonClient {
  private readonly agent: https.Agent;

  constructor(private readonly options: HttpsJsonClientOptions) {
    this.agent = new https.Agent({ ca: options.certificatePem, keepAlive: true, maxSockets: 16 });
  }

  /** `path` is relative to the base URL (/api/v1), e.g. "/partner/v1/balance". */
  request(method: string, path: string, options: RequestOptions = {}): Promise<JsonResponse> {
    return this.requestAbsolute(method, `/api/v1${path}`, options);
  }

  /** A path not under the base URL, e.g. "/healthz" on the public port. */
  async requestAbsolute(method: string, absolutePath: string, options: RequestOptions = {}): Promise<JsonResponse> {
    const { body, headers } = encodeBody(options);
    const response = await exchange(https, {
      host: '127.0.0.1',
      port: this.options.port,
      method,
      path: absolutePath,
      agent: this.agent,
      headers: { accept: 'application/json', ...headers, ...(options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` }), ...options.headers },
    }, body);
    if (this.options.validateAnswers !== false) {
      openApiAnswerValidator().validate({ method, path: absolutePath, status: response.status, contentType: headerText(response.headers['content-type']), text: response.text });
    }
    return response;
  }

  get(path: string, options: RequestOptions = {}): Promise<JsonResponse> {
    return this.request('GET', path, options);
  }

  post(path: string, json: unknown, options: RequestOptions = {}): Promise<JsonResponse> {
    return this.request('POST', path, { ...options, json });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A plain-HTTP request to a port (the gateway's public port must refuse it). */
export function requestOverPlainHttp(port: number, method: string, path: string, options: RequestOptions = {}): Promise<JsonResponse> {
  const { body, headers } = encodeBody(options);
  return exchange(http, { host: '127.0.0.1', port, method, path, agent: false, headers: { ...headers, ...options.headers } }, body);
}

function encodeBody(options: RequestOptions): { body: string | undefined; headers: Record<string, string> } {
  if (options.json !== undefined) return { body: JSON.stringify(options.json), headers: { 'content-type': 'application/json' } };
  if (options.rawBody !== undefined) return { body: options.rawBody, headers: {} };
  return { body: undefined, headers: {} };
}

function exchange(transport: typeof http | typeof https, requestOptions: https.RequestOptions, body: string | undefined): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const request = transport.request({ ...requestOptions, timeout: requestTimeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parseJson(text) });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`no response within ${requestTimeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ConsoleClientOptions {
  port: number;
  certificatePem: string;
  /** The back-office's public origin (https://localhost:<port>): sent as Origin and Host, as a browser on that page would. */
  publicUrl: string;
}

/**
 * A person's browser against the back-office's console API, over HTTPS: it connects to 127.0.0.1
 * and names the public host (SNI, Host, Origin), keeps the session cookie the console sets and the
 * CSRF token its answers carry, and sends both on every later call, as the console's page does.
 */
export class ConsoleHttpsClient {
  private readonly agent: https.Agent;
  private readonly origin: URL;
  /** name=value of the session cookie, once set. */
  cookie: string | undefined;
  /** The CSRF token of the session, from the last answer that carried one. */
  csrfToken: string | undefined;

  constructor(private readonly options: ConsoleClientOptions) {
    this.origin = new URL(options.publicUrl);
    this.agent = new https.Agent({ ca: options.certificatePem, keepAlive: true, maxSockets: 4, servername: this.origin.hostname });
  }

  async request(method: string, absolutePath: string, options: { json?: unknown; headers?: Record<string, string> } = {}): Promise<JsonResponse> {
    const { body, headers } = encodeBody(options);
    const response = await exchange(
      https,
      {
        host: '127.0.0.1',
        port: this.options.port,
        servername: this.origin.hostname,
        method,
        path: absolutePath,
        agent: this.agent,
        headers: {
          accept: 'application/json',
          host: this.origin.host,
          origin: this.origin.origin,
          ...headers,
          ...(this.cookie === undefined ? {} : { cookie: this.cookie }),
          ...(this.csrfToken === undefined || method === 'GET' || method === 'HEAD' ? {} : { 'x-csrf-token': this.csrfToken }),
          ...options.headers,
        },
      },
      body,
    );
    const setCookie = response.headers['set-cookie']?.[0];
    if (setCookie !== undefined) this.cookie = setCookie.split(';')[0];
    const csrf: unknown = response.body?.data?.csrfToken;
    if (typeof csrf === 'string') this.csrfToken = csrf;
    return response;
  }

  get(absolutePath: string): Promise<JsonResponse> {
    return this.request('GET', absolutePath);
  }

  post(absolutePath: string, json: unknown): Promise<JsonResponse> {
    return this.request('POST', absolutePath, { json });
  }

  close(): void {
    this.agent.destroy();
  }
}
