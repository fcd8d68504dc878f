import type { components, operations } from './generated/openapi.js';
import type { OperationId } from './operations.js';

/** The named schemas of docs/openapi.json, e.g. `Schemas['DisbursementTransfer']`. */
export type Schemas = components['schemas'];

/**
 * One field a validation refusal names (every PKC_2xxx answer about named fields carries a list of
 * them as `invalidFields`): the field as sent, its problem (missing, unknown, wrong_type,
 * wrong_format, not_allowed, out_of_range, too_long) and what is expected. On a PartnerApiError it
 * is `error.fields.invalidFields`.
 */
export type InvalidField = Schemas['InvalidField'];
export type InvalidFieldProblem = Schemas['InvalidFieldProblem'];

type Responses<Id extends OperationId> = operations[Id]['responses'];
type ResponseAt<Id extends OperationId, Status> = Status extends keyof Responses<Id> ? Responses<Id>[Status] : never;
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type TextOf<Response> = Response extends { content: { 'text/html': infer Body } } ? Body : never;
type Unwrap<Body> = Body extends { success: true; data: infer Data } ? Data : Body;

/** The success body of an operation (200 or 202), as JSON. */
export type SuccessBodyOf<Id extends OperationId> = JsonOf<ResponseAt<Id, 200>> | JsonOf<ResponseAt<Id, 202>>;

/** What a method resolves with: the envelope's `data`, the bare body (token, documents) or the text. */
export type AnswerOf<Id extends OperationId> = [SuccessBodyOf<Id>] extends [never] ? TextOf<ResponseAt<Id, 200>> : Unwrap<SuccessBodyOf<Id>>;

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 429 | 500 | 503 | 504;
/** Every error body an operation declares (code, message and its extra fields). */
export type ErrorBodyOf<Id extends OperationId> = { [Status in ErrorStatus]: JsonOf<ResponseAt<Id, Status>> }[ErrorStatus];

/** Every PKC code any operation of the document answers. */
export type PkcCode = Extract<{ [Id in OperationId]: ErrorBodyOf<Id> }[OperationId], { code: string }>['code'];

type Parameters<Id extends OperationId> = operations[Id]['parameters'];
/** Path parameters of an operation (`never` when it has none). */
export type PathOf<Id extends OperationId> = NonNullable<Parameters<Id>['path']>;
/** Query parameters of an operation. */
export type QueryOf<Id extends OperationId> = NonNullable<Parameters<Id>['query']>;
/** The JSON request body of an operation. */
export type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
