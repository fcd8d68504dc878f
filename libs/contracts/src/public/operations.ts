import { z } from 'zod';
import { accessTokenExample, accessTokenSchema, oauthErrorField, tokenRequestSchema } from './auth';
import { accountExample, accountLookupParamsSchema, accountSchema, partnerBalanceExample, partnerBalanceSchema } from './accounts';
import {
  collectionAcceptedExample,
  collectionAcceptedSchema,
  collectionReferenceIdParamsSchema,
  collectionStatusExample,
  collectionStatusSchema,
  confirmRequestSchema,
  failedCollectionStatusExample,
  type PublicCollectionStatus,
} from './collections';
import {
  disbursementReferenceIdParamsSchema,
  disbursementStatuses,
  disbursementStatusExample,
  disbursementStatusSchema,
  disbursementTransferExample,
  disbursementTransferSchema,
  failedDisbursementStatusExample,
} from './disbursements';
import { errorExample, type ErrorExtraFields } from './envelopes';
import {
  anyRoute,
  bearerAdmission,
  codes,
  confirmBodyChecks,
  example,
  json,
  limitChecks,
  ownTransactionRead,
  permissionAdmission,
  quoteBodyChecks,
  quoteUse,
  simulation,
  userChecks,
  type PublicOperation,
} from './operation-parts';
import { contractDocumentOperations } from './contract-documents';
import { statementAndEventOperations } from './statement-and-events';
import { transactionListOperations } from './transaction-lists';
import { refundOperations } from './refund-operations';
import { bulkOperations } from './bulk-operations';
import { collectionReferenceIdField, disbursementReferenceIdField } from './fields';
import { collectionQuoteExample, collectionQuoteSchema, disbursementQuoteExample, disbursementQuoteSchema, quoteRequestSchema } from './quotes';
import {
  deliveryPageExample,
  redeliveredDeliveryExample,
  redeliveryBatchExample,
  redeliveryBatchSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryPageSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookRedeliverRequestSchema,
} from './webhook-deliveries';

// ---- Shared request pieces ----------------------------------------------------------------------

const quoteBody = { schema: quoteRequestSchema, required: true, mediaTypes: json, description: 'The user, the amount and the currency.' };
const confirmBody = { schema: confirmRequestSchema, required: true, mediaTypes: json, description: 'The quote to use and your reference.' };

const collectionRefusalFields: ErrorExtraFields = {
  referenceId: collectionReferenceIdField.meta({ description: 'On 409 PKC_6001: the collection that holds the externalId.' }),
  status: z.enum(['pending_approval', 'completed']).meta({ description: 'On 409 PKC_6001: that collection’s status.' }),
};

const disbursementRefusalFields: ErrorExtraFields = {
  referenceId: disbursementReferenceIdField.meta({ description: 'The disbursement the refusal recorded (a failed attempt, an outcome not known yet) or, on 409 PKC_6001, the one that holds the externalId.' }),
  status: z.enum(disbursementStatuses).meta({ description: 'That disbursement’s status, as the status endpoint shows it.' }),
};

/** A collection that ended without moving money: no transactionId. */
function unresolvedCollection(status: 'declined' | 'expired'): PublicCollectionStatus {
  const example: PublicCollectionStatus = { ...collectionStatusExample, status };
  delete example.transactionId;
  return example;
}

const sandboxAction = (action: 'approve' | 'decline' | 'expire', summary: string, description: string): PublicOperation => ({
  operationId: `sandbox${action[0]?.toUpperCase()}${action.slice(1)}Collection`,
  method: 'POST',
  pathTemplate: `/partner/v1/sandbox/collection/:referenceId/${action}`,
  tag: 'Sandbox',
  summary,
  description: `${description} Sandbox only: in production the path does not exist (404 PKC_6002, before the token is checked). No body is needed. Works on your own pending collections only; the events are the real ones.`,
  authentication: 'bearer',
  permission: 'collection',
  sandboxOnly: true,
  request: { params: collectionReferenceIdParamsSchema },
  success: {
    status: 200,
    description: 'The collection’s status view after the action.',
    schema: collectionStatusSchema,
    enveloped: true,
    examples: { [action]: example('The collection after the action', action === 'approve' ? collectionStatusExample : unresolvedCollection(action === 'decline' ? 'declined' : 'expired')) },
  },
  errorCodes: codes(anyRoute, permissionAdmission, simulation),
});

/**
 * Every operation of the public API: the gateway's route table (services/gateway/src/domain/routes.ts,
 * checked by libs/contracts/test/unit/openapi-document.test.ts) plus GET /openapi.json, which the
 * gateway serves itself.
 */
