import type { operations } from './generated/openapi.js';

/**
 * Every operationId of the paths of docs/openapi.json (from the generated types). The webhooks'
 * operations (onCollectionCompleted, …) describe requests the API sends, not calls: left out.
 */
export type OperationId = Exclude<keyof operations, `on${string}`>;

/**
 * How an operation may be retried, by what a repeat could do:
 * - `safe`: it cannot move money (reads, the token call, quotes, webhook redeliveries); retried on
 *   429, 500, 502, 503, 504, network errors and timeouts.
 * - `money`: it can start or complete a money movement or end a transaction (a collection request, a
 *   sandbox decision, a cancel, a bulk transfer);
 *   retried only on 429 PKC_7001, which the gateway answers before the request reaches any service.
 * - `transfer`: a disbursement transfer or a refund; retried as `money`, with its own timeout (30 s). A 504
 *   PKC_7004 is not resent as is: the timed-out attempt spent its quote (services/disbursements
 *   consumes the quote first, "it stays used whatever happens next"), so the same body could only
 *   earn 400 PKC_5002. `disburse()` gets a new quote and sends the same externalId again instead.
 */
export type RetryClass = 'safe' | 'money' | 'transfer';

/** How the answer is read: the `data` of the success envelope, the bare JSON body, or text. */
export type AnswerForm = 'envelope' | 'bare' | 'text';

export interface OperationSpec {
  method: 'GET' | 'POST';
  /** The path under the base URL, with {name} for path parameters (as in docs/openapi.json). */
  path: string;
  /** `bearer`: the client's token is sent; `none`: nothing (the token call sends the credentials itself). */
  authentication: 'bearer' | 'none';
  retryClass: RetryClass;
  answer: AnswerForm;
}

/**
 * One row per operation of docs/openapi.json. `satisfies Record<OperationId, …>` makes a new
 * operation in the generated types a compile error until it has a row (and a method: see
 * test/unit/operations-coverage.test.ts).
 */
export const operationTable = {
  getAccessToken: { method: 'POST', path: '/partner/auth/token', authentication: 'none', retryClass: 'safe', answer: 'bare' },
  lookUpAccount: { method: 'GET', path: '/partner/v1/account/{phone}', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  getBalance: { method: 'GET', path: '/partner/v1/balance', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  getPricing: { method: 'GET', path: '/partner/v1/pricing', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  quoteCollection: { method: 'POST', path: '/partner/v1/collection/quote', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  requestCollection: { method: 'POST', path: '/partner/v1/collection/request', authentication: 'bearer', retryClass: 'money', answer: 'envelope' },
  getCollection: { method: 'GET', path: '/partner/v1/collection/{referenceId}', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  quoteDisbursement: { method: 'POST', path: '/partner/v1/disbursement/quote', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  transferDisbursement: { method: 'POST', path: '/partner/v1/disbursement/transfer', authentication: 'bearer', retryClass: 'transfer', answer: 'envelope' },
  getDisbursement: { method: 'GET', path: '/partner/v1/disbursement/{referenceId}', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  listWebhookDeliveries: { method: 'GET', path: '/partner/v1/webhooks/deliveries', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  redeliverWebhookDelivery: { method: 'POST', path: '/partner/v1/webhooks/deliveries/{deliveryId}/redeliver', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  redeliverFailedWebhookDeliveries: { method: 'POST', path: '/partner/v1/webhooks/redeliver', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  sendTestWebhook: { method: 'POST', path: '/partner/v1/webhooks/test', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  sandboxApproveCollection: { method: 'POST', path: '/partner/v1/sandbox/collection/{referenceId}/approve', authentication: 'bearer', retryClass: 'money', answer: 'envelope' },
  sandboxDeclineCollection: { method: 'POST', path: '/partner/v1/sandbox/collection/{referenceId}/decline', authentication: 'bearer', retryClass: 'money', answer: 'envelope' },
  sandboxExpireCollection: { method: 'POST', path: '/partner/v1/sandbox/collection/{referenceId}/expire', authentication: 'bearer', retryClass: 'money', answer: 'envelope' },
  getOpenApiDocument: { method: 'GET', path: '/openapi.json', authentication: 'none', retryClass: 'safe', answer: 'bare' },
  getApiReferencePage: { method: 'GET', path: '/docs', authentication: 'none', retryClass: 'safe', answer: 'text' },
  getPostmanCollection: { method: 'GET', path: '/postman.json', authentication: 'none', retryClass: 'safe', answer: 'bare' },
  listCollections: { method: 'GET', path: '/partner/v1/collections', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  listDisbursements: { method: 'GET', path: '/partner/v1/disbursements', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  getStatement: { method: 'GET', path: '/partner/v1/statement', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  listEvents: { method: 'GET', path: '/partner/v1/events', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  getEvent: { method: 'GET', path: '/partner/v1/events/{eventId}', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  cancelCollection: { method: 'POST', path: '/partner/v1/collection/{referenceId}/cancel', authentication: 'bearer', retryClass: 'money', answer: 'envelope' },
  refundCollection: { method: 'POST', path: '/partner/v1/collection/{referenceId}/refund', authentication: 'bearer', retryClass: 'transfer', answer: 'envelope' },
  getRefund: { method: 'GET', path: '/partner/v1/refund/{referenceId}', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  listRefunds: { method: 'GET', path: '/partner/v1/refunds', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  quoteBulkDisbursement: { method: 'POST', path: '/partner/v1/disbursement/bulk/quote', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  transferBulkDisbursement: { method: 'POST', path: '/partner/v1/disbursement/bulk/transfer', authentication: 'bearer', retryClass: 'money', answer: 'envelope' },
  getBulkDisbursement: { method: 'GET', path: '/partner/v1/disbursement/bulk/{bulkId}', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  listBulkDisbursementItems: { method: 'GET', path: '/partner/v1/disbursement/bulk/{bulkId}/items', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
  listBulkDisbursements: { method: 'GET', path: '/partner/v1/disbursement/bulks', authentication: 'bearer', retryClass: 'safe', answer: 'envelope' },
} as const satisfies Record<OperationId, OperationSpec>;
