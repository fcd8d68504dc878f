import { z } from 'zod';
import { collectionReferenceIdParamsSchema, collectionStatusExample, collectionStatusSchema, type PublicCollectionStatus } from './collections';
import { errorExample, type ErrorExtraFields } from './envelopes';
import { anyRoute, codes, example, json, operationFamily, ownTransactionRead, partnerAccess, permissionAdmission, userChecks } from './operation-parts';
import { refundStatuses } from '../refund-events';
import { nonNegativeAmountField } from './fields';
import { pageLimitDefault, pageLimitMax } from './pagination';
import {
  processingRefundExample,
  refundExample,
  refundListQuerySchema,
  refundPageExample,
  refundPageSchema,
  refundReferenceIdField,
  refundReferenceIdParamsSchema,
  refundRequestSchema,
  refundSchema,
} from './refunds';

/**
 * Issue 19: the partner withdraws a pending collection (cancel) and gives money back on a
 * completed one (refunds), with the refunds' reads. Gathered into `publicOperations`.
 */

const cancelledCollectionExample: PublicCollectionStatus = (() => {
  const cancelled: PublicCollectionStatus = { ...collectionStatusExample, status: 'cancelled' };
  delete cancelled.transactionId;
  return cancelled;
})();

const refundRefusalFields: ErrorExtraFields = {
  referenceId: refundReferenceIdField.meta({
    description:
      'On 409 PKC_6001: the refund that holds the externalId. On a refusal of the wallet after the refund was recorded (the user can no longer receive, your balance does not cover it): that refund, now failed (read it; its amount is refundable again).',
  }),
  status: z.enum(refundStatuses).meta({ description: 'That refund’s status.' }),
  refundableAmount: nonNegativeAmountField.meta({ description: 'On 409 PKC_6006: what is left to refund on the collection now (0 when it is refunded in full).', example: 15.5 }),
};

const refundListRules = `Newest first (by creation time). Filters combine: status, currency, externalId (exact), collectionReferenceId (exact), createdFrom (inclusive) and createdTo (exclusive). Pages of limit items (1 to ${pageLimitMax}, default ${pageLimitDefault}); pass nextCursor as cursor, with the same filters, for the next page. Unknown or invalid parameters, createdFrom after createdTo, and a cursor that is another partner’s, another list’s or made with other filters are 400 PKC_2008 naming the parameter.`;

