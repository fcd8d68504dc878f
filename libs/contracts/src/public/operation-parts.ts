import type { z } from 'zod';
import type { PkcCode } from '@pwa/errors';
import type { PartnerPermission } from '../partner-events';
import { confirmRequestSchema } from './collections';
import type { ErrorExtraFields } from './envelopes';
import { quoteRequestSchema } from './quotes';

/**
 * What every public operation is made of, and the error-code groups operations share. The
 * operations themselves live in one `<family>-operations.ts` module per family of routes, each a
 * list made with `operationFamily`, and operations.ts concatenates them into `publicOperations`.
 */

export type PublicTag = 'Authentication' | 'Accounts' | 'Quotes' | 'Collections' | 'Refunds' | 'Disbursements' | 'Webhook deliveries' | 'Sandbox' | 'Statements' | 'Events' | 'Contract';

/** Who may call: nobody needs a token for the contract; the token endpoint takes client credentials; every other route a bearer token. */
export type PublicAuthentication = 'none' | 'client-credentials' | 'bearer';

/** One more content type of a success answer, beside (or instead of) JSON. */
export interface OtherMediaType {
  schema: z.ZodType;
  /** What this form of the answer holds; added to the response's description. */
  description?: string;
  /** An example body, as the text sent. */
  example?: string;
}

/**
 * One operation of the public API. The gateway's route table is derived from these (method, path,
 * authentication, permission, sandbox marking, the bodies it takes and the answers it gives); the
 * gateway adds only where it forwards each operation (services/gateway/src/domain/operation-upstreams.ts).
 */
export interface PublicOperation<OperationId extends string = string> {
  /** Unique; the gateway names each operation's upstream by it, so the type checker refuses an operation nobody routes. */
  operationId: OperationId;
  method: 'GET' | 'POST';
  /** Below the base URL (/api/v1), with ":name" for a parameter, as the gateway's route table writes it. */
  pathTemplate: string;
  tag: PublicTag;
  summary: string;
  description: string;
  authentication: PublicAuthentication;
  permission: PartnerPermission | null;
  /** Served only in the sandbox (production answers 404 PKC_6002); `x-sandbox-only: true` in the document. */
  sandboxOnly: boolean;
  request?: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    body?: {
      schema: z.ZodType;
      required: boolean;
      /** The media types the body may come in: JSON, and also a form on the token endpoint (RFC 6749 §4.4). */
      mediaTypes: readonly string[];
      description: string;
      /**
       * The body may be up to largeRequestBodyLimit instead of the usual 16 kb: the bulk quote (1,000
       * items with the longest texts are over 1 MB). Not in the document; its description says so.
       */
      large?: true;
    };
  };
  success: {
    status: 200 | 202;
    description: string;
    /** The answer's `data`, or the whole body when `enveloped` is false (the token endpoint). */
    schema: z.ZodType;
    enveloped: boolean;
    /** Examples of the JSON answer (none when `json` is false). */
    examples: Readonly<Record<string, { summary: string; value: unknown }>>;
    /**
     * Whether the answer is also `application/json` (the default). False for an answer that is only
     * in `otherMediaTypes` (the HTML reference page); an enveloped answer is always JSON.
     */
    json?: boolean;
    /**
     * The same answer in other content types, by media type ('text/csv' for a statement, 'text/html'
     * for the reference page): each one more `content` entry of the success response, with its own
     * schema (usually a string), what it holds, and an example body as text.
     */
    otherMediaTypes?: Readonly<Record<string, OtherMediaType>>;
    /**
     * A second success status with the same JSON body (a refund: 200 completed, 202 still
     * processing): its own response in the document, with its description and examples.
     */
    alsoAnswered?: { status: 200 | 202; description: string; examples: Readonly<Record<string, { summary: string; value: unknown }>> };
  };
  /** Every PKC code the operation can answer; status and meaning come from the catalogue. */
  errorCodes: readonly PkcCode[];
  /** Fields some of its refusals carry beside success, code and message. */
  errorFields?: ErrorExtraFields;
  /** Example bodies for codes whose answers carry more than the catalogue message. */
  errorExamples?: Partial<Record<PkcCode, Record<string, unknown>>>;
}

// ---- Error codes, from the partner guide's tables --------------------------------------------------

/** Any route: unreadable target or body (2008), plain HTTP behind a proxy (6005), internal error, a service away. */
export const anyRoute: readonly PkcCode[] = ['PKC_2008', 'PKC_6005', 'PKC_7002', 'PKC_7003'];
/** The gateway's admission of a bearer route: the token, the partner's status, the rate limit. */
export const bearerAdmission: readonly PkcCode[] = ['PKC_1003', 'PKC_1004', 'PKC_1005', 'PKC_1006', 'PKC_1007', 'PKC_1009', 'PKC_7001'];
export const permissionAdmission: readonly PkcCode[] = [...bearerAdmission, 'PKC_1008'];
/** The user, wallet and limit checks of a quote, repeated by the confirm calls (PKC_4006 is not answered at present). */
export const userChecks: readonly PkcCode[] = ['PKC_3001', 'PKC_3002', 'PKC_3003', 'PKC_3004', 'PKC_3005'];
export const limitChecks: readonly PkcCode[] = ['PKC_4003', 'PKC_4004', 'PKC_4005', 'PKC_4007', 'PKC_4008', 'PKC_4009', 'PKC_4010', 'PKC_4011', 'PKC_4012'];
export const quoteBodyChecks: readonly PkcCode[] = ['PKC_2001', 'PKC_2002', 'PKC_2003', 'PKC_2004', 'PKC_2005', 'PKC_2010'];
export const confirmBodyChecks: readonly PkcCode[] = ['PKC_2006', 'PKC_2007', 'PKC_2009'];
export const quoteUse: readonly PkcCode[] = ['PKC_5001', 'PKC_5002', 'PKC_5003', 'PKC_5004', 'PKC_6001'];
export const ownTransactionRead: readonly PkcCode[] = ['PKC_6002', 'PKC_6005'];
export const simulation: readonly PkcCode[] = ['PKC_6002', 'PKC_6003', 'PKC_6004', 'PKC_6005'];

export function codes(...groups: (readonly PkcCode[])[]): PkcCode[] {
  return [...new Set(groups.flat())].sort();
}

export const json = ['application/json'] as const;

/** The largest body of an operation whose body is marked `large` (express's size text); every other body may be 16 kb. */
export const largeRequestBodyLimit = '2mb';

/**
 * One family's operations as written, their operationIds kept as literal types so that
 * `PublicOperationId` (operations.ts) names every operation of the API.
 */
export function operationFamily<OperationId extends string>(operations: readonly PublicOperation<OperationId>[]): readonly PublicOperation<OperationId>[] {
  return operations;
}

/**
 * How a partner reaches an operation served in production and the sandbox alike: with a bearer
 * token that holds the given permission (null: any active partner's token).
 */
export function partnerAccess(permission: PartnerPermission | null): Pick<PublicOperation, 'authentication' | 'permission' | 'sandboxOnly'> {
  return { authentication: 'bearer', permission, sandboxOnly: false };
}

export const example = (summary: string, value: unknown) => ({ summary, value });

// ---- Request bodies the collection and disbursement operations share -------------------------------

export const quoteBody = { schema: quoteRequestSchema, required: true, mediaTypes: json, description: 'The user, the amount and the currency.' };
export const confirmBody = { schema: confirmRequestSchema, required: true, mediaTypes: json, description: 'The quote to use and your reference.' };
