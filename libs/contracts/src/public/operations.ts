import { accountOperations } from './account-operations';
import { authOperations } from './auth-operations';
import { bulkOperations } from './bulk-operations';
import { collectionOperations } from './collection-operations';
import { contractDocumentOperations } from './contract-document-operations';
import { disbursementOperations } from './disbursement-operations';
import type { PublicOperation } from './operation-parts';
import { pricingOperations } from './pricing-operations';
import { refundOperations } from './refund-operations';
import { sandboxOperations } from './sandbox-operations';
import { statementAndEventOperations } from './statement-and-event-operations';
import { transactionListOperations } from './transaction-list-operations';
import { webhookDeliveryOperations } from './webhook-delivery-operations';

/**
 * The families of operations, each in its own `<family>-operations.ts`, in the order the document
 * lists their paths.
 */
const operationFamilies = [
  authOperations,
  accountOperations,
  pricingOperations,
  collectionOperations,
  disbursementOperations,
  webhookDeliveryOperations,
  sandboxOperations,
  contractDocumentOperations,
  transactionListOperations,
  statementAndEventOperations,
  refundOperations,
  bulkOperations,
] as const;

/** The operationId of every operation of the public API. */
export type PublicOperationId = (typeof operationFamilies)[number][number]['operationId'];

/**
 * Every operation of the public API. The gateway forwards each one (its route table is derived
 * from these: services/gateway/src/domain/routes.ts) except the contract documents, which it serves
 * itself (GET /openapi.json, /docs, /postman.json).
 */
export const publicOperations: readonly PublicOperation<PublicOperationId>[] = operationFamilies.flat();

export { largeRequestBodyLimit } from './operation-parts';
export type { PublicAuthentication, PublicOperation, PublicTag } from './operation-parts';
