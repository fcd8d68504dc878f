/**
 * The public API's contract: the zod schemas of every route's request and answer, the operations
 * with the error codes each can answer, and the OpenAPI 3.1 document generated from them
 * (docs/openapi.json, served by the gateway at GET /api/v1/openapi.json).
 */
export * from './fields';
export * from './envelopes';
export * from './auth';
export * from './accounts';
export * from './pricing';
export * from './quotes';
export * from './collections';
export * from './disbursements';
export * from './refunds';
export * from './webhook-deliveries';
export * from './webhook-events';
export * from './pagination';
export * from './statement';
export * from './partner-event-log';
export * from './operations';
export * from './openapi';
export * from './bulk-payouts';
