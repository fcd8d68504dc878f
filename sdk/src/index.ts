export { PartnerApiClient, type BulkProgress, type CallOptions, type Clock, type DisburseOrder, type FetchAnswer, type FetchFunction, type FetchRequest, type ItemOf, type ListOperationId, type PartnerApiClientOptions, type WatchBulkOptions } from './client.js';
export { PartnerApiError, isPartnerApiError, type ErrorFields, type PartnerApiErrorDetails, type SdkErrorCode } from './errors.js';
export { operationTable, type AnswerForm, type OperationId, type OperationSpec, type RetryClass } from './operations.js';
export { paginate, type PageView, type PaginateOptions } from './pagination.js';
export { defaultRetryOptions, type RetryOptions } from './retry.js';
export type { AnswerOf, BodyOf, ErrorBodyOf, InvalidField, InvalidFieldProblem, PathOf, PkcCode, QueryOf, Schemas } from './types.js';
export { isWebhookVerificationError, verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookEvent, type WebhookEventType, type WebhookHeaders, type WebhookVerificationCode } from './webhooks.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
