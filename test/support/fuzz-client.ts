import https from 'node:https';
import { httpStatusOf, isPkcCode } from '@pwa/errors';
import { openApiAnswerValidator } from './openapi-validator';

/**
 * A partner's raw view of the gateway for the bad-input and fuzz suites: the path is sent exactly
 * as given (malformed percent-encoding included), the body as the given bytes (invalid UTF-8
 * included), with exactly the given headers; no JSON encoding, no normalisation.
 */
export interface RawRequest {
  method: string;
  /** Below /api/v1, as it goes on the wire: "/partner/v1/collection/PKC-1-%00?x=1". */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  body: any;
}

const requestTimeoutMs = 15_000;

export class RawHttpsClient {
  private readonly agent: https.Agent;

  constructor(private readonly options: { port: number; certificatePem: string }) {
    this.agent = new https.Agent({ ca: options.certificatePem, keepAlive: true, maxSockets: 8 });
  }

  /** Every JSON answer to an operation of the OpenAPI document is validated against it, as in HttpsJsonClient. */
  async send(request: RawRequest): Promise<RawResponse> {
    const response = await this.exchange(request);
    const contentType = response.headers['content-type'];
    openApiAnswerValidator().validate({
      method: request.method,
      path: `/api/v1${request.path}`,
      status: response.status,
      contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType,
      text: response.text,
    });
    return response;
  }

  private exchange(request: RawRequest): Promise<RawResponse> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(request.body.length);
    return new Promise((resolve, reject) => {
      const outgoing = https.request(
        { host: '127.0.0.1', port: this.options.port, method: request.method, path: `/api/v1${request.path}`, agent: this.agent, headers, timeout: requestTimeoutMs },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parseJson(text) });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no response within ${requestTimeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with an answer of the public API, or undefined when it is well formed: never a 5xx;
 * an error is the envelope `{success: false, code, message}` with a catalogue code answered with
 * that code's status (extra structured fields allowed beside them); a success is the envelope
 * `{success: true, data}`, or the bare token object on the token endpoint.
 */
export function answerProblemOf(response: RawResponse): string | undefined {
  if (response.status >= 500) return `answered ${response.status}`;
  const body = response.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `answered ${response.status} with a body that is not a JSON object`;
  if (response.status >= 200 && response.status < 300) {
    if (body.success === true && 'data' in body) return undefined;
    if (typeof body.access_token === 'string' && body.token_type === 'Bearer') return undefined;
    return `answered ${response.status} without the success envelope`;
  }
  if (body.success !== false) return `answered ${response.status} without success: false`;
  if (typeof body.code !== 'string' || !/^PKC_\d{4}$/.test(body.code) || !isPkcCode(body.code)) return `answered code ${String(body.code)}, not a catalogue code`;
  if (typeof body.message !== 'string' || body.message === '') return 'answered an error without a message';
  if (httpStatusOf(body.code) !== response.status) return `answered ${body.code} with status ${response.status} (the catalogue says ${httpStatusOf(body.code)})`;
  return undefined;
}

/** Sends every request, `concurrency` at a time, and answers each with its response (in the order they finished). */
export async function sendConcurrently<Case extends { request: RawRequest }>(client: RawHttpsClient, cases: readonly Case[], concurrency: number): Promise<{ fuzzCase: Case; response: RawResponse }[]> {
  const results: { fuzzCase: Case; response: RawResponse }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < cases.length; index = next++) {
      const fuzzCase = cases[index] as Case;
      results.push({ fuzzCase, response: await client.send(fuzzCase.request) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}