export const refundOperations = operationFamily([
  {
    operationId: 'cancelCollection',
    method: 'POST',
    pathTemplate: '/partner/v1/collection/:referenceId/cancel',
    tag: 'Collections',
    summary: 'Cancel a pending collection',
    description:
      'Withdraws one of your collection requests while it waits for the user: it becomes cancelled (final, no money moves), the user’s app no longer shows it, its externalId is free again, and collection.cancelled is sent to your webhook. No body is needed. If the user approves at the same moment exactly one of the two wins: a collection the user already approved, declined, or that you already cancelled, is 409 PKC_6004 (the message names its status; read it); one whose approval window has passed is 410 PKC_6003 (it is expired). Another partner’s is 403 PKC_6005.',
    ...partnerAccess('collection'),
    request: { params: collectionReferenceIdParamsSchema },
    success: { status: 200, description: 'The collection, now cancelled.', schema: collectionStatusSchema, enveloped: true, examples: { cancelled: example('Cancelled: no money moved', cancelledCollectionExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, ['PKC_6002', 'PKC_6003', 'PKC_6004', 'PKC_6005']),
    errorExamples: {
      PKC_6004: { ...errorExample('PKC_6004'), message: 'Collection PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E is already completed; it cannot be changed' },
    },
  },
  {
    operationId: 'refundCollection',
    method: 'POST',
    pathTemplate: '/partner/v1/collection/:referenceId/refund',
    tag: 'Refunds',
    summary: 'Refund a completed collection',
    description:
      'Gives money back to the user of one of your completed collections, in whole (leave amount out: what is left to refund) or in part; the refunds of a collection never add up to more than its amount (409 PKC_6006). Your balance in the collection’s currency is debited and the user’s wallet credited in one posting; a refund has no fee, and the collection’s fee is not given back. It does not count against the user’s limits. Idempotent by externalId: one held by a refund of yours in progress or completed is 409 PKC_6001 naming that refund. Checks, in order: the body, the collection (404 PKC_6002, 403 PKC_6005, not completed: 409 PKC_6004), the externalId, what is left to refund, then the user (PKC_3001–3005: they can no longer receive) and your balance (400 PKC_4002); any refusal moves nothing. 200 when the money has moved; 202 when the wallet could not be reached in time: the refund is processing and completes (or fails) on its own, with refund.completed or refund.failed to your webhook; read it with GET /refund/{referenceId}. Use a client timeout of at least 30 seconds, as for transfers.',
    ...partnerAccess('collection'),
    request: { params: collectionReferenceIdParamsSchema, body: { schema: refundRequestSchema, required: true, mediaTypes: json, description: 'Your reference, and optionally the amount and a reason.' } },
    success: {
      status: 200,
      description: 'Completed: the user was paid back.',
      schema: refundSchema,
      enveloped: true,
      examples: { completed: example('10 USD back to Comfort Gold', refundExample) },
      alsoAnswered: {
        status: 202,
        description: 'Processing: the wallet could not be reached in time; the refund completes or fails on its own (refund.completed or refund.failed follows). Its amount stays reserved meanwhile.',
        examples: { processing: example('Waiting for the wallet', processingRefundExample) },
      },
    },
    errorCodes: codes(anyRoute, permissionAdmission, ['PKC_2002', 'PKC_2004', 'PKC_2006', 'PKC_2007'], ['PKC_6001', 'PKC_6002', 'PKC_6004', 'PKC_6005', 'PKC_6006'], userChecks, ['PKC_4002']),
    errorFields: refundRefusalFields,
    errorExamples: {
      PKC_6001: {
        ...errorExample('PKC_6001', { referenceId: refundExample.referenceId, status: 'completed' }),
        message: `externalId already used by refund ${refundExample.referenceId} (status completed)`,
      },
      PKC_6004: { ...errorExample('PKC_6004'), message: 'Collection PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E is pending_approval; only a completed collection can be refunded' },
      PKC_2007: { ...errorExample('PKC_2007'), message: 'reason longer than 200 characters' },
      PKC_6006: {
        ...errorExample('PKC_6006', { refundableAmount: 15.5 }),
        message: 'Refund of 20.00 exceeds the 15.50 left to refund on collection PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E; nothing was refunded',
      },
      PKC_3002: {
        ...errorExample('PKC_3002', { referenceId: 'PKR-1718003800000-0F1E2D3C4B5A69788796A5B4', status: 'failed' }),
        message: 'User account not active (suspended or closed). Refund PKR-1718003800000-0F1E2D3C4B5A69788796A5B4 is recorded as failed; no money moved',
      },
    },
  },
  {
    operationId: 'getRefund',
    method: 'GET',
    pathTemplate: '/partner/v1/refund/:referenceId',
    tag: 'Refunds',
    summary: 'Read a refund',
    description: 'A refund as it is now, with its collection’s refunded total; the source of truth while one is processing. Another partner’s is 403 PKC_6005; an unknown or malformed referenceId 404 PKC_6002.',
    ...partnerAccess('collection'),
    request: { params: refundReferenceIdParamsSchema },
    success: { status: 200, description: 'The refund.', schema: refundSchema, enveloped: true, examples: { completed: example('Completed', refundExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },
  {
    operationId: 'listRefunds',
    method: 'GET',
    pathTemplate: '/partner/v1/refunds',
    tag: 'Refunds',
    summary: 'List your refunds',
    description: `Your refunds, each as GET /refund/{referenceId} answers it. ${refundListRules} To find the refund you asked for with an externalId whose answer you lost, ask with externalId=…: the ones created with it, or an empty page when none was.`,
    ...partnerAccess('collection'),
    request: { query: refundListQuerySchema },
    success: { status: 200, description: 'A page of refunds.', schema: refundPageSchema, enveloped: true, examples: { page: example('A processing and a completed refund', refundPageExample) } },
    errorCodes: codes(anyRoute, permissionAdmission),
  },
]);