export const publicOperations: readonly PublicOperation[] = [
  {
    operationId: 'getAccessToken',
    method: 'POST',
    pathTemplate: '/partner/auth/token',
    tag: 'Authentication',
    summary: 'Get an access token',
    description:
      'OAuth 2.0 client credentials. Send your client ID and secret with HTTP Basic (client_secret_basic), a form body (client_secret_post) or a JSON body. The answer is the bare token object (no envelope), with Cache-Control: no-store. Refusals add the OAuth 2.0 `error` field and every 401 carries `WWW-Authenticate: Basic realm="partner-wallet-api"`. Each source address may call it 30 times a minute; after 10 wrong secrets for one client ID within 15 minutes that client ID is locked for the rest of the 15 minutes (429 PKC_7001 with Retry-After).',
    authentication: 'client-credentials',
    permission: null,
    sandboxOnly: false,
    request: {
      body: {
        schema: tokenRequestSchema,
        required: false,
        mediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
        description: 'Client credentials in the body (leave it out with HTTP Basic).',
      },
    },
    success: { status: 200, description: 'A token, valid 3600 seconds.', schema: accessTokenSchema, enveloped: false, examples: { token: example('A token', accessTokenExample) } },
    errorCodes: codes(anyRoute, ['PKC_1001', 'PKC_1002', 'PKC_1006', 'PKC_1007', 'PKC_1009', 'PKC_7001']),
    errorFields: { error: oauthErrorField },
    errorExamples: {
      PKC_1001: { ...errorExample('PKC_1001', { error: 'invalid_request' }), message: 'client_id is required' },
      PKC_1002: errorExample('PKC_1002', { error: 'invalid_client' }),
      PKC_1006: errorExample('PKC_1006', { error: 'unauthorized_client' }),
      PKC_1007: errorExample('PKC_1007', { error: 'unauthorized_client' }),
      PKC_1009: errorExample('PKC_1009', { error: 'unauthorized_client' }),
      PKC_7001: { ...errorExample('PKC_7001', { error: 'temporarily_unavailable' }), message: 'Too many token requests from this address; wait and retry' },
      PKC_7003: errorExample('PKC_7003', { error: 'temporarily_unavailable' }),
    },
  },
  {
    operationId: 'lookUpAccount',
    method: 'GET',
    pathTemplate: '/partner/v1/account/:phone',
    tag: 'Accounts',
    summary: 'Look up a wallet user',
    description:
      'Checks, before a transaction, that the user exists, is active and can transact in your currency. Proceed only when accountStatus is active, kycStatus is approved and your currency is in currencies. Suspended and closed accounts are found with their status. Any active partner may look up accounts.',
    authentication: 'bearer',
    permission: null,
    sandboxOnly: false,
    request: { params: accountLookupParamsSchema },
    success: { status: 200, description: 'The account.', schema: accountSchema, enveloped: true, examples: { account: example('Comfort Gold, a sandbox test user', accountExample) } },
    errorCodes: codes(anyRoute, bearerAdmission, ['PKC_2001', 'PKC_3001']),
  },
  {
    operationId: 'getBalance',
    method: 'GET',
    pathTemplate: '/partner/v1/balance',
    tag: 'Accounts',
    summary: 'Get your balance',
    description: 'Your partner account’s balance per currency, funded in advance by arrangement with the operator. It pays for disbursements (amount plus fee); collections are credited to it (the amount, without the fee).',
    authentication: 'bearer',
    permission: null,
    sandboxOnly: false,
    success: { status: 200, description: 'Both balances.', schema: partnerBalanceSchema, enveloped: true, examples: { balance: example('The sandbox partner after its first start', partnerBalanceExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  {
    operationId: 'quoteCollection',
    method: 'POST',
    pathTemplate: '/partner/v1/collection/quote',
    tag: 'Quotes',
    summary: 'Quote a collection',
    description:
      'Every check runs here, in a fixed order, and the first failure is the answer: the body, the user, the user’s balance (amount plus fee) and limits. Nothing moves and nothing but the quote is created; no limit is used. The quote is valid 10 minutes for one collection request.',
    authentication: 'bearer',
    permission: 'collection',
    sandboxOnly: false,
    request: { body: quoteBody },
    success: { status: 200, description: 'The quote.', schema: collectionQuoteSchema, enveloped: true, examples: { quote: example('25.50 USD from Comfort Gold', collectionQuoteExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, quoteBodyChecks, userChecks, ['PKC_4001'], limitChecks),
  },
  {
    operationId: 'requestCollection',
    method: 'POST',
    pathTemplate: '/partner/v1/collection/request',
    tag: 'Collections',
    summary: 'Request a collection',
    description:
      'Uses a collection quote and asks the user to approve in the wallet app within 10 minutes. Checks, in order: the body (the quote is not touched), the quote (used up whatever happens next), the externalId, then the user and the limits again. Idempotency: an externalId held by a pending or completed collection is 409 PKC_6001 naming it.',
    authentication: 'bearer',
    permission: 'collection',
    sandboxOnly: false,
    request: { body: confirmBody },
    success: { status: 202, description: 'The collection waits for the user’s answer.', schema: collectionAcceptedSchema, enveloped: true, examples: { accepted: example('Waiting for Comfort Gold', collectionAcceptedExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, confirmBodyChecks, quoteUse, userChecks, ['PKC_4001'], limitChecks),
    errorFields: collectionRefusalFields,
    errorExamples: {
      PKC_6001: {
        ...errorExample('PKC_6001', { referenceId: 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E', status: 'pending_approval' }),
        message: 'externalId already used by collection PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E (status pending_approval)',
      },
    },
  },
  {
    operationId: 'getCollection',
    method: 'GET',
    pathTemplate: '/partner/v1/collection/:referenceId',
    tag: 'Collections',
    summary: 'Read a collection',
    description: 'The collection as it is now; for polling when you do not use webhooks, and the source of truth when in doubt. Another partner’s collection is 403 PKC_6005.',
    authentication: 'bearer',
    permission: 'collection',
    sandboxOnly: false,
    request: { params: collectionReferenceIdParamsSchema },
    success: {
      status: 200,
      description: 'The collection.',
      schema: collectionStatusSchema,
      enveloped: true,
      examples: { completed: example('Completed: the money moved', collectionStatusExample), failed: example('Failed after the user approved', failedCollectionStatusExample) },
    },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },
  {
    operationId: 'quoteDisbursement',
    method: 'POST',
    pathTemplate: '/partner/v1/disbursement/quote',
    tag: 'Quotes',
    summary: 'Quote a disbursement',
    description:
      'Every check runs here, in a fixed order, and the first failure is the answer: the body, the recipient, your balance (amount plus fee) and the user’s limits. Nothing moves and nothing but the quote is created. The quote is valid 10 minutes for one transfer.',
    authentication: 'bearer',
    permission: 'disbursement',
    sandboxOnly: false,
    request: { body: quoteBody },
    success: { status: 200, description: 'The quote.', schema: disbursementQuoteSchema, enveloped: true, examples: { quote: example('5,000 LRD to Comfort Gold', disbursementQuoteExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, quoteBodyChecks, userChecks, ['PKC_4002'], limitChecks),
  },
  {
    operationId: 'transferDisbursement',
    method: 'POST',
    pathTemplate: '/partner/v1/disbursement/transfer',
    tag: 'Disbursements',
    summary: 'Send money',
    description:
      'Uses a disbursement quote and credits the user at once. The call has 25 seconds; if the money has not moved by then the attempt is cancelled and 504 PKC_7004 answered (nothing was posted; retry with the same externalId and a new quote). Use a client timeout of at least 30 seconds. A refusal after the attempt was recorded names it in referenceId and status. A 500 PKC_7002 naming a referenceId means the outcome is not known yet: read that disbursement until it settles.',
    authentication: 'bearer',
    permission: 'disbursement',
    sandboxOnly: false,
    request: { body: confirmBody },
    success: { status: 200, description: 'Completed: the money has moved.', schema: disbursementTransferSchema, enveloped: true, examples: { completed: example('5,000 LRD to Comfort Gold', disbursementTransferExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, confirmBodyChecks, quoteUse, userChecks, ['PKC_4002'], limitChecks, ['PKC_7004']),
    errorFields: disbursementRefusalFields,
    errorExamples: {
      PKC_3002: {
        ...errorExample('PKC_3002', { referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', status: 'failed' }),
        message: 'User account not active (suspended or closed). Disbursement PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 is recorded as failed; no money moved',
      },
      PKC_6001: {
        ...errorExample('PKC_6001', { referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', status: 'completed' }),
        message: 'externalId already used by disbursement PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 (status completed)',
      },
      PKC_7002: {
        ...errorExample('PKC_7002', { referenceId: 'PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4', status: 'pending' }),
        message:
          'The outcome of disbursement PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4 is not known yet; query it with GET /partner/v1/disbursement/PKD-1718000000000-4B7E19C2D05A83F6E1B2C3D4. Its externalId stays reserved until it settles',
      },
    },
  },
  {
    operationId: 'getDisbursement',
    method: 'GET',
    pathTemplate: '/partner/v1/disbursement/:referenceId',
    tag: 'Disbursements',
    summary: 'Read a disbursement',
    description: 'Every disbursement your transfer calls created, whatever became of it, for reconciliation. Another partner’s is 403 PKC_6005; an unknown or malformed referenceId 404 PKC_6002.',
    authentication: 'bearer',
    permission: 'disbursement',
    sandboxOnly: false,
    request: { params: disbursementReferenceIdParamsSchema },
    success: {
      status: 200,
      description: 'The disbursement.',
      schema: disbursementStatusSchema,
      enveloped: true,
      examples: { completed: example('Completed', disbursementStatusExample), failed: example('Failed: no money moved', failedDisbursementStatusExample) },
    },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    pathTemplate: '/partner/v1/webhooks/deliveries',
    tag: 'Webhook deliveries',
    summary: 'List your webhook deliveries',
    description: 'Your deliveries, newest first, each with every attempt (an addition to the spec). Unknown or invalid query parameters are 400 PKC_2008 naming them.',
    authentication: 'bearer',
    permission: null,
    sandboxOnly: false,
    request: { query: webhookDeliveryListQuerySchema },
    success: { status: 200, description: 'A page of deliveries.', schema: webhookDeliveryPageSchema, enveloped: true, examples: { page: example('One failed delivery', deliveryPageExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  {
    operationId: 'redeliverWebhookDelivery',
    method: 'POST',
    pathTemplate: '/partner/v1/webhooks/deliveries/:deliveryId/redeliver',
    tag: 'Webhook deliveries',
    summary: 'Send one delivery again',
    description:
      'A delivered, failed or skipped delivery starts a new round (an attempt now, then up to 3 retries); a pending one is brought forward; a delivering one is left as it is. The event keeps its body and webhook-id. No body is needed. Another partner’s delivery answers like an unknown one (404 PKC_6002).',
    authentication: 'bearer',
    permission: null,
    sandboxOnly: false,
    request: { params: webhookDeliveryParamsSchema },
    success: { status: 202, description: 'The delivery, now pending.', schema: webhookDeliverySchema, enveloped: true, examples: { redelivered: example('Pending again', redeliveredDeliveryExample) } },
    errorCodes: codes(anyRoute, bearerAdmission, ['PKC_6002']),
  },
  {
    operationId: 'redeliverFailedWebhookDeliveries',
    method: 'POST',
    pathTemplate: '/partner/v1/webhooks/redeliver',
    tag: 'Webhook deliveries',
    summary: 'Send failed deliveries again',
    description: 'Every failed delivery created at or after `since` starts a new round, oldest first, at most 1,000 per call (more: true means call again).',
    authentication: 'bearer',
    permission: null,
    sandboxOnly: false,
    request: { body: { schema: webhookRedeliverRequestSchema, required: true, mediaTypes: json, description: 'Which deliveries.' } },
    success: { status: 202, description: 'What was sent again.', schema: redeliveryBatchSchema, enveloped: true, examples: { batch: example('Two deliveries', redeliveryBatchExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
  sandboxAction('approve', 'Approve a collection as the user (sandbox)', 'Approves one of your pending collections as the user would: the money really moves in the sandbox ledger (or the collection fails if the user’s balance or limits no longer allow it).'),
  sandboxAction('decline', 'Decline a collection as the user (sandbox)', 'Declines one of your pending collections as the user would; no money moves.'),
  sandboxAction('expire', 'Expire a collection now (sandbox)', 'The approval window of one of your pending collections passes now; no money moves.'),
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    pathTemplate: '/openapi.json',
    tag: 'Contract',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from the schemas the services validate with. No token needed; limited per source address like the token endpoint.',
    authentication: 'none',
    permission: null,
    sandboxOnly: false,
    success: { status: 200, description: 'The OpenAPI document.', schema: z.looseObject({ openapi: z.string() }), enveloped: false, examples: {} },
    errorCodes: codes(['PKC_2008', 'PKC_6005', 'PKC_7001', 'PKC_7002', 'PKC_7003']),
  },
  ...contractDocumentOperations,
  ...transactionListOperations,
  ...statementAndEventOperations,
  ...refundOperations,
  ...bulkOperations,
];

export type { PublicAuthentication, PublicOperation, PublicTag } from './operation-parts';
