import type { publicApi } from '@pwa/contracts';
import type { TimeoutClass, UpstreamName } from './routes';

/** Where the gateway forwards an operation, and which deadline the call gets. */
export interface OperationUpstream {
  upstream: UpstreamName;
  timeoutClass: TimeoutClass;
}

/** The contract in its three forms: the gateway answers these itself (http/contract-documents.ts) and forwards them nowhere. */
export const servedByTheGateway = 'served by the gateway';

/**
 * What the gateway adds to each operation of the public contract (libs/contracts/src/public):
 * everything else a route needs comes from the operation. Keyed by operationId, so the type checker
 * refuses an operation that is not listed here, and a name that is no operation.
 */
export const operationUpstreams: Readonly<Record<publicApi.PublicOperationId, OperationUpstream | typeof servedByTheGateway>> = {
  getAccessToken: { upstream: 'auth', timeoutClass: 'standard' },
  lookUpAccount: { upstream: 'wallet', timeoutClass: 'standard' },
  getBalance: { upstream: 'wallet', timeoutClass: 'standard' },
  getPricing: { upstream: 'quotes', timeoutClass: 'standard' },
  quoteCollection: { upstream: 'quotes', timeoutClass: 'standard' },
  requestCollection: { upstream: 'collections', timeoutClass: 'standard' },
  getCollection: { upstream: 'collections', timeoutClass: 'standard' },
  quoteDisbursement: { upstream: 'quotes', timeoutClass: 'standard' },
  // Posts the money before it answers: the deadline outlasts the service's own 25 s budget.
  transferDisbursement: { upstream: 'disbursements', timeoutClass: 'transfer' },
  getDisbursement: { upstream: 'disbursements', timeoutClass: 'standard' },
  listWebhookDeliveries: { upstream: 'webhooks', timeoutClass: 'standard' },
  redeliverWebhookDelivery: { upstream: 'webhooks', timeoutClass: 'standard' },
  redeliverFailedWebhookDeliveries: { upstream: 'webhooks', timeoutClass: 'standard' },
  sendTestWebhook: { upstream: 'webhooks', timeoutClass: 'standard' },
  sandboxApproveCollection: { upstream: 'collections', timeoutClass: 'standard' },
  sandboxDeclineCollection: { upstream: 'collections', timeoutClass: 'standard' },
  sandboxExpireCollection: { upstream: 'collections', timeoutClass: 'standard' },
  getOpenApiDocument: servedByTheGateway,
  getApiReferencePage: servedByTheGateway,
  getPostmanCollection: servedByTheGateway,
  listCollections: { upstream: 'collections', timeoutClass: 'standard' },
  listDisbursements: { upstream: 'disbursements', timeoutClass: 'standard' },
  getStatement: { upstream: 'wallet', timeoutClass: 'standard' },
  listEvents: { upstream: 'webhooks', timeoutClass: 'standard' },
  getEvent: { upstream: 'webhooks', timeoutClass: 'standard' },
  cancelCollection: { upstream: 'collections', timeoutClass: 'standard' },
  // May post the money before it answers, like the transfer.
  refundCollection: { upstream: 'collections', timeoutClass: 'transfer' },
  getRefund: { upstream: 'collections', timeoutClass: 'standard' },
  listRefunds: { upstream: 'collections', timeoutClass: 'standard' },
  // Issue 20: the bulk transfer answers 202 before any payout is paid (they are paid in batches), so no bulk route needs the longer deadline.
  quoteBulkDisbursement: { upstream: 'disbursements', timeoutClass: 'standard' },
  transferBulkDisbursement: { upstream: 'disbursements', timeoutClass: 'standard' },
  getBulkDisbursement: { upstream: 'disbursements', timeoutClass: 'standard' },
  listBulkDisbursementItems: { upstream: 'disbursements', timeoutClass: 'standard' },
  listBulkDisbursements: { upstream: 'disbursements', timeoutClass: 'standard' },
};
